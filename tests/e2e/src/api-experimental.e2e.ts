/**
 * Issue 31, callExperimentalAPI with the names of 5.17's typings, as an app observes them in real Chromium:
 * PCM audio frames, pausing and resuming a remote player, picture-in-picture and full screen of a remote video,
 * and an unknown name rejected as the original does.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventsOf } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { TEST_APP } from './harness/server.js';

type FrameWindow = { frames: { userId: string; sampleRate: number; channelCount: number; channels: number; length: number; rms: number }[] };

/** Records the page's audio-frame events (length and RMS level of each). */
const recordFrames = (page: Page) => page.evaluate(() => {
  const w = window as unknown as FrameWindow & { e2e: { client: { on(e: string, h: (f: { userId: string; sampleRate: number; channelCount: number; data: Float32Array }) => void): void } } };
  w.frames = [];
  w.e2e.client.on('audio-frame', (frame) => {
    // Mono: the samples; stereo: [left, right] (as the original).
    const channels = Array.isArray(frame.data) ? frame.data as Float32Array[] : [frame.data];
    let sum = 0;
    for (const x of channels[0]) sum += x * x;
    w.frames.push({ userId: frame.userId, sampleRate: frame.sampleRate, channelCount: frame.channelCount, channels: channels.length, length: channels[0].length, rms: Math.sqrt(sum / channels[0].length) });
  });
});
const frames = (page: Page) => page.evaluate(() => (window as unknown as FrameWindow).frames);
const experimental = (page: Page, name: string, options?: unknown) => call(page, 'callExperimentalAPI', name, options);
const framesDecoded = (page: Page, userId: string) => page.evaluate((id) => {
  const video = document.querySelector(`#remote-${id}-main video`) as HTMLVideoElement | null;
  return { paused: video?.paused ?? null, frames: video?.getVideoPlaybackQuality().totalVideoFrames ?? 0, time: video?.currentTime ?? 0 };
}, userId);

/** The last video-play-state-changed (main) and audio-play-state-changed states of a user. */
const lastStates = async (page: Page, userId: string) => ({
  video: (await eventsOf(page, 'video-play-state-changed')).filter((e) => e.data.userId === userId && e.data.streamType === 'main').at(-1)?.data.state,
  audio: (await eventsOf(page, 'audio-play-state-changed')).filter((e) => e.data.userId === userId).at(-1)?.data.state,
});

describe('callExperimentalAPI', () => {
  let fx: AppFixture;
  let alice: Page;
  let bob: Page;

  /** Alice publishes, Bob plays her video (once, by the first test that runs). */
  let room: Promise<void> | undefined;
  const inRoom = () => room ??= (async () => {
    alice = await fx.app.open(fx.browser.context);
    bob = await fx.app.open(fx.browser.context);
    expect(await join(alice, fx.server, 'alice', { roomId: 7331 })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'bob', { roomId: 7331 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain('alice');
    await watch(bob, 'alice');
    await expect.poll(async () => (await framesDecoded(bob, 'alice')).frames, { timeout: 30_000 }).toBeGreaterThan(0);
  })();

  beforeAll(async () => {
    fx = await startAppFixture();
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await stopAppFixture(fx);
  });

  it("enableAudioFrameEvent delivers PCM of the asked rate whose level follows the microphone, local ('') and remote ('*')", async () => {
    await inRoom();
    await recordFrames(alice);
    expect(await experimental(alice, 'enableAudioFrameEvent', { enable: true, userId: '', sampleRate: 16000, channelCount: 1 })).toMatchObject({ ok: true });
    // 40 ms frames at 16 kHz: 640 samples; about 25 a second.
    await expect.poll(async () => (await frames(alice)).length, { timeout: 10_000 }).toBeGreaterThan(50);
    const local = await frames(alice);
    expect(new Set(local.map((f) => `${f.userId}|${f.sampleRate}|${f.channelCount}|${f.channels}|${f.length}`))).toEqual(new Set(['|16000|1|1|640']));
    // Chromium's fake microphone beeps: loud frames and quiet ones.
    expect(Math.max(...local.map((f) => f.rms))).toBeGreaterThan(0.02);
    expect(Math.min(...local.map((f) => f.rms))).toBeLessThan(0.005);
    // The microphone muted at the track (the browser's own mute): the level follows, to silence.
    await alice.evaluate(() => {
      (window as unknown as { e2e: { client: { getAudioTrack(): MediaStreamTrack } } }).e2e.client.getAudioTrack().enabled = false;
      (window as unknown as FrameWindow).frames = [];
    });
    // Frames already buffered still carry sound; then only silence (the last 25 frames: one second).
    await expect.poll(async () => Math.max(...(await frames(alice)).slice(-25).map((f) => f.rms)), { timeout: 10_000 }).toBe(0);
    await alice.evaluate(() => { (window as unknown as { e2e: { client: { getAudioTrack(): MediaStreamTrack } } }).e2e.client.getAudioTrack().enabled = true; });
    expect(await experimental(alice, 'enableAudioFrameEvent', { enable: false, userId: '' })).toMatchObject({ ok: true });
    // Into a MessagePort instead of the event.
    const posted = await alice.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { callExperimentalAPI(n: string, o: unknown): Promise<void> } } }).e2e.client;
      const channel = new MessageChannel();
      const got: { sampleRate: number; length: number }[] = [];
      channel.port2.onmessage = (event: MessageEvent<{ sampleRate: number; data: Float32Array }>) => got.push({ sampleRate: event.data.sampleRate, length: event.data.data.length });
      const before = (window as unknown as FrameWindow).frames.length;
      await client.callExperimentalAPI('enableAudioFrameEvent', { enable: true, userId: '', sampleRate: 8000, port: channel.port1 });
      const deadline = Date.now() + 10_000;
      while (got.length < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      await client.callExperimentalAPI('enableAudioFrameEvent', { enable: false, userId: '' });
      return { got: got.slice(0, 10), events: (window as unknown as FrameWindow).frames.length - before };
    });
    expect(posted.got).toEqual(Array(10).fill({ sampleRate: 8000, length: 320 }));
    expect(posted.events).toBe(0);

    await recordFrames(bob);
    expect(await experimental(bob, 'enableAudioFrameEvent', { enable: true, userId: '*', sampleRate: 48000, channelCount: 2 })).toMatchObject({ ok: true });
    await expect.poll(async () => (await frames(bob)).filter((f) => f.rms > 0.02).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const remote = await frames(bob);
    // Stereo frames are [left, right] as the original's, 40 ms at 48 kHz each.
    expect(new Set(remote.map((f) => `${f.userId}|${f.sampleRate}|${f.channelCount}|${f.channels}|${f.length}`))).toEqual(new Set(['alice|48000|2|2|1920']));
    expect(await experimental(bob, 'enableAudioFrameEvent', { enable: false, userId: '*' })).toMatchObject({ ok: true });
  });

  it('pauseRemotePlayer pauses a remote user\'s video and audio; resumeRemotePlayer plays them again', async () => {
    await inRoom();
    expect(await experimental(bob, 'pauseRemotePlayer', { userId: 'alice', streamType: 'main' })).toMatchObject({ ok: true });
    await expect.poll(() => framesDecoded(bob, 'alice'), { timeout: 5000 }).toMatchObject({ paused: true });
    await expect.poll(() => lastStates(bob, 'alice'), { timeout: 5000 }).toEqual({ video: 'PAUSED', audio: 'PAUSED' });
    const pausedAt = (await framesDecoded(bob, 'alice')).time;
    expect(await experimental(bob, 'resumeRemotePlayer', { userId: 'alice', streamType: 'main' })).toMatchObject({ ok: true });
    await expect.poll(() => framesDecoded(bob, 'alice'), { timeout: 5000 }).toMatchObject({ paused: false });
    await expect.poll(() => lastStates(bob, 'alice'), { timeout: 5000 }).toEqual({ video: 'PLAYING', audio: 'PLAYING' });
    // Playing again: its clock runs on.
    await expect.poll(async () => (await framesDecoded(bob, 'alice')).time, { timeout: 10_000 }).toBeGreaterThan(pausedAt + 1);
  });

  it('requestFullScreen and requestPictureInPicture put the remote video there, with their state events', async () => {
    await inRoom();
    // Both need a user gesture: the app calls them from a click.
    await bob.evaluate(() => {
      const button = document.createElement('button');
      button.id = 'go';
      button.textContent = 'go';
      button.onclick = () => {
        const w = window as unknown as { next: [string, unknown]; results: unknown[]; e2e: { call(m: string, a: unknown[]): Promise<unknown> } };
        void w.e2e.call('callExperimentalAPI', w.next).then((r) => w.results.push(r));
      };
      document.body.prepend(button);
      (window as unknown as { results: unknown[] }).results = [];
    });
    const results = () => bob.evaluate(() => (window as unknown as { results: unknown[] }).results);
    const click = async (name: string, options: unknown) => {
      await bob.evaluate((next) => { (window as unknown as { next: unknown }).next = next; }, [name, options]);
      const count = (await results()).length;
      await bob.click('#go', { force: true });
      await expect.poll(async () => (await results()).length, { timeout: 10_000 }).toBe(count + 1);
      expect((await results()).at(-1)).toMatchObject({ ok: true });
    };
    await click('requestFullScreen', { enable: true });
    await expect.poll(async () => (await eventsOf(bob, 'full-screen-state-changed')).map((e) => e.data), { timeout: 10_000 })
      .toEqual([{ userId: 'alice', streamType: 'main', isFullScreen: true }]);
    expect(await bob.evaluate(() => document.fullscreenElement?.id)).toBe('remote-alice-main');
    // Leaving needs no gesture (and the button is hidden behind the full-screen view).
    expect(await experimental(bob, 'requestFullScreen', { enable: false })).toMatchObject({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'full-screen-state-changed')).map((e) => e.data.isFullScreen), { timeout: 10_000 }).toEqual([true, false]);

    await click('requestPictureInPicture', { enable: true });
    await expect.poll(async () => (await eventsOf(bob, 'picture-in-picture-state-changed')).map((e) => e.data.isPictureInPicture), { timeout: 10_000 }).toEqual([true]);
    expect(await bob.evaluate(() => document.pictureInPictureElement?.parentElement?.id)).toBe('remote-alice-main');
    expect(await experimental(bob, 'requestPictureInPicture', { enable: false })).toMatchObject({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'picture-in-picture-state-changed')).map((e) => e.data.isPictureInPicture), { timeout: 10_000 }).toEqual([true, false]);
  });

  it('preconnect then enterRoom joins on the warmed socket: no socket opened while entering', async () => {
    await inRoom();
    const page = await fx.app.open(fx.browser.context);
    const sig = await fx.server.sig('warm');
    const timed = await page.evaluate(async ({ sig, sdkAppId }) => {
      const w = window as unknown as { WebSocket: typeof WebSocket; TRTC: { create(): { enterRoom(c: unknown): Promise<void>; exitRoom(): Promise<void>; callExperimentalAPI(n: string, o: unknown): Promise<void> } } };
      let sockets = 0;
      const Original = w.WebSocket;
      w.WebSocket = class extends Original {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets++;
        }
      };
      const enter = async (client: ReturnType<typeof w.TRTC.create>, roomId: number) => {
        const before = sockets;
        const start = performance.now();
        await client.enterRoom({ sdkAppId, userId: 'warm', userSig: sig, roomId });
        const ms = performance.now() - start;
        await client.exitRoom();
        return { sockets: sockets - before, ms: Math.round(ms) };
      };
      const cold = await enter(w.TRTC.create(), 7332);
      const client = w.TRTC.create();
      await client.callExperimentalAPI('preconnect', { enable: true, sdkAppId, userId: 'warm', userSig: sig });
      const warmed = sockets;
      const warm = await enter(client, 7333);
      return { cold, warm, warmed };
    }, { sig, sdkAppId: TEST_APP.sdkAppId });
    console.info(`enterRoom: ${timed.cold.ms} ms cold, ${timed.warm.ms} ms after preconnect`);
    expect(timed.cold.sockets).toBe(1);
    expect(timed.warmed).toBeGreaterThanOrEqual(2);
    expect(timed.warm.sockets).toBe(0);
    await page.close();
  });

  it('switchPlaybackQuality moves the playing view to the stream of the named quality, then calls onSwitched', async () => {
    await inRoom();
    const hd = await fx.app.open(fx.browser.context);
    const sd = await fx.app.open(fx.browser.context);
    const viewer = await fx.app.open(fx.browser.context);
    expect(await join(hd, fx.server, 'q-hd', { roomId: 7334 }, { profile: '480p' })).toEqual({ ok: true });
    expect(await join(sd, fx.server, 'q-sd', { roomId: 7334 }, { profile: '240p' })).toEqual({ ok: true });
    expect(await join(viewer, fx.server, 'q-viewer', { roomId: 7334 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(viewer, 'remote-video-available')).length, { timeout: 20_000 }).toBe(2);
    await watch(viewer, 'q-hd');
    const shown = () => viewer.evaluate(() => [...document.querySelectorAll('#remote-q-hd-main video')].map((v) => (v as HTMLVideoElement).videoWidth));
    await expect.poll(shown, { timeout: 30_000 }).toEqual([640]);
    const switched = await viewer.evaluate(() => new Promise((resolve, reject) => {
      const client = (window as unknown as { e2e: { client: { callExperimentalAPI(n: string, o: unknown): Promise<void> } } }).e2e.client;
      client.callExperimentalAPI('switchPlaybackQuality', {
        streamList: [{ name: 'hd', userId: 'q-hd', bitrate: 900 }, { name: 'sd', userId: 'q-sd', bitrate: 400 }],
        quality: 'sd',
        onSwitched: (from: unknown, to: unknown) => resolve({ from, to }),
      }).catch(reject);
    }));
    expect(switched).toEqual({ from: { userId: 'q-hd', streamType: 'main', name: 'hd' }, to: expect.objectContaining({ userId: 'q-sd', streamType: 'main', name: 'sd' }) });
    // The same view now plays the 240p stream (320 wide).
    await expect.poll(shown, { timeout: 30_000 }).toEqual([320]);
    for (const page of [hd, sd, viewer]) await page.close();
  });

  it('an unknown name is rejected as the original does', async () => {
    await inRoom();
    expect(await experimental(bob, 'noSuchApi', {})).toMatchObject({ ok: false, code: 5000, functionName: 'callExperimentalAPI', message: expect.stringContaining('experimental api noSuchApi does not exist.') });
  });
});
