import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rect } from './harness/cdn-client.js';
import { call, eventsOf, media, type MediaFigures } from './harness/client-page.js';
import { useAppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { pinPressure } from './harness/pressure.js';

const fx = useAppFixture();

/** `truncate`: the decryptor returns nothing of each sealed region (the frames reach the decoder cut short). */
type Keying = { kind: 'none' } | { kind: 'builtin'; algorithm: string; key: number[] } | { kind: 'custom'; mask: number; truncate?: boolean };

/**
 * Opens a page; with keying, registers CustomEncryption from its UMD file (a script-tag app) and starts it before
 * enterRoom (built-in options, or an app's own XOR cryptors). Resolves to the page and startPlugin's outcome.
 */
async function openPage(keying: Keying, options: { decodeFallback?: boolean } = {}): Promise<{ page: Page; started: unknown }> {
  const page = await fx.app.open(fx.browser.context);
  if (options.decodeFallback) {
    // This page is scheduled as by a server with videoDecodeFallback on (docs/behaviour.md §4.10): its remote videos are tapped.
    await page.route('**/api/v1/config', async (route) => {
      const response = await route.fetch();
      const body = await response.json() as { data?: { config?: Record<string, unknown> } };
      if (body.data?.config) body.data.config.videoDecodeFallback = true;
      await route.fulfill({ response, json: body });
    });
  }
  // A loaded machine must not make the SDK drop to the small stream (which carries no SEI) or lower decoding.
  await pinPressure(fx.browser.context, page);
  if (keying.kind === 'none') {
    await page.evaluate(() => (window as unknown as { e2e: { create(o: unknown): void } }).e2e.create({}));
    return { page, started: null };
  }
  await page.addScriptTag({ url: `${fx.server.url}/sdk/plugins/custom-encryption/custom-encryption.umd.js` });
  await page.addScriptTag({ url: `${fx.server.url}/sdk/plugins/cdn-streaming/cdn-streaming.umd.js` });
  const started = await page.evaluate(async (k) => {
    const w = window as unknown as { e2e: { create(o: unknown): void; client: { startPlugin(n: string, o: unknown): Promise<void> } }; CustomEncryption: unknown; CDNStreaming: unknown };
    w.e2e.create({ plugins: [w.CustomEncryption, w.CDNStreaming], enableSEI: true });
    const xor = (d: Uint8Array) => d.map((b) => b ^ (k.kind === 'custom' ? k.mask : 0));
    const decryptor = k.kind === 'custom' && k.truncate ? () => new Uint8Array(0) : xor;
    const options = k.kind === 'builtin'
      ? { mode: 'webrtc', audio: true, video: true, builtinOptions: { algorithm: k.algorithm, secretKey: new Uint8Array(k.key), salt: new Uint8Array([7, 7]) } }
      : { mode: 'webrtc', audio: true, video: true, customCryptors: { encryptor: xor, decryptor } };
    try {
      await w.e2e.client.startPlugin('CustomEncryption', options);
      return 'ok';
    } catch (error) {
      return String(error);
    }
  }, keying);
  return { page, started };
}

/** Waits (bounded) until each page decodes `frames` more video frames and hears more audio than now; returns the gains. */
async function keepDecoding(pages: Page[], frames: number): Promise<{ frames: number; energy: number }[]> {
  const before = await Promise.all(pages.map(media));
  let gains: { frames: number; energy: number }[] = [];
  await expect.poll(async () => {
    const now = await Promise.all(pages.map(media));
    gains = now.map((m: MediaFigures, i) => ({ frames: m.framesDecoded - before[i].framesDecoded, energy: m.audioEnergy - before[i].audioEnergy }));
    return gains.every((g) => g.frames >= frames && g.energy > 0);
  }, { timeout: 30_000, interval: 300, message: 'the keyed pages keep decoding' }).toBe(true);
  return gains;
}

/** Waits (bounded) until a page decodes video frames and hears audio. */
async function decodes(page: Page): Promise<void> {
  await expect.poll(async () => {
    const m = await media(page);
    return m.framesDecoded > 5 && m.audioEnergy > 0;
  }, { timeout: 15_000, interval: 300 }).toBe(true);
}

/**
 * Two keyed pages publish and watch each other, a third page (no key) watches both: the keyed pages decode, the
 * third decodes no frame and hears nothing — with a wrong key it gets the encrypted bytes and drops them all;
 * without the plugin the server does not send it the encrypted streams at all.
 */
async function room(roomId: number, keyed: Keying, outsiderKeying: Keying): Promise<void> {
  const [alice, bob, eve] = await Promise.all([openPage(keyed), openPage(keyed), openPage(outsiderKeying)]);
  expect([alice.started, bob.started]).toEqual(['ok', 'ok']);
  expect(await join(alice.page, fx.server, 'alice', { roomId }, { reuse: true })).toEqual({ ok: true });
  expect(await join(bob.page, fx.server, 'bob', { roomId }, { reuse: true })).toEqual({ ok: true });
  expect(await join(eve.page, fx.server, 'eve', { roomId }, { reuse: true, publish: false })).toEqual({ ok: true });
  await Promise.all([watch(alice.page, 'bob'), watch(bob.page, 'alice')]);
  // Without the plugin the server refuses the subscription: startRemoteVideo rejects with a message that says why.
  const refusals = await Promise.all(['alice', 'bob'].map((id) => watch(eve.page, id).then(() => '', (error: Error) => error.message)));
  if (outsiderKeying.kind === 'none') for (const refusal of refusals) expect(refusal).toMatch(/end-to-end encrypted media: start CustomEncryption/);
  else expect(refusals).toEqual(['', '']);
  await Promise.all([decodes(alice.page), decodes(bob.page)]);
  // The keyed pages go on decoding (20 more frames each, and sound) while the outsider receives the bytes.
  const [a, b] = await keepDecoding([alice.page, bob.page], 20);
  const outsider = await media(eve.page);
  console.log(`[custom-encryption] room ${roomId}: alice +${a.frames} frames, bob +${b.frames} frames (audio energy +${a.energy.toFixed(3)}, +${b.energy.toFixed(3)}); outsider ${outsider.framesDecoded} frames decoded, audio energy ${outsider.audioEnergy}, ${outsider.videoBytes} video bytes received`);
  expect(outsider.framesDecoded).toBe(0);
  expect(outsider.audioEnergy).toBe(0);
  if (outsiderKeying.kind !== 'none') expect(outsider.videoBytes).toBeGreaterThan(10_000);
  // SEI still works: inserted before encryption, read after decryption.
  const sent = await alice.page.evaluate(async () => {
    const client = (window as unknown as { e2e: { client: { sendSEIMessage(b: ArrayBuffer, o?: unknown): void } } }).e2e.client;
    const bytes = new TextEncoder().encode('sealed-sei');
    try {
      for (let i = 0; i < 10; i++) {
        client.sendSEIMessage(bytes.slice().buffer);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return 'ok';
    } catch (error) {
      return String(error);
    }
  });
  expect(sent).toBe('ok');
  await expect.poll(async () => (await eventsOf(bob.page, 'sei-message')).length, { timeout: 15_000, interval: 300 }).toBeGreaterThan(0);
  expect((await eventsOf(bob.page, 'sei-message'))[0].data).toMatchObject({ userId: 'alice', streamType: 'main', seiPayloadType: 243 });
  // The wrong-key page drops the frames before SEI is read: no message reaches it.
  expect(await eventsOf(eve.page, 'sei-message')).toHaveLength(0);
  // docs/behaviour.md §12: the server mixes no encrypted stream — a CDN mix of the room is refused with a coded RtcError.
  const mix = await call(alice.page, 'startPlugin', 'CDNStreaming', {
    target: { publishMode: 'PublishMixStreamToCDN', url: 'rtmp://127.0.0.1:1/live/never' },
    encoding: { videoWidth: 640, videoHeight: 360, videoFramerate: 15, videoGOP: 1, videoBitrate: 800, audioBitrate: 64, audioChannels: 1 },
    mix: {
      backgroundColor: 0x00ff00, audioMixUserList: [{ userId: 'alice' }, { userId: 'bob' }],
      videoLayoutList: [rect('alice', 0, 0, 320, 360, 1), rect('bob', 320, 0, 320, 360, 2)],
    },
  });
  expect(mix).toMatchObject({ ok: false, code: 5400, extraCode: 16455 });
  expect(mix.message).toMatch(/end-to-end encrypted/);
  // …and the keyed pages keep decoding after it.
  await keepDecoding([alice.page, bob.page], 10);
  await Promise.all([alice.page.close(), bob.page.close(), eve.page.close()]);
}

describe('Must show 4: CustomEncryption — two pages with the same key decode each other; a third without it decodes nothing (no frames, silence) while the first two keep decoding; the same with a custom cryptor; a recording or CDN mix of that room behaves as documented', () => {
  it('AES-256-GCM: the keyed pages decode each other; a page with the wrong key decodes nothing', async () => {
    const key = Array.from({ length: 32 }, (_, i) => i);
    await room(25041, { kind: 'builtin', algorithm: 'AES-GCM', key }, { kind: 'builtin', algorithm: 'AES-GCM', key: key.map((b) => b ^ 1) });
  }, 120_000);

  it('custom cryptors: the keyed pages decode each other; a page without the plugin is refused the encrypted streams and decodes nothing', async () => {
    await room(25042, { kind: 'custom', mask: 0x5a }, { kind: 'none' });
  }, 120_000);

  it("5507 VIDEO_DECODE_FAILED: a remote video that arrives but does not decode (the decryptor cuts its frames short) is an error naming the user and stream, in the RtcError's fields and its data", async () => {
    const [sender, viewer] = await Promise.all([openPage({ kind: 'custom', mask: 0x3c }), openPage({ kind: 'custom', mask: 0x3c, truncate: true }, { decodeFallback: true })]);
    expect([sender.started, viewer.started]).toEqual(['ok', 'ok']);
    expect(await join(sender.page, fx.server, 'dora', { roomId: 25044 }, { reuse: true })).toEqual({ ok: true });
    expect(await join(viewer.page, fx.server, 'vic', { roomId: 25044 }, { reuse: true, publish: false })).toEqual({ ok: true });
    await watch(viewer.page, 'dora');
    // The decode check runs 5 s after the video starts playing (docs/behaviour.md §4.10).
    const failures = async () => (await eventsOf(viewer.page, 'error')).filter((e) => e.data.extraCode === 5507);
    await expect.poll(async () => (await failures()).length, { timeout: 15_000, interval: 250 }).toBe(1);
    expect((await failures())[0].data).toMatchObject({
      code: 5500, extraCode: 5507, message: expect.stringContaining('video decode failed'), userId: 'dora', streamType: 'main', data: { userId: 'dora', streamType: 'main' },
    });
    const figures = await media(viewer.page);
    expect(figures.videoBytes).toBeGreaterThan(0);
    expect(figures.framesDecoded).toBe(0);
    await Promise.all([sender.page.close(), viewer.page.close()]);
  }, 60_000);

  it('bad options are an RtcError; starting after enterRoom is refused', async () => {
    const { page } = await openPage({ kind: 'none' });
    await page.addScriptTag({ url: `${fx.server.url}/sdk/plugins/custom-encryption/custom-encryption.umd.js` });
    await page.evaluate(() => {
      const w = window as unknown as { e2e: { create(o: unknown): void }; CustomEncryption: unknown };
      w.e2e.create({ plugins: [w.CustomEncryption] });
    });
    expect(await call(page, 'startPlugin', 'CustomEncryption', { mode: 'webrtc', audio: true, video: true })).toMatchObject({ ok: false, code: 5000 });
    expect(await call(page, 'startPlugin', 'CustomEncryption', { mode: 'webrtc', audio: true, video: true, builtinOptions: { algorithm: 'SM4', secretKey: [1, 2] } })).toMatchObject({ ok: false, code: 5000 });
    // Publishing made the uplink without encoded streams: a cipher could not reach it, so starting now is refused.
    expect(await join(page, fx.server, 'late', { roomId: 25043 }, { reuse: true })).toEqual({ ok: true });
    const late = await page.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<void> } } }).e2e.client;
      const options = { mode: 'webrtc', audio: true, video: true, builtinOptions: { algorithm: 'AES-GCM', secretKey: new Uint8Array(16) } };
      return client.startPlugin('CustomEncryption', options).then(() => 0, (error: { code: number }) => error.code);
    });
    expect(late).toBe(5100);
    await page.close();
  }, 60_000);
});
