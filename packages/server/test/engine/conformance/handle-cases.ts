/**
 * Conformance cases of the engines' handles (media-engine.ts EngineHandle, docs/architecture.md "The media-engine
 * contract"): what publish and subscribe make is owned by the participant's engine-side record, so a leave or the
 * room's end closes it, and an operation that completes after its participant left hands back a closed handle.
 */
import { expect } from 'vitest';
import { EngineError, type EngineHandle, type HandleCloseReason, type SubscriptionHandle, type SubscriptionWants, type UplinkHandle } from '../../../src/engine/media-engine.js';
import { publishAndSend, subscriberPeer, uplink, waitFor } from '../../support/engine-peers.js';
import { rejectsWith, subscriber, type CaseContext, type ConformanceCase } from './conformance-cases.js';

const ALL: SubscriptionWants = { audio: true, bigVideo: true, smallVideo: false, auxVideo: false };

/** A publisher sending audio and video in `room`, with its uplink's handle. */
async function publishing(ctx: CaseContext, name: string, room: string): Promise<{ id: string; uplink: UplinkHandle }> {
  const id = ctx.id(name);
  ctx.engine.joinRoom(id, room);
  let made: UplinkHandle | undefined;
  const sender = await publishAndSend({ publish: async (participantId, offer) => (made = await ctx.engine.publish(participantId, offer)) }, id);
  ctx.cleanup(sender.stop);
  return { id, uplink: made! };
}

/** The reasons a handle's close listeners are told, as they come. */
function closes(handle: EngineHandle): HandleCloseReason[] {
  const told: HandleCloseReason[] = [];
  handle.onClose((reason) => told.push(reason));
  return told;
}

/** A client uplink offer whose peer closes after the case. */
async function offer(ctx: CaseContext): Promise<string> {
  const up = await uplink('H264');
  ctx.cleanup(() => up.pc.close());
  return up.offer;
}

export const HANDLE_CASES: readonly ConformanceCase[] = [
  {
    name: "41 handles: a participant's leave closes its uplinks and subscriptions (and its subscribers' subscriptions to it); the others' stay open",
    async run(ctx) {
      const { engine } = ctx;
      const room = ctx.id('room');
      const leaver = await publishing(ctx, 'leaver', room);
      const other = await publishing(ctx, 'other', room);
      const stayer = subscriber(ctx, 'stayer', room);
      const leaverPeer = subscriberPeer();
      ctx.cleanup(() => leaverPeer.pc.close());
      const its = await engine.subscribe(leaver.id, other.id, ALL, leaverPeer.negotiate);
      const toIt = await engine.subscribe(stayer.id, leaver.id, ALL, stayer.peer.negotiate);
      const toOther = await engine.subscribe(stayer.id, other.id, ALL, stayer.peer.negotiate);
      const told = [leaver.uplink, its, toIt].map(closes);
      expect([leaver.uplink, its, toIt, toOther].map((handle) => handle.closed)).toEqual([false, false, false, false]);
      const busy = engine.stats();
      await engine.removeParticipant(leaver.id);
      expect([leaver.uplink.closeReason, its.closeReason, toIt.closeReason]).toEqual(['left', 'left', 'source-left']);
      expect(told, 'each close listener is told once').toEqual([['left'], ['left'], ['source-left']]);
      expect(other.uplink.closed || toOther.closed, 'the handles of those who stay').toBe(false);
      const after = engine.stats();
      expect({ uplinks: after.uplinks, downlinks: after.downlinks, subscriptions: after.subscriptions })
        .toEqual({ uplinks: busy.uplinks - 1, downlinks: busy.downlinks - 1, subscriptions: busy.subscriptions - 2 });
      await leaver.uplink.close(); // closing a closed handle does nothing
      expect(told[0]).toEqual(['left']);
      const audio = stayer.peer.byKind.audio;
      await waitFor(() => stayer.peer.byKind.audio > audio + 10, 15_000, 'the other\'s audio at the stayer after the leave');
    },
  },
  {
    name: '41 handles: a publish that completes after the leave is closed (left), and leaves no uplink behind',
    async run(ctx) {
      const { engine } = ctx;
      const late = ctx.id('late');
      engine.joinRoom(late, ctx.id('room'));
      const before = engine.stats().uplinks;
      const pending = engine.publish(late, await offer(ctx));
      await engine.removeParticipant(late);
      const handle = await pending;
      expect(handle.closed).toBe(true);
      expect(handle.closeReason).toBe('left');
      expect(engine.stats().uplinks).toBe(before);
      await rejectsWith(engine.publish(late, await offer(ctx)), 'not-joined');
    },
  },
  {
    name: '41 handles: a subscription that completes after its source left is closed (source-left) or refused, and leaves no subscription behind',
    async run(ctx) {
      const { engine } = ctx;
      const room = ctx.id('room');
      const source = await publishing(ctx, 'source', room);
      const sub = subscriber(ctx, 'sub', room);
      const before = engine.stats().subscriptions;
      const pending = engine.subscribe(sub.id, source.id, ALL, sub.peer.negotiate).then((handle: SubscriptionHandle) => handle, (error: unknown) => error);
      await engine.removeParticipant(source.id);
      const outcome = await pending;
      // Janus waits for the source's feed, gone with it: not-published (media-engine.ts "Churn").
      if (outcome instanceof EngineError) expect(['not-joined', 'not-published']).toContain(outcome.reason);
      else expect((outcome as SubscriptionHandle).closeReason).toBe('source-left');
      expect(engine.stats().subscriptions).toBe(before);
    },
  },
  {
    name: '41 handles: an unpublish while a publish is negotiated closes that publish\'s uplink (unpublished); a later publish stays open until unpublished',
    async run(ctx) {
      const { engine } = ctx;
      const pub = ctx.id('pub');
      engine.joinRoom(pub, ctx.id('room'));
      const before = engine.stats().uplinks;
      const pending = engine.publish(pub, await offer(ctx));
      await engine.unpublish(pub);
      const overtaken = await pending;
      expect(overtaken.closeReason).toBe('unpublished');
      expect(engine.stats().uplinks).toBe(before);
      const next = await engine.publish(pub, await offer(ctx));
      expect(next.closed).toBe(false);
      expect(engine.stats().uplinks).toBe(before + 1);
      await engine.unpublish(pub);
      expect(next.closeReason).toBe('unpublished');
      expect(engine.stats().uplinks).toBe(before);
    },
  },
  {
    name: "41 handles: the room's end closes its participants' uplinks and subscriptions and its shares; other rooms' stay open",
    async run(ctx) {
      const { engine } = ctx;
      const room = ctx.id('room');
      const elsewhere = ctx.id('elsewhere');
      const pub = await publishing(ctx, 'pub', room);
      const sub = subscriber(ctx, 'sub', room);
      const far = await publishing(ctx, 'far', elsewhere);
      const farSub = subscriber(ctx, 'far-sub', elsewhere);
      const subscription = await engine.subscribe(sub.id, pub.id, ALL, sub.peer.negotiate);
      const farSubscription = await engine.subscribe(farSub.id, far.id, ALL, farSub.peer.negotiate);
      let shared: SubscriptionHandle | undefined;
      if (engine.shareSource) {
        await engine.shareSource(far.id, room);
        shared = await engine.subscribe(sub.id, far.id, ALL, sub.peer.negotiate);
      }
      const busy = engine.stats();
      await engine.endRoom(room);
      expect([pub.uplink.closeReason, subscription.closeReason]).toEqual(['room-ended', 'room-ended']);
      expect(shared?.closed ?? true, 'the subscription to a source shared with the room').toBe(true);
      expect(far.uplink.closed || farSubscription.closed, 'the other room\'s handles').toBe(false);
      const after = engine.stats();
      expect({ uplinks: after.uplinks, downlinks: after.downlinks, subscriptions: after.subscriptions })
        .toEqual({ uplinks: busy.uplinks - 1, downlinks: busy.downlinks - 1, subscriptions: busy.subscriptions - (shared ? 2 : 1) });
      await rejectsWith(engine.publish(pub.id, await offer(ctx)), 'not-joined');
      if (shared) {
        // The share went with the room: a newcomer to a room of that name does not receive the other room's source.
        const newcomer = subscriber(ctx, 'newcomer', room);
        await rejectsWith(engine.subscribe(newcomer.id, far.id, ALL, newcomer.peer.negotiate), 'not-joined');
      }
      await engine.endRoom(room); // of nobody: resolves
    },
  },
];
