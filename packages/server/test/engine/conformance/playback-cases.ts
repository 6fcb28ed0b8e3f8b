/**
 * Conformance cases of the client-offered playback addition (client-offer.ts): every engine that implements
 * ClientOfferPlayback passes them (both do; conformance.test.ts runs them with the main suite).
 */
import { expect } from 'vitest';
import { answersPlayback, type ClientOfferPlayback, type PlaybackWants } from '../../../src/engine/client-offer.js';
import { EngineError, type MediaEngine } from '../../../src/engine/media-engine.js';
import { publishAndSend, waitFor, whepPlayer } from '../../support/engine-peers.js';
import type { CaseContext, ConformanceCase } from './conformance-cases.js';

/** A WHEP player whose peer closes after the case. */
async function player(ctx: CaseContext): Promise<Awaited<ReturnType<typeof whepPlayer>>> {
  const p = await whepPlayer();
  ctx.cleanup(() => p.pc.close());
  return p;
}

function playing(engine: MediaEngine): MediaEngine & ClientOfferPlayback {
  expect(answersPlayback(engine), 'the engine implements ClientOfferPlayback').toBe(true);
  return engine as MediaEngine & ClientOfferPlayback;
}

/** A publisher sending audio and video in `room`. */
async function source(ctx: CaseContext, room: string): Promise<string> {
  const id = ctx.id('source');
  ctx.engine.joinRoom(id, room);
  const sender = await publishAndSend(ctx.engine, id);
  ctx.cleanup(sender.stop);
  return id;
}

/** A source publishing in a room and a viewer playing it (at most `wants`): the link is answered and applied. */
async function playback(ctx: CaseContext, wants?: PlaybackWants): Promise<{ engine: MediaEngine & ClientOfferPlayback; pub: string; viewer: string; before: number; p: Awaited<ReturnType<typeof player>>; answer: string }> {
  const engine = playing(ctx.engine);
  const room = ctx.id('room');
  const pub = await source(ctx, room);
  const viewer = ctx.id('viewer');
  engine.joinRoom(viewer, room);
  const before = engine.stats().downlinks;
  const p = await player(ctx);
  const answer = await engine.answerPlayback(viewer, pub, 'main', p.offer, wants);
  await p.pc.setRemoteDescription({ type: 'answer', sdp: answer });
  return { engine, pub, viewer, before, p, answer };
}

export const PLAYBACK_CASES: readonly ConformanceCase[] = [
  {
    name: 'answerPlayback answers a client\'s receive-only offer; the source\'s audio and video reach the player; removeParticipant ends it',
    async run(ctx) {
      const { engine, viewer, before, p, answer } = await playback(ctx);
      expect(answer).toMatch(/a=candidate:/);
      await waitFor(() => p.byKind.audio > 20 && p.byKind.video > 20, 15_000, 'audio and video at the player').catch((e: unknown) => {
        throw new Error(`${String(e)} (audio ${p.byKind.audio}, video ${p.byKind.video})`);
      });
      expect(engine.stats().downlinks).toBeGreaterThan(before);
      await engine.removeParticipant(viewer);
      expect(engine.stats().downlinks).toBe(before);
      const received = p.byKind.video;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(p.byKind.video - received, 'no video after removeParticipant').toBeLessThan(5);
    },
  },
  {
    name: 'answerPlayback carries no more than its wants: a link without audio gets the video only, its audio m-line inactive',
    async run(ctx) {
      const { engine, viewer, p, answer } = await playback(ctx, { audio: false, bigVideo: true, smallVideo: false, auxVideo: false });
      expect(answer.split(/\r?\n(?=m=)/).find((m) => m.startsWith('m=audio'))).toMatch(/a=inactive/);
      await waitFor(() => p.byKind.video > 25, 15_000, 'video at the player');
      expect(p.byKind.audio).toBe(0);
      await engine.removeParticipant(viewer);
    },
  },
  {
    name: 'a playback ends when its source leaves (removeParticipant of the source)',
    async run(ctx) {
      const { engine, pub, viewer, before, p } = await playback(ctx);
      await waitFor(() => p.byKind.video > 20, 15_000, 'video at the player');
      await engine.removeParticipant(pub);
      await waitFor(() => engine.stats().downlinks === before, 5000, `downlinks back to ${before} (now ${engine.stats().downlinks})`);
      await engine.removeParticipant(viewer);
    },
  },
  {
    name: 'answerPlayback rejects not-joined for a source of another room and not-published for a silent one',
    async run(ctx) {
      const engine = playing(ctx.engine);
      const pub = await source(ctx, ctx.id('room-a'));
      const viewer = ctx.id('viewer');
      engine.joinRoom(viewer, ctx.id('room-b'));
      const p = await player(ctx);
      const refusal = async (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => (e instanceof EngineError ? e.reason : String(e)));
      expect(await refusal(engine.answerPlayback(viewer, pub, 'main', p.offer))).toBe('not-joined');
      const silent = ctx.id('silent');
      engine.joinRoom(silent, ctx.id('room-b'));
      expect(await refusal(engine.answerPlayback(viewer, silent, 'main', p.offer))).toBe('not-published');
      await engine.removeParticipant(viewer);
      await engine.removeParticipant(silent);
    },
  },
];
