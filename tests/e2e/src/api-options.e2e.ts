/**
 * Issue 31, options and values of 5.11–5.17 as an app observes them in real Chromium: create's and enterRoom's new
 * options, local video rotation, local audio mute 'microphone' and muteKeepVolumeDetection, screen share streamType
 * 'main', muteSystemAudio and updateScreenShare's tracks, remote video fullScreen and draggable.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventsOf } from './harness/client-page.js';
import { launchBrowser } from './harness/browser.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { TEST_APP } from './harness/server.js';

type E2E = { e2e: { create(o: unknown): void; call(m: string, a: unknown[]): Promise<unknown>; client: Record<string, (...a: unknown[]) => unknown> } };

const remoteSize = (page: Page, userId: string, streamType = 'main') => page.evaluate(([id, type]) => {
  const video = document.querySelector(`#remote-${id}-${type} video`) as HTMLVideoElement | null;
  return { width: video?.videoWidth ?? 0, height: video?.videoHeight ?? 0 };
}, [userId, streamType]);

/** The last volumes of `userId` the audio-volume event reported (newest last). */
const volumes = async (page: Page, userId: string, last = 8) => (await eventsOf(page, 'audio-volume'))
  .map((e) => (e.data.result as { userId: string; volume: number }[]).find((r) => r.userId === userId)?.volume ?? 0).slice(-last);

/** In the page: a steady 440 Hz tone as an audio track, and a canvas video track of a size (window.tone / window.canvasTrack). */
const makeTracks = (page: Page) => page.evaluate(() => {
  const w = window as unknown as { toneTrack: () => MediaStreamTrack; canvasTrack: (width: number, height: number) => MediaStreamTrack };
  w.toneTrack = () => {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const dest = ctx.createMediaStreamDestination();
    osc.connect(dest);
    osc.start();
    return dest.stream.getAudioTracks()[0];
  };
  w.canvasTrack = (width, height) => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    let n = 0;
    setInterval(() => {
      if (!ctx) return;
      ctx.fillStyle = `hsl(${n++ % 360},80%,50%)`;
      ctx.fillRect(0, 0, width, height);
    }, 66);
    return canvas.captureStream(15).getVideoTracks()[0];
  };
});

describe('5.11–5.17 options', () => {
  let fx: AppFixture;

  beforeAll(async () => {
    fx = await startAppFixture();
  });

  afterAll(() => stopAppFixture(fx));

  it("create's enableAutoPlayDialog / enableAutoSwitchWhenRecapturing / enableVolumeControlInIOS and enterRoom's quickStart are accepted", async () => {
    const page = await fx.app.open(fx.browser.context);
    const refused = await page.evaluate(() => {
      try {
        (window as unknown as E2E).e2e.create({ enableAutoPlayDialog: 'no' });
        return null;
      } catch (error) {
        return (error as { code: number }).code;
      }
    });
    expect(refused).toBe(5000);
    await page.evaluate(() => (window as unknown as E2E).e2e.create({ enableAutoPlayDialog: false, enableAutoSwitchWhenRecapturing: true, enableVolumeControlInIOS: true }));
    const sig = await fx.server.sig('quick');
    expect(await call(page, 'enterRoom', { sdkAppId: TEST_APP.sdkAppId, userId: 'quick', userSig: sig, roomId: 7341, quickStart: { remoteUserId: 'someone', small: true } })).toMatchObject({ ok: true });
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
    expect(await call(page, 'enterRoom', { sdkAppId: TEST_APP.sdkAppId, userId: 'quick', userSig: sig, roomId: 7341, quickStart: 'someone' })).toMatchObject({ ok: false, code: 5000 });
    await page.close();
  });

  it('create({ enableAutoPlayDialog: false }): a page refused autoplay gets autoplay-failed but no dialog', async () => {
    // A browser enforcing the autoplay policy; pages join from their own script (no user gesture).
    const strict = await launchBrowser(['--autoplay-policy=document-user-activation-required']);
    try {
      const alice = await fx.app.open(fx.browser.context);
      expect(await join(alice, fx.server, 'ap-alice', { roomId: 7346 })).toEqual({ ok: true });
      const open = async (userId: string, dialog: boolean | undefined) => {
        const page = await strict.context.newPage();
        let refused: (v: string) => void = () => undefined;
        const blocked = new Promise<string>((resolve) => { refused = resolve; });
        page.on('console', (message) => { if (message.text().startsWith('[e2e:autoplay-failed]')) refused(message.text()); });
        const params = { create: dialog === undefined ? {} : { enableAutoPlayDialog: dialog }, enter: { sdkAppId: TEST_APP.sdkAppId, userId, userSig: await fx.server.sig(userId), roomId: 7346 } };
        await page.addInitScript(`addEventListener('load', () => {
          const params = JSON.parse(decodeURIComponent(location.hash.slice(1)));
          const client = TRTC.create(params.create);
          client.on('autoplay-failed', (e) => console.log('[e2e:autoplay-failed] ' + e.mediaType));
          client.enterRoom(params.enter);
        });`);
        await page.goto(`${fx.app.url}?nogesture#${encodeURIComponent(JSON.stringify(params))}`);
        return { page, blocked };
      };
      const withDialog = await open('ap-default', undefined);
      const without = await open('ap-nodialog', false);
      expect(await withDialog.blocked).toContain('audio');
      expect(await without.blocked).toContain('audio');
      // The default page shows its dialog; by then the other would have shown its own.
      await withDialog.page.locator('[role="dialog"][aria-modal="true"]').waitFor({ state: 'visible', timeout: 20_000 });
      expect(await without.page.locator('[role="dialog"]').count()).toBe(0);
      await alice.close();
    } finally {
      await strict.close();
    }
  });

  it('local video option.rotation 90: others receive the camera turned (640x480 arrives as 480x640); forcePublish is accepted', async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    await alice.evaluate(() => {
      (window as unknown as E2E).e2e.create({});
      const view = document.createElement('div');
      view.id = 'local';
      document.body.appendChild(view);
    });
    expect(await call(alice, 'startLocalVideo', { view: 'local', forcePublish: true, option: { profile: '480p', rotation: 90 } })).toMatchObject({ ok: true });
    expect(await join(alice, fx.server, 'rot-alice', { roomId: 7342 }, { publish: false, reuse: true })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'rot-bob', { roomId: 7342 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 20_000 }).toBe(1);
    await watch(bob, 'rot-alice');
    await expect.poll(() => remoteSize(bob, 'rot-alice'), { timeout: 30_000 }).toEqual({ width: 480, height: 640 });
    // Back to 0: the picture arrives upright again.
    expect(await call(alice, 'updateLocalVideo', { option: { rotation: 0 } })).toMatchObject({ ok: true });
    await expect.poll(() => remoteSize(bob, 'rot-alice'), { timeout: 30_000 }).toEqual({ width: 640, height: 480 });
    expect(await call(alice, 'updateLocalVideo', { option: { rotation: 45 } })).toMatchObject({ ok: false, code: 5000 });
    await alice.close();
    await bob.close();
  });

  it("mute 'microphone' silences the microphone while mixed audio is still sent; muteKeepVolumeDetection keeps the local volume; echoCancellation modes", async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    await makeTracks(alice);
    await alice.evaluate(() => (window as unknown as E2E).e2e.create({}));
    expect(await call(alice, 'startLocalAudio', { muteKeepVolumeDetection: true, option: { echoCancellation: 'remote-only' } })).toMatchObject({ ok: true });
    // echoCancellation 'remote-only' reaches getUserMedia: this Chromium reports the mode, or true without modes.
    expect(['remote-only', true]).toContain(await alice.evaluate(() => ((window as unknown as E2E).e2e.client.getAudioTrack() as MediaStreamTrack).getSettings().echoCancellation));
    expect(await join(alice, fx.server, 'mic-alice', { roomId: 7343 }, { publish: false, reuse: true })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'mic-bob', { roomId: 7343 }, { publish: false })).toEqual({ ok: true });
    await call(bob, 'enableAudioVolumeEvaluation', 200);
    await call(alice, 'enableAudioVolumeEvaluation', 200);
    // The fake microphone beeps: heard by bob.
    await expect.poll(async () => Math.max(...await volumes(bob, 'mic-alice', 15)), { timeout: 20_000 }).toBeGreaterThan(5);

    expect(await call(alice, 'updateLocalAudio', { mute: 'microphone' })).toMatchObject({ ok: true });
    await expect.poll(async () => Math.max(...await volumes(bob, 'mic-alice', 15)), { timeout: 20_000 }).toBe(0);
    // The audio stream is still there (not muted): no remote-audio-unavailable.
    expect(await eventsOf(bob, 'remote-audio-unavailable')).toEqual([]);
    // Mixed audio (a screen share's system audio: a steady tone) is still sent.
    expect(await alice.evaluate(async () => {
      const w = window as unknown as E2E & { toneTrack(): MediaStreamTrack; canvasTrack(w: number, h: number): MediaStreamTrack };
      return w.e2e.call('startScreenShare', [{ option: { videoTrack: w.canvasTrack(320, 240), audioTrack: w.toneTrack() } }]);
    })).toMatchObject({ ok: true });
    await expect.poll(async () => Math.min(...await volumes(bob, 'mic-alice', 5)), { timeout: 20_000 }).toBeGreaterThan(5);
    expect(await call(alice, 'stopScreenShare')).toMatchObject({ ok: true });

    // mute: true with muteKeepVolumeDetection: the local audio-volume still measures the microphone.
    expect(await call(alice, 'updateLocalAudio', { mute: true })).toMatchObject({ ok: true });
    await expect.poll(async () => Math.max(...await volumes(alice, '', 15)), { timeout: 20_000 }).toBeGreaterThan(5);
    await alice.close();
    await bob.close();
  });

  it("screen share streamType 'main', muteSystemAudio, and updateScreenShare's videoTrack / audioTrack", async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    await makeTracks(alice);
    expect(await join(alice, fx.server, 'scr-alice', { roomId: 7344 }, { publish: false })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'scr-bob', { roomId: 7344 }, { publish: false })).toEqual({ ok: true });
    await call(bob, 'enableAudioVolumeEvaluation', 200);
    const start = await alice.evaluate(async () => {
      const w = window as unknown as E2E & { toneTrack(): MediaStreamTrack; canvasTrack(w: number, h: number): MediaStreamTrack };
      const view = document.createElement('div');
      view.style.cssText = 'width:320px;height:240px';
      document.body.appendChild(view);
      return w.e2e.call('startScreenShare', [{ streamType: 'main', view, muteSystemAudio: true, option: { videoTrack: w.canvasTrack(320, 240), audioTrack: w.toneTrack() } }]);
    });
    expect(start).toMatchObject({ ok: true });
    // The screen arrives as alice's main video.
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).map((e) => e.data), { timeout: 20_000 }).toEqual([{ userId: 'scr-alice', streamType: 'main' }]);
    await watch(bob, 'scr-alice');
    await expect.poll(() => remoteSize(bob, 'scr-alice'), { timeout: 30_000 }).toEqual({ width: 320, height: 240 });
    // The camera cannot take the main stream meanwhile.
    expect(await call(alice, 'startLocalVideo', {})).toMatchObject({ ok: false, code: 5100 });
    // muteSystemAudio: the tone is not sent; unmuted, it is.
    expect(await eventsOf(bob, 'remote-audio-available')).toEqual([]);
    expect(await call(alice, 'updateScreenShare', { muteSystemAudio: false })).toMatchObject({ ok: true });
    await expect.poll(async () => Math.min(...await volumes(bob, 'scr-alice', 5)), { timeout: 20_000 }).toBeGreaterThan(5);
    // Another video track: bob sees its size.
    expect(await alice.evaluate(async () => {
      const w = window as unknown as E2E & { canvasTrack(w: number, h: number): MediaStreamTrack };
      return w.e2e.call('updateScreenShare', [{ option: { videoTrack: w.canvasTrack(640, 360) } }]);
    })).toMatchObject({ ok: true });
    await expect.poll(() => remoteSize(bob, 'scr-alice'), { timeout: 30_000 }).toEqual({ width: 640, height: 360 });
    // The sharer's preview reports its sizes too (video-size-changed, the stream type it is shared as).
    await expect.poll(async () => (await eventsOf(alice, 'video-size-changed')).map((e) => e.data), { timeout: 10_000 }).toEqual([
      { userId: 'scr-alice', streamType: 'main', newWidth: 320, newHeight: 240 }, { userId: 'scr-alice', streamType: 'main', newWidth: 640, newHeight: 360 },
    ]);
    expect(await call(alice, 'updateScreenShare', { streamType: 'third' })).toMatchObject({ ok: false, code: 5000 });
    expect(await call(alice, 'stopScreenShare')).toMatchObject({ ok: true });
    await alice.close();
    await bob.close();
  });

  it('remote video option.fullScreen (from a click) and option.draggable', async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    expect(await join(alice, fx.server, 'fs-alice', { roomId: 7345 })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'fs-bob', { roomId: 7345 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 20_000 }).toBe(1);
    await bob.evaluate(() => {
      const view = document.createElement('div');
      view.id = 'remote-fs-alice-main';
      view.style.cssText = 'width:320px;height:240px';
      document.body.appendChild(view);
      const button = document.createElement('button');
      button.id = 'go';
      button.textContent = 'go';
      const w = window as unknown as E2E & { results: unknown[] };
      w.results = [];
      button.onclick = () => void w.e2e.call('startRemoteVideo', [{ userId: 'fs-alice', streamType: 'main', view, option: { fullScreen: true, draggable: true } }]).then((r) => w.results.push(r));
      document.body.prepend(button);
    });
    await bob.click('#go');
    await expect.poll(() => bob.evaluate(() => (window as unknown as { results: unknown[] }).results), { timeout: 20_000 }).toEqual([{ ok: true, value: null }]);
    await expect.poll(async () => (await eventsOf(bob, 'full-screen-state-changed')).map((e) => e.data), { timeout: 10_000 })
      .toEqual([{ userId: 'fs-alice', streamType: 'main', isFullScreen: true }]);
    expect(await bob.evaluate(() => document.fullscreenElement?.id)).toBe('remote-fs-alice-main');
    expect(await call(bob, 'updateRemoteVideo', { userId: 'fs-alice', streamType: 'main', option: { fullScreen: false } })).toMatchObject({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'full-screen-state-changed')).map((e) => e.data.isFullScreen), { timeout: 10_000 }).toEqual([true, false]);
    // Dragged by the user: the view moves with the pointer.
    const box = await bob.locator('#remote-fs-alice-main').boundingBox();
    if (!box) throw new Error('no view');
    await bob.mouse.move(box.x + 100, box.y + 100);
    await bob.mouse.down();
    await bob.mouse.move(box.x + 160, box.y + 130, { steps: 5 });
    await bob.mouse.up();
    const moved = await bob.locator('#remote-fs-alice-main').boundingBox();
    expect({ dx: Math.round((moved?.x ?? 0) - box.x), dy: Math.round((moved?.y ?? 0) - box.y) }).toEqual({ dx: 60, dy: 30 });
    await alice.close();
    await bob.close();
  });
});
