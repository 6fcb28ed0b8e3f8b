import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { enterWithAudio, generateMedia, listenTo, MediaServer, RAW_MIC, spectrum, type TestMedia } from './plugins-media.js';

type MixResult = { ok: boolean; code?: number; extraCode?: number; message?: string };
type MixPage = { mix: { start(o: Record<string, unknown>): Promise<MixResult>; update(o: Record<string, unknown>): Promise<MixResult>; stop(o: Record<string, unknown>): Promise<MixResult>; ended: string[]; times: Record<string, number[]> } };

/** Page helpers around startPlugin('AudioMixer', …) that record the callbacks. */
const MIX_SCRIPT = `
window.mix = {
  ended: [], times: {},
  async run(method, options) {
    try { await window.e2e.client[method]('AudioMixer', options); return { ok: true }; }
    catch (e) { return { ok: false, code: e.code, extraCode: e.extraCode, message: e.message }; }
  },
  start(o) {
    const id = o.id;
    return this.run('startPlugin', { ...o, onEnded: () => this.ended.push(id), onTimeUpdate: (t) => (this.times[id] = this.times[id] || []).push(t) });
  },
  update(o) { return this.run('updatePlugin', o); },
  stop(o) { return this.run('stopPlugin', o); },
};`;

let fx: AppFixture | undefined;
let media: TestMedia;
let files: MediaServer | undefined;
let sender: Page;
let receiver: Page;
const ROOM = 41_001;

const start = (o: Record<string, unknown>) => sender.evaluate((opts) => (window as unknown as MixPage).mix.start(opts), o);
const update = (o: Record<string, unknown>) => sender.evaluate((opts) => (window as unknown as MixPage).mix.update(opts), o);
const stop = (id: string) => sender.evaluate((i) => (window as unknown as MixPage).mix.stop({ id: i }), id);
/** Waits until the receiver's averaged spectrum satisfies a condition; returns that spectrum. */
async function heard(check: (s: Awaited<ReturnType<typeof spectrum>>) => boolean, freqs = [440], timeout = 20_000, reattach = false) {
  let last: Awaited<ReturnType<typeof spectrum>> | undefined;
  await expect.poll(async () => {
    // After a remote mute the receiver may get a new track for the user: listen to the current one.
    if (reattach) await receiver.evaluate(() => (window as unknown as { probe: { attach(u: string): boolean } }).probe.attach('dj'));
    return check(last = await spectrum(receiver, 600, freqs));
  }, { timeout, interval: 100 }).toBe(true);
  return last!;
}
const silentAt = (f: number, floor: number) => (s: Awaited<ReturnType<typeof spectrum>>) => s.levels[f] < floor;
const toneAt = (f: number) => (s: Awaited<ReturnType<typeof spectrum>>) => Math.abs(s.peakHz - f) <= 20 && s.peakDb > -60;

beforeAll(async () => {
  media = generateMedia();
  fx = await startAppFixture({}, [`--use-file-for-fake-audio-capture=${media.path('silence.wav')}`]);
  files = await MediaServer.start(media.dir);
  sender = await fx.app.open(fx.browser.context);
  receiver = await fx.app.open(fx.browser.context);
  await sender.evaluate(MIX_SCRIPT);
  expect(await enterWithAudio(sender, fx.server, 'dj', ROOM, RAW_MIC)).toEqual({ ok: true });
  expect(await enterWithAudio(receiver, fx.server, 'listener', ROOM)).toEqual({ ok: true });
  await listenTo(receiver, 'dj');
}, 90_000);

afterAll(async () => {
  await files?.close();
  await stopAppFixture(fx ?? {});
  media?.remove();
});

describe('Must show 1: a page whose microphone is silent mixes a 440 Hz tone file', () => {
  it('the other page\'s received audio has its spectral peak at 440 Hz (±20 Hz), from mp3, ogg, wav, flac, blob and data URLs', async () => {
    const before = await spectrum(receiver, 600);
    expect(before.levels[440]).toBeLessThan(-70); // the microphone is silent
    const blobUrl = await sender.evaluate(async (url) => URL.createObjectURL(await (await fetch(url)).blob()), `${files!.url}/tone440.wav`);
    const sources = {
      mp3: `${files!.url}/tone440.mp3`, ogg: `${files!.url}/tone440.ogg`, wav: `${files!.url}/tone440.wav`, flac: `${files!.url}/tone440.flac`,
      blob: blobUrl, data: media.dataUrl('tone440.mp3'),
    };
    for (const [kind, url] of Object.entries(sources)) {
      expect(await start({ id: kind, url, loop: true }), kind).toEqual({ ok: true });
      const s = await heard(toneAt(440));
      expect(Math.abs(s.peakHz - 440), kind).toBeLessThanOrEqual(20);
      expect(await stop(kind)).toEqual({ ok: true });
      await heard(silentAt(440, -70));
    }
  });

  it('pause silences it, resume brings it back', async () => {
    expect(await start({ id: 'p', url: `${files!.url}/tone440.wav`, loop: true })).toEqual({ ok: true });
    const playing = await heard(toneAt(440));
    expect(await update({ id: 'p', operation: 'pause' })).toEqual({ ok: true });
    const paused = await heard(silentAt(440, playing.levels[440] - 30));
    expect(await update({ id: 'p', operation: 'resume' })).toEqual({ ok: true });
    const resumed = await heard(toneAt(440));
    expect(resumed.levels[440]).toBeGreaterThan(paused.levels[440] + 30);
    await stop('p');
    await heard(silentAt(440, -70));
  });

  it('volume 0.5 lowers the received level by about half (6 dB ± 2)', async () => {
    expect(await start({ id: 'v', url: `${files!.url}/tone440.wav`, loop: true })).toEqual({ ok: true });
    await heard(toneAt(440));
    const full = await spectrum(receiver, 2500);
    expect(await update({ id: 'v', volume: 0.5 })).toEqual({ ok: true });
    await heard((s) => s.levels[440] < full.levels[440] - 3);
    const half = await spectrum(receiver, 2500);
    const drop = full.levels[440] - half.levels[440];
    console.log(`[figure] mixer volume 1 → 0.5: received 440 Hz level ${full.levels[440].toFixed(1)} → ${half.levels[440].toFixed(1)} dB (−${drop.toFixed(1)} dB)`);
    expect(drop).toBeGreaterThanOrEqual(4);
    expect(drop).toBeLessThanOrEqual(8);
    await stop('v');
    await heard(silentAt(440, -70));
  });

  it('loop continues past the end', async () => {
    expect(await start({ id: 'loop', url: `${files!.url}/tone440.wav`, loop: true })).toEqual({ ok: true });
    await heard(toneAt(440));
    // The file lasts 2 s: wait until playback has wrapped around (time went back), then it is still heard.
    await expect.poll(() => sender.evaluate(() => {
      const t = (window as unknown as MixPage).mix.times.loop ?? [];
      return t.some((v, i) => i > 0 && v < t[i - 1]);
    }), { timeout: 15_000, interval: 200 }).toBe(true);
    await heard(toneAt(440));
    expect(await sender.evaluate(() => (window as unknown as MixPage).mix.ended)).not.toContain('loop');
    await stop('loop');
    await heard(silentAt(440, -70));
  });

  it('onEnded fires without loop', async () => {
    expect(await start({ id: 'once', url: `${files!.url}/tone440.wav` })).toEqual({ ok: true });
    await heard(toneAt(440));
    await expect.poll(() => sender.evaluate(() => (window as unknown as MixPage).mix.ended), { timeout: 10_000, interval: 100 }).toContain('once');
    await heard(silentAt(440, -70));
    await stop('once');
  });

  it('two mixers at once are both heard (two peaks)', async () => {
    expect(await start({ id: 'a', url: `${files!.url}/tone440.wav`, loop: true })).toEqual({ ok: true });
    expect(await start({ id: 'b', url: `${files!.url}/tone660.wav`, loop: true })).toEqual({ ok: true });
    const both = await heard((s) => s.levels[440] > -50 && s.levels[660] > -50, [440, 550, 660]);
    expect(both.levels[440] - both.levels[550]).toBeGreaterThan(20);
    expect(both.levels[660] - both.levels[550]).toBeGreaterThan(20);
    await stop('a');
    const one = await heard(silentAt(440, both.levels[440] - 30), [440, 660]);
    expect(one.levels[660]).toBeGreaterThan(-50);
    await stop('b');
    await heard(silentAt(660, -70), [660]);
  });

  it('works whether the microphone is on, muted or started later', async () => {
    // Muted: the music keeps its place and is heard again once the microphone is unmuted.
    expect(await start({ id: 'm', url: `${files!.url}/tone440.wav`, loop: true })).toEqual({ ok: true });
    await heard(toneAt(440));
    await sender.evaluate(() => (window as unknown as { e2e: { client: { updateLocalAudio(o: unknown): Promise<void> } } }).e2e.client.updateLocalAudio({ mute: true }));
    await heard(silentAt(440, -70));
    await sender.evaluate(() => (window as unknown as { e2e: { client: { updateLocalAudio(o: unknown): Promise<void> } } }).e2e.client.updateLocalAudio({ mute: false }));
    await heard(toneAt(440), [440], 20_000, true);
    // Started later: stop the microphone, start music, then start the microphone: the music is published.
    await sender.evaluate(() => (window as unknown as { e2e: { client: { stopLocalAudio(): Promise<void> } } }).e2e.client.stopLocalAudio());
    await stop('m');
    expect(await start({ id: 'later', url: `${files!.url}/tone440.wav`, loop: true })).toEqual({ ok: true });
    await sender.evaluate((o) => (window as unknown as { e2e: { client: { startLocalAudio(o: unknown): Promise<void> } } }).e2e.client.startLocalAudio(o), RAW_MIC);
    await heard(toneAt(440), [440], 20_000, true);
    await stop('later');
    await heard(silentAt(440, -70));
  });

  it('a bad url gives SPEC\'s error', async () => {
    const bad = await start({ id: 'bad', url: `${files!.url}/tone440.txt` });
    expect(bad).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining('music url is invalid') });
    const missing = await start({ id: 'bad' });
    expect(missing).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining('param url or track is required') });
    const notThere = await start({ id: 'bad', url: `${files!.url}/missing.mp3` });
    expect(notThere).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining('music url is invalid') });
    const callback = await sender.evaluate(() => (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<void> } } }).e2e.client
      .startPlugin('AudioMixer', { id: 'x', url: 'a.mp3', onEnded: 5 }).then(() => 'ok', (e: { message: string }) => e.message));
    expect(callback).toContain('param onEnded should be a function');
  });
});
