/**
 * Conformance cases of the node-to-node relay (media-engine.ts exportSource / importSource, issue 39): a source
 * published on engine A made a source of a room on engine B, as two nodes of one cluster would, wired here in one
 * process (the connector hands B's offer straight to A's exportSource). Every engine that implements the relay
 * runs them (relay-conformance.test.ts); one that does not declares it and skips them.
 */
import { expect } from 'vitest';
import { RtpHeader, RtpPacket } from 'werift';
import type { RelayAnswer, RelayConnector } from '../../../src/engine/media-engine.js';
import { mintRelayCredential } from '../../../src/engine/relay/relay-credential.js';
import { publishAndSend, subscriberPeer, uplink, waitFor } from '../../support/engine-peers.js';
import { rejectsWith } from './conformance-cases.js';
import { lossyLink, throughPort, type LossyLink } from './lossy-link.js';
import {
  ALL, SMALL, backTo, closes, credential, direct, layerMarks, publisherOnA, relayed, resources, sendPlis, simulcastImportedOnB, subscriberOnB,
  type RelayCase,
} from './relay-setup.js';

export type { RelayCase, RelayContext } from './relay-setup.js';

export const RELAY_CASES: readonly RelayCase[] = [
  {
    name: '39 relay: stats() and inspect() of both engines are back to their baseline once the relay ends',
    async run(ctx) {
      const [baseA, baseB] = [await resources(ctx.a), await resources(ctx.b)];
      const { pub, sub } = await relayed(ctx);
      const [busyA, busyB] = [await resources(ctx.a), await resources(ctx.b)];
      expect(busyA.relayExports, 'exports on A while relayed').toBe((baseA.relayExports ?? 0) + 1);
      expect(busyB.relayImports, 'imports on B while relayed').toBe((baseB.relayImports ?? 0) + 1);
      await ctx.b.removeParticipant(sub.id);
      await ctx.a.removeParticipant(pub.id);
      await backTo(ctx.a, baseA, 'A\'s resources after the relay ended');
      await backTo(ctx.b, baseB, 'B\'s resources after the relay ended');
    },
  },
  {
    name: '39 relay: a subscriber on B receives the audio and video of a publisher on A through one import, and two subscribers still make one import',
    async run(ctx) {
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      const { pub, roomB, imported, sub } = await relayed(ctx);
      const second = subscriberOnB(ctx, 'second', roomB);
      await ctx.b.subscribe(second.id, pub.id, ALL, second.peer.negotiate);
      await waitFor(() => second.peer.byKind.video > 10 && second.peer.byKind.audio > 10, 15_000, 'audio and video at the second subscriber on B');
      const again = await ctx.b.importSource(roomB, pub.id, credential(ctx, pub.id), direct(ctx));
      expect(again, 'a second import of the same source is the first').toBe(imported);
      expect(ctx.a.stats().relayExports, 'one export from A for two subscribers on B').toBe(exportsBefore + 1);
      const [one, two] = [sub.peer.byKind.video, second.peer.byKind.video];
      await waitFor(() => sub.peer.byKind.video > one + 10 && second.peer.byKind.video > two + 10, 10_000, 'video flowing on to both');
    },
  },
  {
    name: '39 relay: a subscriber on B switches between the big and the small video through the relay',
    async run(ctx) {
      const { roomB, pub } = await simulcastImportedOnB(ctx);
      const sub = subscriberOnB(ctx, 'sub', roomB);
      const marks = layerMarks(sub.peer.pc);
      await ctx.b.subscribe(sub.id, pub, SMALL, sub.peer.negotiate);
      await waitFor(() => marks.filter((m) => m === 0x51).length > 10, 15_000, 'the small video at the subscriber on B');
      await ctx.b.updateSubscription(sub.id, pub, ALL);
      const at = marks.length;
      await waitFor(() => marks.slice(at).filter((m) => m === 0xb1).length > 10, 10_000, 'the big video after the switch');
      const tail = marks.slice(-5);
      expect(tail.every((m) => m === 0xb1), 'only the big video once switched').toBe(true);
    },
  },
  {
    name: "39 relay: only what B's subscribers want crosses the node link: nothing without one, the big video, then the small one alone",
    async run(ctx) {
      const { roomB, pub } = await simulcastImportedOnB(ctx);
      /** What B received on the link over 800 ms, by slot (after 500 ms for what was in flight). */
      const received = async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const before = { ...ctx.b.stats().receivedPackets! };
        await new Promise((resolve) => setTimeout(resolve, 800));
        const after = ctx.b.stats().receivedPackets!;
        return { audio: after.audio - before.audio, video: after.video - before.video, small: after.small - before.small };
      };
      expect(await received(), 'nothing on the link without a subscriber on B').toEqual({ audio: 0, video: 0, small: 0 });
      const sub = subscriberOnB(ctx, 'sub', roomB);
      await ctx.b.subscribe(sub.id, pub, ALL, sub.peer.negotiate);
      const big = await received();
      expect(big.audio > 10 && big.video > 10, `audio and the big video for a subscriber wanting them (${JSON.stringify(big)})`).toBe(true);
      expect(big.small, 'no small video while nobody wants it').toBe(0);
      await ctx.b.updateSubscription(sub.id, pub, SMALL);
      const small = await received();
      expect(small.small > 10 && small.audio > 10, `the small video once wanted alone (${JSON.stringify(small)})`).toBe(true);
      expect(small.video, 'no big video once nobody wants it').toBe(0);
    },
  },
  {
    name: '39 relay: key-frame requests of subscribers on B reach the publisher on A, coalesced',
    async run(ctx) {
      const { pub, roomB, sub } = await relayed(ctx);
      const second = subscriberOnB(ctx, 'second', roomB);
      await ctx.b.subscribe(second.id, pub.id, ALL, second.peer.negotiate);
      await waitFor(() => second.peer.byKind.video > 10, 15_000, 'video at the second subscriber');
      // Quiet first: the requests made as the links came up are answered (every packet of the test publisher is a key frame).
      let before = pub.plis();
      const quietUntil = Date.now() + 10_000;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        if (pub.plis() === before || Date.now() > quietUntil) break;
        before = pub.plis();
      }
      await Promise.all([sendPlis(sub.peer.pc, 10), sendPlis(second.peer.pc, 10)]);
      await waitFor(() => pub.plis() > before, 5000, 'a key-frame request at the publisher on A');
      await new Promise((resolve) => setTimeout(resolve, 1000)); // the window the 20 requests may be spread over, then counted
      expect(pub.plis() - before, '20 requests on B arrive coalesced on A').toBeLessThanOrEqual(3);
    },
  },
  {
    name: "39 relay: the import closes 'source-left' when the exported source leaves A, and B's subscriptions to it close",
    async run(ctx) {
      const { pub, imported, subscription } = await relayed(ctx);
      const told = closes(imported);
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      await ctx.a.removeParticipant(pub.id);
      await waitFor(() => imported.closed, 5000, 'the import closed');
      expect(told).toEqual(['source-left']);
      expect(subscription.closeReason).toBe('source-left');
      expect(ctx.a.stats().relayExports, 'the export released on A').toBe(exportsBefore - 1);
    },
  },
  {
    name: "39 relay: endRoom on A closes the import 'room-ended'; endRoom on B closes it 'room-ended' and releases the export on A",
    async run(ctx) {
      const first = await relayed(ctx);
      await ctx.a.endRoom(first.roomA);
      await waitFor(() => first.imported.closed, 5000, 'the import closed by A\'s endRoom');
      expect(first.imported.closeReason).toBe('room-ended');
      expect(first.subscription.closed, 'B\'s subscription to it').toBe(true);
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      const second = await relayed({ ...ctx, id: (name) => ctx.id(`2-${name}`) });
      expect(ctx.a.stats().relayExports).toBe(exportsBefore + 1);
      await ctx.b.endRoom(second.roomB);
      expect(second.imported.closeReason).toBe('room-ended');
      expect(second.subscription.closeReason).toBe('room-ended');
      await waitFor(() => (ctx.a.stats().relayExports ?? 0) === exportsBefore, 5000, 'the export released on A');
    },
  },
  {
    name: "39 relay: the import closes 'link-lost' when the node link fails without word from A, and closing the import releases the export",
    async run(ctx) {
      // The cluster layer's word on the export's close is lost: only the link tells.
      let exported: RelayAnswer | undefined;
      const silent: RelayConnector = async (offer) => {
        const handle = await ctx.a.exportSource(offer);
        exported = handle;
        return { answer: handle.answer, onClose: () => () => undefined, close: () => handle.close() };
      };
      const { imported, subscription } = await relayed(ctx, silent);
      await exported!.close();
      await waitFor(() => imported.closed, 10_000, 'the import closed once the link went');
      expect(imported.closeReason).toBe('link-lost');
      expect(subscription.closeReason).toBe('source-left');
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      const second = await relayed({ ...ctx, id: (name) => ctx.id(`2-${name}`) });
      await second.imported.close();
      expect(second.subscription.closeReason).toBe('source-left');
      await waitFor(() => (ctx.a.stats().relayExports ?? 0) === exportsBefore, 5000, 'the export released on A once its importer closed');
    },
  },
  {
    name: "39 relay: the relay holds across the source's unpublish and republish on A (the import stays open, media comes again)",
    async run(ctx) {
      const { pub, imported, sub } = await relayed(ctx);
      await ctx.a.unpublish(pub.id);
      const again = await publishAndSend(ctx.a, pub.id);
      ctx.cleanup(again.stop);
      const video = sub.peer.byKind.video;
      await waitFor(() => sub.peer.byKind.video > video + 20, 15_000, 'video at the subscriber on B after the republish');
      expect(imported.closed, 'the import after the republish').toBe(false);
    },
  },
  {
    name: '39 relay: packets lost on the node link are asked for again (NACK) from A and reach the subscriber on B',
    async run(ctx) {
      const roomB = ctx.id('room-b');
      const id = ctx.id('pub');
      ctx.a.joinRoom(id, ctx.id('room-a'));
      const up = await uplink('H264');
      await up.pc.setRemoteDescription({ type: 'answer', sdp: (await ctx.a.publish(id, up.offer)).answerSdp });
      let sent = 0;
      const timer = setInterval(() => {
        sent++;
        const payload = Buffer.from([0x65, 0, 0, 0, 0, 1, 2, 3]);
        payload.writeUInt32BE(sent, 1);
        void up.video.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: sent & 0xffff, timestamp: sent * 1800, marker: true }), payload));
      }, 10);
      ctx.cleanup(async () => { clearInterval(timer); await up.pc.close(); });
      // The node link: B's offer and A's answer each point at a relay that passes everything on but every 10th RTP packet of A.
      let link: LossyLink | undefined;
      const lossy: RelayConnector = async (offer) => {
        const made = await lossyLink(throughPort(offer.offer, 0).original!, 10);
        link = made;
        ctx.cleanup(() => made.close());
        const handle = await ctx.a.exportSource({ ...offer, offer: throughPort(offer.offer, made.towardsB).sdp });
        made.setA(throughPort(handle.answer, 0).original!);
        return { answer: throughPort(handle.answer, made.towardsA).sdp, onClose: (listener) => handle.onClose(listener), close: () => handle.close() };
      };
      const imported = await ctx.b.importSource(roomB, id, credential(ctx, id), lossy);
      ctx.cleanup(() => imported.close());
      const sub = subscriberOnB(ctx, 'sub', roomB);
      const ids = new Set<number>();
      sub.peer.pc.onTrack.subscribe((track) => { if (track.kind === 'video') track.onReceiveRtp.subscribe((rtp) => { if (rtp.payload.length >= 5) ids.add(rtp.payload.readUInt32BE(1)); }); });
      await ctx.b.subscribe(sub.id, id, ALL, sub.peer.negotiate);
      await waitFor(() => ids.size > 50, 15_000, 'video at the subscriber on B');
      const first = Math.min(...ids);
      await waitFor(() => link!.dropped() > 30, 10_000, 'packets dropped on the node link');
      // Packets old enough to have been asked for again: all of them, though every 10th was dropped once.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const last = sent - 30;
      const missing = [];
      for (let n = first; n <= last; n++) if (!ids.has(n)) missing.push(n);
      expect(missing.length, `packets of ${first}…${last} missing at B (${link!.dropped()} dropped on the link)`).toBeLessThanOrEqual(Math.ceil((last - first) / 100));
    },
  },
  {
    name: '39 relay: a source imported on B exports on to C (a relay node): a subscriber on C receives it through one import on B',
    async run(ctx) {
      const pub = await publisherOnA(ctx, ctx.id('room-a'));
      const roomB = ctx.id('room-b');
      const roomC = ctx.id('room-c');
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      const onB = await ctx.b.importSource(roomB, pub.id, credential(ctx, pub.id), direct(ctx));
      ctx.cleanup(() => onB.close());
      const onC = await ctx.c.importSource(roomC, pub.id, mintRelayCredential(ctx.secret, pub.id, 'node-c'), (offer) => ctx.b.exportSource(offer));
      ctx.cleanup(() => onC.close());
      const id = ctx.id('sub-c');
      ctx.c.joinRoom(id, roomC);
      const peer = subscriberPeer();
      ctx.cleanup(() => peer.pc.close());
      await ctx.c.subscribe(id, pub.id, ALL, peer.negotiate);
      await waitFor(() => peer.byKind.video > 10 && peer.byKind.audio > 10, 15_000, 'audio and video at the subscriber on C, through B');
      expect(ctx.a.stats().relayExports, 'A exports once, to B').toBe(exportsBefore + 1);
      await ctx.a.removeParticipant(pub.id);
      await waitFor(() => onC.closed, 5000, 'the import on C closed once the source left A');
      expect([onB.closeReason, onC.closeReason]).toEqual(['source-left', 'source-left']);
    },
  },
  {
    name: '39 relay: two concurrent imports of one source make one import; a source that is a participant here is not imported (refused)',
    async run(ctx) {
      const roomA = ctx.id('room-a');
      const roomB = ctx.id('room-b');
      const pub = await publisherOnA(ctx, roomA);
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      const [one, two] = await Promise.all([
        ctx.b.importSource(roomB, pub.id, credential(ctx, pub.id), direct(ctx)),
        ctx.b.importSource(roomB, pub.id, credential(ctx, pub.id), direct(ctx)),
      ]);
      ctx.cleanup(() => one.close());
      expect(two, 'the second concurrent import is the first').toBe(one);
      expect(ctx.a.stats().relayExports, 'one export on A').toBe(exportsBefore + 1);
      const local = ctx.id('local');
      ctx.b.joinRoom(local, roomB);
      await rejectsWith(ctx.b.importSource(roomB, local, credential(ctx, local), direct(ctx)), 'refused');
      await ctx.b.removeParticipant(local);
    },
  },
  {
    name: "39 relay: an export without the cluster's credential is refused (forged, expired, another source's)",
    async run(ctx) {
      const roomA = ctx.id('room-a');
      const pub = await publisherOnA(ctx, roomA);
      const exportsBefore = ctx.a.stats().relayExports ?? 0;
      const importsBefore = ctx.b.stats().relayImports ?? 0;
      const forged = mintRelayCredential('not-the-cluster-secret', pub.id, 'node-b');
      const expired = mintRelayCredential(ctx.secret, pub.id, 'node-b', -1000);
      const other = mintRelayCredential(ctx.secret, ctx.id('someone-else'), 'node-b');
      for (const bad of [forged, expired, other, { ...credential(ctx, pub.id), nodeId: 'node-c' }]) {
        await rejectsWith(ctx.b.importSource(ctx.id('room-b'), pub.id, bad, direct(ctx)), 'refused');
      }
      expect(ctx.a.stats().relayExports, 'no export on A').toBe(exportsBefore);
      expect(ctx.b.stats().relayImports, 'no import on B').toBe(importsBefore);
      // The same source with the cluster's credential goes through.
      const imported = await ctx.b.importSource(ctx.id('room-b'), pub.id, credential(ctx, pub.id), direct(ctx));
      expect(imported.closed).toBe(false);
      await imported.close();
    },
  },
];
