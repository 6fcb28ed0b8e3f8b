/**
 * Issue 15, decoder with fallbacks: with the server's videoDecodeFallback on, TRTCVideoDecoder (a built-in
 * loaded from the server) decodes a remote H264 video from its encoded frames — with the wasm software decoder
 * or WebCodecs — into a canvas in the player's view; injected failures walk the fallback chain to FAILED after 5
 * retries with docs/behaviour.md §8's codes; a slow decoder moves up the downgrade levels.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, call, eventsOf } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { fakeMediaArgs, makeFakeMedia } from './harness/media-probe.js';
import { startTestServer, type TestServer } from './harness/server.js';
import { pinPressure } from './harness/pressure.js';

interface DecoderEvent {
  userId: string; streamType: string; state: string; prevState: string; type: string; renderer: string; retries: number;
  downgradeLevel: number; prevDowngradeLevel?: number; code?: number; failures?: number[];
  received?: number; keyFrames?: number; decoded?: number; dropped?: number;
}

/** The decoder's canvas: what it decodes with, frames drawn and the colour at its centre. */
const decoderCanvas = (page: Page, userId = 'alice') => page.evaluate((id) => {
  const canvas = document.querySelector<HTMLCanvasElement>(`#remote-${id} canvas[data-conclave="decoder"]`);
  if (!canvas || canvas.width === 0) return undefined;
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(canvas, 0, 0);
  const [r, g, b] = ctx.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
  return { decoder: canvas.dataset.decoder, renderer: canvas.dataset.renderer, frames: Number(canvas.dataset.framesDecoded), width: canvas.width, height: canvas.height, rgb: [r, g, b] };
}, userId);

const decoderEvents = async (page: Page): Promise<DecoderEvent[]> => (await eventsOf(page, 'video-decode-downgrade-state-changed')).map((e) => e.data as unknown as DecoderEvent);
const clearEvents = (page: Page) => page.evaluate(() => { (window as unknown as { e2e: { events: unknown[] } }).e2e.events.length = 0; });
const isRed = (rgb: number[] | undefined) => !!rgb && rgb[0] > 180 && rgb[1] < 80 && rgb[2] < 80;

describe('video decoder with fallbacks (TRTCVideoDecoder)', () => {
  let server: TestServer;
  let app: AppHost;
  let browser: LaunchedBrowser;
  let alice: Page;
  let bob: Page;

  beforeAll(async () => {
    const red = await makeFakeMedia('decoder-red', 'red', 440);
    server = await startTestServer({ videoDecodeFallback: true });
    app = await AppHost.start(server.url);
    browser = await launchBrowser(fakeMediaArgs(red));
    alice = await app.open(browser.context);
    bob = await app.open(browser.context);
    // The machine's real load must not set the decoder's pressure floor (docs/behaviour.md §4) under these tests.
    await pinPressure(browser.context, bob);
    expect(await join(alice, server, 'alice', { roomId: 1515 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 1515 }, { publish: false })).toEqual({ ok: true });
    await vi.waitFor(async () => expect((await eventsOf(bob, 'remote-video-available')).length).toBeGreaterThan(0), { timeout: 15_000, interval: 250 });
    await bob.evaluate(() => {
      const view = document.createElement('div');
      view.id = 'remote-alice';
      view.style.cssText = 'width:320px;height:240px;position:relative';
      document.body.appendChild(view);
    });
    expect(await call(bob, 'startRemoteVideo', { userId: 'alice', streamType: 'main', view: 'remote-alice' })).toMatchObject({ ok: true });
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  for (const type of ['wasm', 'webCodecs'] as const) {
    it(`a forced ${type === 'wasm' ? 'software-decode (wasm)' : 'WebCodecs'} path decodes H264 frames to the canvas (the red fake camera)`, async () => {
      await clearEvents(bob);
      expect(await call(bob, 'startPlugin', 'TRTCVideoDecoder', { userId: 'alice', streamType: 'main', type })).toMatchObject({ ok: true });
      await expect.poll(async () => {
        const shown = await decoderCanvas(bob);
        return shown?.decoder === type && shown.frames > 10 && isRed(shown.rgb);
      }, { timeout: 30_000, interval: 250 }).toBe(true);
      const shown = (await decoderCanvas(bob))!;
      expect(shown.width * 3).toBe(shown.height * 4);
      expect(shown.renderer).toBe(type === 'wasm' ? 'webgl' : 'videoFrame');
      const states = (await decoderEvents(bob)).map((e) => [e.state, e.type]);
      expect(states).toEqual([['STARTING', type], ['STARTED', type]]);
      expect(await call(bob, 'stopPlugin', 'TRTCVideoDecoder', { userId: 'alice', streamType: 'main' })).toMatchObject({ ok: true });
      expect(await bob.evaluate(() => document.querySelectorAll('#remote-alice canvas[data-conclave="decoder"]').length)).toBe(0);
    });
  }

  it('injected decoder failures walk the fallback chain and end in FAILED after 5 retries with SPEC codes', async () => {
    await clearEvents(bob);
    const failures = ['decode', 'create', 'decode', 'context', 'render', 'decode'];
    expect(await call(bob, 'startPlugin', 'TRTCVideoDecoder', { userId: 'alice', streamType: 'main', type: 'mock', mock: { failures } })).toMatchObject({ ok: true });
    await expect.poll(async () => (await decoderEvents(bob)).some((e) => e.state === 'FAILED'), { timeout: 60_000, interval: 250 }).toBe(true);
    const events = await decoderEvents(bob);
    // The first attempt, then one STARTING per retry naming the stage it moves to, then FAILED.
    expect(events.map((e) => [e.state, e.type, e.renderer])).toEqual([
      ['STARTING', 'webCodecs', 'videoFrame'],
      ['STARTING', 'wasm', 'webgl'],
      ['STARTING', 'wasm', 'videoFrame'],
      ['STARTING', 'wasm', 'videoFrame'],
      ['STARTING', 'wasm', 'videoFrame'],
      ['STARTING', 'wasm', 'videoFrame'],
      ['FAILED', 'wasm', 'videoFrame'],
    ]);
    // docs/behaviour.md §8: 4 webcodecs decode error, 6 wasm creation, 8 wasm decode error, 7 graphics context, 11 render error.
    expect(events.slice(1).map((e) => e.code)).toEqual([4, 6, 8, 7, 11, 8]);
    expect(events.at(-1)).toMatchObject({ retries: 5, failures: [4, 6, 8, 7, 11, 8] });
    const errors = (await eventsOf(bob, 'error')).map((e) => e.data as { code: number; extraCode: number; message: string });
    expect(errors).toEqual([expect.objectContaining({ code: 5500, extraCode: 5505 })]);
    expect(errors[0].message).toContain('4, 6, 8, 7, 11, 8');
    // The player gets its view back.
    expect(await bob.evaluate(() => document.querySelectorAll('#remote-alice canvas[data-conclave="decoder"]').length)).toBe(0);
  });

  it('a simulated slow decoder moves through downgrade levels (drops beyond half the GOP, key frames only, all)', async () => {
    await clearEvents(bob);
    // 150 ms a frame against a ~30 fps source: far behind, so every 5 s evaluation raises the level.
    expect(await call(bob, 'startPlugin', 'TRTCVideoDecoder', { userId: 'alice', streamType: 'main', type: 'wasm', mock: { decodeDelayMs: 150 } })).toMatchObject({ ok: true });
    await expect.poll(async () => (await decoderEvents(bob)).filter((e) => e.prevDowngradeLevel !== undefined).length, { timeout: 90_000, interval: 500 }).toBeGreaterThanOrEqual(5);
    const changes = (await decoderEvents(bob)).filter((e) => e.prevDowngradeLevel !== undefined);
    expect(changes.slice(0, 4).map((e) => [e.prevDowngradeLevel, e.downgradeLevel])).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
    // Re-evaluated at most every 5 s.
    const at = (await eventsOf(bob, 'video-decode-downgrade-state-changed')).filter((e) => (e.data as unknown as DecoderEvent).prevDowngradeLevel !== undefined).map((e) => e.at);
    for (let i = 1; i < at.length; i += 1) expect(at[i] - at[i - 1]).toBeGreaterThan(4_000);
    const [, toTwo, toThree, toFour, fromFour] = changes;
    // Level 2 drops frames; level 3 decodes key frames only; level 4 decodes nothing (then probes level 3).
    expect(toThree.dropped! - toTwo.dropped!).toBeGreaterThan(0);
    expect(toFour.decoded! - toThree.decoded!).toBeLessThanOrEqual(toFour.keyFrames! - toThree.keyFrames! + 1);
    expect(toFour.dropped! - toThree.dropped!).toBeGreaterThan(toFour.received! - toThree.received! - (toFour.keyFrames! - toThree.keyFrames!) - 2);
    expect(fromFour).toMatchObject({ prevDowngradeLevel: 4, downgradeLevel: 3 });
    expect(fromFour.decoded).toBe(toFour.decoded);
    expect(fromFour.dropped! - toFour.dropped!).toBe(fromFour.received! - toFour.received!);
    expect(await call(bob, 'stopPlugin', 'TRTCVideoDecoder', { userId: 'alice', streamType: 'main' })).toMatchObject({ ok: true });
  });

  it('a pressure floor (updatePlugin pressureFloor) holds the downgrade level up, and stopRemoteVideo ends the decoder', async () => {
    await clearEvents(bob);
    expect(await call(bob, 'startPlugin', 'TRTCVideoDecoder', { userId: 'alice', streamType: 'main', type: 'wasm' })).toMatchObject({ ok: true });
    await expect.poll(async () => (await decoderCanvas(bob))?.frames ?? 0, { timeout: 30_000, interval: 250 }).toBeGreaterThan(5);
    // Level changes of the decoder's own (a loaded machine can move it before the floor) are not counted:
    // from the update on, the level goes to 3 and never below.
    const before = (await decoderEvents(bob)).length;
    expect(await call(bob, 'updatePlugin', 'TRTCVideoDecoder', { pressureFloor: 3 })).toMatchObject({ ok: true });
    const levelsAfter = async () => (await decoderEvents(bob)).slice(before).filter((e) => e.prevDowngradeLevel !== undefined).map((e) => e.downgradeLevel);
    await expect.poll(async () => (await levelsAfter()).at(-1), { timeout: 20_000, interval: 250 }).toBe(3);
    expect(Math.min(...await levelsAfter())).toBe(3);
    expect(await call(bob, 'stopRemoteVideo', { userId: 'alice', streamType: 'main' })).toMatchObject({ ok: true });
    await expect.poll(() => bob.evaluate(() => document.querySelectorAll('#remote-alice canvas').length), { timeout: 15_000, interval: 250 }).toBe(0);
  });

  it('with enableSEI on, the forced software decoder still gets the frames and SEI messages still arrive', async () => {
    const carol = await app.open(browser.context);
    const dave = await app.open(browser.context);
    await pinPressure(browser.context, dave);
    try {
      for (const page of [carol, dave]) {
        await page.evaluate(() => {
          const w = window as unknown as { __sei: number; e2e: { create(o: unknown): void; client: { on(e: string, f: () => void): void } } };
          w.e2e.create({ enableSEI: true });
          w.__sei = 0;
          w.e2e.client.on('sei-message', () => { w.__sei += 1; });
        });
      }
      expect(await join(carol, server, 'carol', { roomId: 1516 }, { reuse: true })).toEqual({ ok: true });
      expect(await join(dave, server, 'dave', { roomId: 1516 }, { reuse: true, publish: false })).toEqual({ ok: true });
      await vi.waitFor(async () => expect((await eventsOf(dave, 'remote-video-available')).length).toBeGreaterThan(0), { timeout: 15_000, interval: 250 });
      await watch(dave, 'carol');
      expect(await call(dave, 'startPlugin', 'TRTCVideoDecoder', { userId: 'carol', streamType: 'main', type: 'wasm' })).toMatchObject({ ok: true });
      await expect.poll(async () => {
        const shown = await decoderCanvas(dave, 'carol-main');
        return shown?.decoder === 'wasm' && shown.frames > 10 && isRed(shown.rgb);
      }, { timeout: 30_000, interval: 250 }).toBe(true);
      await carol.evaluate(() => (window as unknown as { e2e: { client: { sendSEIMessage(b: ArrayBuffer): void } } }).e2e.client.sendSEIMessage(new Uint8Array([1, 2, 3]).buffer));
      await expect.poll(() => dave.evaluate(() => (window as unknown as { __sei: number }).__sei), { timeout: 10_000, interval: 250 }).toBe(1);
      const before = (await decoderCanvas(dave, 'carol-main'))!.frames;
      await expect.poll(async () => (await decoderCanvas(dave, 'carol-main'))?.frames ?? 0, { timeout: 10_000, interval: 250 }).toBeGreaterThan(before + 5);
    } finally {
      await carol.close();
      await dave.close();
    }
  });
});
