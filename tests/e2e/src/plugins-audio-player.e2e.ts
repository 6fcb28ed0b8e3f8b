import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';
import { enterWithAudio, listenTo, MediaServer, RAW_MIC, spectrum, type Spectrum } from './plugins-media.js';

/**
 * Issue 40, the AudioPlayer plugin (5.18): a page registers it from its UMD file as the original's samples do,
 * publishes a silent microphone and plays PCM, files and tracks; a second page measures what it hears of them.
 */

type Result = { ok: boolean; code?: number; extraCode?: number; message?: string };
interface PlayerView { currentTime: number; duration: number; isStop: boolean; isPause: boolean; isPlayEnd: boolean; publish: boolean; volume: number; loop: boolean }
interface ApPage {
  ap: {
    run(method: string, options: unknown): Promise<Result>;
    start(o: Record<string, unknown>): Promise<Result>;
    call(id: string, method: string, ...args: unknown[]): Promise<unknown>;
    set(id: string, field: string, value: unknown): void;
    view(id: string): PlayerView;
    tone(id: string, hz: number, seconds: number, rate: number): void;
    audioSeconds(s: number): Promise<void>;
    log: Record<string, { ended: number; times: number[]; durations: number[]; inputErrors: string[] }>;
  };
}

/** Page helpers around startPlugin('AudioPlayer'): the players it resolved with, and what their callbacks saw. */
const AP_SCRIPT = `
window.ap = {
  players: {}, log: {},
  async run(method, options) {
    try { const r = await window.e2e.client[method]('AudioPlayer', options); return { ok: true, isPlayer: !!r && typeof r.start === 'function' }; }
    catch (e) { return { ok: false, code: e.code, extraCode: e.extraCode, message: e.message }; }
  },
  async start(o) {
    const log = this.log[o.id] = { ended: 0, times: [], durations: [], inputErrors: [] };
    try {
      this.players[o.id] = await window.e2e.client.startPlugin('AudioPlayer', { ...o,
        onEnded: () => log.ended++, onTimeUpdate: (t) => log.times.push(t), onDurationChange: (d) => log.durations.push(d),
        onInputError: (m, i) => log.inputErrors.push(i + ':' + m) });
      return { ok: true };
    } catch (e) { return { ok: false, code: e.code, extraCode: e.extraCode, message: e.message }; }
  },
  async call(id, method, ...args) { return this.players[id][method](...args); },
  set(id, field, value) { this.players[id][field] = value; },
  view(id) {
    const p = this.players[id];
    return { currentTime: p.currentTime, duration: p.duration, isStop: p.isStop, isPause: p.isPause, isPlayEnd: p.isPlayEnd, publish: p.publish, volume: p.volume, loop: p.loop };
  },
  /** Feeds a sine of hz at rate as Int16 (an AI voice's usual format), 100 ms per input() call. */
  tone(id, hz, seconds, rate) {
    const chunk = rate / 10;
    for (let c = 0; c < seconds * 10; c++) {
      const pcm = new Int16Array(chunk);
      for (let i = 0; i < chunk; i++) pcm[i] = Math.round(16000 * Math.sin(2 * Math.PI * hz * (c * chunk + i) / rate));
      this.players[id].input(pcm, rate);
    }
  },
  /** Resolves once the page's audio clock has advanced s seconds. */
  audioSeconds(s) {
    const ctx = this.clock || (this.clock = new AudioContext());
    const from = ctx.currentTime;
    return new Promise((resolve) => { const tick = () => (ctx.currentTime - from >= s ? resolve() : setTimeout(tick, 20)); tick(); });
  },
};`;

let fx: AppFixture | undefined;
let dir: string;
let files: MediaServer | undefined;
let sender: Page;
let receiver: Page;
let umdName: unknown;
const ROOM = 41_040;

const start = (o: Record<string, unknown>) => sender.evaluate((opts) => (window as unknown as ApPage).ap.start(opts), o);
const run = (method: string, o: unknown) => sender.evaluate(([m, opts]) => (window as unknown as ApPage).ap.run(m as string, opts), [method, o] as const);
const view = (id: string) => sender.evaluate((i) => (window as unknown as ApPage).ap.view(i), id);
const call = (id: string, method: string, ...args: unknown[]) => sender.evaluate(([i, m, a]) => (window as unknown as ApPage).ap.call(i as string, m as string, ...(a as unknown[])), [id, method, args] as const);
const logOf = (id: string) => sender.evaluate((i) => (window as unknown as ApPage).ap.log[i], id);

/** Waits (bounded) until the receiver's averaged spectrum satisfies a condition; returns it. */
async function heard(check: (s: Spectrum) => boolean, freqs = [440, 600]): Promise<Spectrum> {
  let last: Spectrum | undefined;
  await expect.poll(async () => check(last = await spectrum(receiver, 600, freqs)), { timeout: 20_000, interval: 100 }).toBe(true);
  return last!;
}
const toneAt = (hz: number) => (s: Spectrum) => Math.abs(s.peakHz - hz) <= 20 && s.peakDb > -60;
const silentAt = (...hz: number[]) => (s: Spectrum) => hz.every((f) => s.levels[f] < -70);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conclave-audio-player-'));
  const sox = (...args: string[]) => execFileSync('sox', args, { stdio: 'pipe' });
  sox('-n', '-r', '48000', '-c', '1', '-b', '16', join(dir, 'silence.wav'), 'trim', '0', '10');
  sox('-n', '-r', '48000', '-c', '1', '-b', '16', join(dir, 'tone440.wav'), 'synth', '4', 'sine', '440', 'vol', '0.5');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', join(dir, 'tone440.wav'), '-c:a', 'libvorbis', join(dir, 'tone440.ogg')]);
  fx = await startAppFixture({}, [`--use-file-for-fake-audio-capture=${join(dir, 'silence.wav')}`]);
  files = await MediaServer.start(dir);
  sender = await fx.app.open(fx.browser.context);
  receiver = await fx.app.open(fx.browser.context);
  // The sender loads the plugin as the original's samples do: its UMD file sets the global AudioPlayer.
  await sender.addScriptTag({ url: `${fx.server.url}/sdk/plugins/audio-player/audio-player.umd.js` });
  umdName = await sender.evaluate(() => (window as unknown as { AudioPlayer?: { Name?: string } }).AudioPlayer?.Name);
  await sender.evaluate(AP_SCRIPT);
  const userSig = await fx.server.sig('dj');
  const joined = await sender.evaluate(async ({ sdkAppId, sig, room, mic }) => {
    const w = window as unknown as { e2e: { create(o: unknown): void; client: { startLocalAudio(o: unknown): Promise<void>; enterRoom(o: unknown): Promise<void> } }; AudioPlayer: unknown };
    w.e2e.create({ plugins: [w.AudioPlayer] });
    await w.e2e.client.startLocalAudio(mic);
    await w.e2e.client.enterRoom({ sdkAppId, userId: 'dj', userSig: sig, roomId: room });
    return 'ok';
  }, { sdkAppId: TEST_APP.sdkAppId, sig: userSig, room: ROOM, mic: RAW_MIC }).catch((error: unknown) => String(error));
  expect(joined).toBe('ok');
  expect(await enterWithAudio(receiver, fx.server, 'listener', ROOM)).toEqual({ ok: true });
  await listenTo(receiver, 'dj');
}, 90_000);

afterAll(async () => {
  await files?.close();
  await stopAppFixture(fx ?? {});
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('issue 40: the AudioPlayer plugin', () => {
  it('40 AudioPlayer: the plugin is served at its path with its UMD global, which a script-tag page registers', async () => {
    expect(umdName).toBe('AudioPlayer');
    for (const ext of ['esm.js', 'esm.d.ts', 'umd.js']) {
      const status = await sender.evaluate(async (url) => (await fetch(url)).status, `${fx!.server.url}/sdk/plugins/audio-player/audio-player.${ext}`);
      expect(status, ext).toBe(200);
    }
    // startPlugin resolves with the player object.
    expect(await start({ id: 'probe', sourceType: 'pcm' })).toEqual({ ok: true });
    expect(await view('probe')).toMatchObject({ currentTime: 0, duration: 0, isStop: true, isPause: false, publish: false });
    expect(await run('stopPlugin', { id: 'probe' })).toMatchObject({ ok: true });
    // A page that did not register it: the client loads it from the server on first use.
    const unregistered = await receiver.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<{ sourceType?: string }>; stopPlugin(n: string, o: unknown): Promise<void> } } }).e2e.client;
      const player = await client.startPlugin('AudioPlayer', { id: 'lazy', sourceType: 'pcm' });
      await client.stopPlugin('AudioPlayer', { id: 'lazy' });
      return player.sourceType;
    });
    expect(unregistered).toBe('pcm');
  });

  it('40 AudioPlayer: a PCM tone fed in is heard by a remote user at its frequency', async () => {
    const before = await spectrum(receiver, 600, [600]);
    expect(before.levels[600]).toBeLessThan(-70); // the microphone is silent
    expect(await start({ id: 'voice', sourceType: 'pcm', publish: true })).toEqual({ ok: true });
    // Fed before start() (queued): 2 s of a 600 Hz sine as Int16 at 16 kHz, resampled to 48 kHz by the player.
    await sender.evaluate(() => (window as unknown as ApPage).ap.tone('voice', 600, 2, 16000));
    expect(await view('voice')).toMatchObject({ duration: 2, currentTime: 0, isStop: true });
    await call('voice', 'start');
    const s = await heard(toneAt(600), [600]);
    expect(Math.abs(s.peakHz - 600)).toBeLessThanOrEqual(20);
    // What was fed plays to its end: onEnded, isPlayEnd, and the room hears silence again.
    await expect.poll(async () => (await logOf('voice')).ended, { timeout: 10_000, interval: 100 }).toBe(1);
    expect(await view('voice')).toMatchObject({ isPlayEnd: true, currentTime: 2, duration: 2 });
    await heard(silentAt(600), [600]);
    // A bad input is reported, never thrown.
    await call('voice', 'input', new Float32Array(10), 0);
    expect((await logOf('voice')).inputErrors).toEqual(['20:invalid sampleRate']);
    expect(await run('stopPlugin', { id: 'voice' })).toMatchObject({ ok: true });
  });

  it('40 AudioPlayer: the URL player\'s time advances, pauses, resumes, seeks, loops and ends', async () => {
    // A blob: URL of the served file (the test's file server does not serve byte ranges, without which a browser cannot seek in a URL).
    const blobUrl = await sender.evaluate(async (url) => URL.createObjectURL(await (await fetch(url)).blob()), `${files!.url}/tone440.wav`);
    expect(await start({ id: 'file', sourceType: 'url', url: blobUrl })).toEqual({ ok: true });
    await call('file', 'start');
    await expect.poll(async () => (await view('file')).currentTime, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0.3);
    expect((await view('file')).duration).toBeCloseTo(4, 1);
    expect((await logOf('file')).durations.at(-1)).toBeCloseTo(4, 1);
    // Paused: the page's audio clock moves on, the player's time does not.
    await call('file', 'pause');
    const paused = await view('file');
    expect(paused).toMatchObject({ isPause: true, isStop: false });
    await sender.evaluate(() => (window as unknown as ApPage).ap.audioSeconds(0.5));
    expect((await view('file')).currentTime).toBe(paused.currentTime);
    await call('file', 'resume');
    await expect.poll(async () => (await view('file')).currentTime, { timeout: 10_000, interval: 50 }).toBeGreaterThan(paused.currentTime + 0.2);
    // Seek, then loop: the time wraps round to the start and playback goes on (no onEnded).
    await call('file', 'seek', 3.2);
    expect((await view('file')).currentTime).toBeGreaterThanOrEqual(3.2);
    await sender.evaluate(() => (window as unknown as ApPage).ap.set('file', 'loop', true));
    await expect.poll(async () => (await view('file')).currentTime, { timeout: 10_000, interval: 50 }).toBeLessThan(1);
    expect(await view('file')).toMatchObject({ loop: true, isPause: false, isPlayEnd: false });
    expect((await logOf('file')).ended).toBe(0);
    // Without loop (updatePlugin, as 5.17 apps do), it ends: onEnded and isPlayEnd.
    expect(await run('updatePlugin', { id: 'file', loop: false, seekFrom: 3.5 })).toMatchObject({ ok: true, isPlayer: true });
    await expect.poll(async () => (await logOf('file')).ended, { timeout: 10_000, interval: 50 }).toBe(1);
    expect(await view('file')).toMatchObject({ isPlayEnd: true });
    // stop() rewinds; start() plays from the beginning again.
    await call('file', 'stop');
    expect(await view('file')).toMatchObject({ isStop: true, currentTime: 0 });
    await call('file', 'start');
    await expect.poll(async () => (await view('file')).currentTime, { timeout: 10_000, interval: 50 }).toBeGreaterThan(0.1);
    expect(await run('stopPlugin', { id: 'file' })).toMatchObject({ ok: true });
  });

  it('40 AudioPlayer: publish toggled off, the room hears nothing (while it plays locally); on again, it is heard', async () => {
    expect(await start({ id: 'bgm', sourceType: 'url', url: `${files!.url}/tone440.ogg`, loop: true, publish: true })).toEqual({ ok: true });
    await call('bgm', 'start');
    await heard(toneAt(440), [440]);
    await sender.evaluate(() => (window as unknown as ApPage).ap.set('bgm', 'publish', false));
    await heard(silentAt(440), [440]);
    expect(await view('bgm')).toMatchObject({ publish: false, isPause: false, isStop: false });
    expect(await run('updatePlugin', { id: 'bgm', publish: true })).toMatchObject({ ok: true });
    await heard(toneAt(440), [440]);
    expect(await run('stopPlugin', { id: 'bgm' })).toMatchObject({ ok: true });
    await heard(silentAt(440), [440]);
  });

  it('40 AudioPlayer: two players at once are both heard; stopPlugin({ id: \'*\' }) stops them all', async () => {
    expect(await start({ id: 'music', sourceType: 'url', url: `${files!.url}/tone440.wav`, loop: true, publish: true })).toEqual({ ok: true });
    expect(await start({ id: 'ai', sourceType: 'pcm', publish: true, realtime: false })).toEqual({ ok: true });
    await sender.evaluate(() => (window as unknown as ApPage).ap.tone('ai', 600, 10, 24000));
    await call('music', 'start');
    await call('ai', 'start');
    const both = await heard((s) => s.levels[440] > -50 && s.levels[600] > -50, [440, 520, 600]);
    expect(both.levels[440] - both.levels[520]).toBeGreaterThan(20);
    expect(both.levels[600] - both.levels[520]).toBeGreaterThan(20);
    expect(await run('stopPlugin', { id: 'music' })).toMatchObject({ ok: true });
    const one = await heard((s) => s.levels[440] < both.levels[440] - 30, [440, 600]);
    expect(one.levels[600]).toBeGreaterThan(-50);
    expect(await run('stopPlugin', { id: '*' })).toMatchObject({ ok: true });
    await heard(silentAt(440, 600), [440, 600]);
  });

  it('40 AudioPlayer: a track player is heard by the room; pause silences it, resume brings it back', async () => {
    await sender.evaluate(() => {
      const w = window as unknown as { osc?: { ctx: AudioContext; track: MediaStreamTrack } };
      const ctx = new AudioContext();
      const osc = ctx.createOscillator();
      osc.frequency.value = 600;
      const out = ctx.createMediaStreamDestination();
      osc.connect(out);
      osc.start();
      w.osc = { ctx, track: out.stream.getAudioTracks()[0] };
    });
    const started = await sender.evaluate(() => {
      const w = window as unknown as ApPage & { osc: { track: MediaStreamTrack } };
      return w.ap.start({ id: 'ext', sourceType: 'track', track: w.osc.track, publish: true });
    });
    expect(started).toEqual({ ok: true });
    await call('ext', 'start');
    await heard(toneAt(600), [600]);
    await call('ext', 'pause');
    await heard(silentAt(600), [600]);
    expect(await view('ext')).toMatchObject({ isPause: true, isStop: false });
    await call('ext', 'resume');
    await heard(toneAt(600), [600]);
    expect(await run('stopPlugin', { id: 'ext' })).toMatchObject({ ok: true });
    await heard(silentAt(600), [600]);
  });

  it('40 AudioPlayer: errors as the original raises them', async () => {
    expect(await run('startPlugin', { id: 'x' })).toMatchObject({ ok: false, code: 5000, extraCode: 5001, message: expect.stringContaining("'sourceType' is a required param when calling startPlugin()") });
    expect(await run('startPlugin', { id: 'x', sourceType: 'file' })).toMatchObject({ ok: false, code: 5000, extraCode: 5005, message: expect.stringContaining("'sourceType' must be one of pcm|url|track") });
    expect(await run('startPlugin', { id: 'x', sourceType: 'url' })).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining("url is required when sourceType is 'url'") });
    expect(await run('startPlugin', { id: 'x', sourceType: 'url', url: `${files!.url}/tone440.txt` })).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining('audio url is invalid, supported formats: mp3, ogg, wav, flac, blob, data') });
    expect(await run('startPlugin', { id: 'x', sourceType: 'track' })).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining("track is required when sourceType is 'track'") });
    expect(await run('startPlugin', { id: 'x', sourceType: 'pcm', realtime: 'yes' })).toMatchObject({ ok: false, code: 5000, extraCode: 5002, message: expect.stringContaining("'realtime' must be type of boolean|object") });
    expect(await run('updatePlugin', { id: 'x', volume: '1' })).toMatchObject({ ok: false, code: 5000, extraCode: 5002 });
    // Updating or stopping a player that does not exist is not an error (a warning), as in the original.
    expect(await run('updatePlugin', { id: 'none', volume: 1 })).toMatchObject({ ok: true });
    expect(await run('stopPlugin', { id: 'none' })).toMatchObject({ ok: true });
    // A file that is not there (the Conclave server answers 404, with CORS): start() rejects naming the HTTP status.
    expect(await start({ id: 'missing', sourceType: 'url', url: `${fx!.server.url}/sdk/assets/missing-tone.mp3` })).toEqual({ ok: true });
    const failed = await sender.evaluate(() => (window as unknown as ApPage).ap.call('missing', 'start').then(() => 'played', (e: Error) => e.message));
    expect(failed).toMatch(/^HTTP 404: Failed to load audio resource/);
    await run('stopPlugin', { id: 'missing' });
  });
});
