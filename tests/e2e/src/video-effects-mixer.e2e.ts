import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventsOf } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { fakeCamera, usePlugin, waitForFrames, y4m, type Region, type RegionFigures } from './video-effects-helpers.js';

// Camera: solid blue-grey (0x3060a0). Screen share: a custom track of a canvas painted green.
const LEFT: Region = { x: 0.2, y: 0.4, w: 0.1, h: 0.2 };
const TOP_RIGHT: Region = { x: 0.7, y: 0.2, w: 0.1, h: 0.1 };
const BOTTOM_RIGHT: Region = { x: 0.7, y: 0.7, w: 0.1, h: 0.1 };
const isCamera = (f: RegionFigures) => f.b > f.r + 60 && f.r < 90 && f.g < 140;
const isScreen = (f: RegionFigures) => f.g > 180 && f.r < 80 && f.b < 80;
const isEmpty = (f: RegionFigures) => f.r < 30 && f.g < 30 && f.b < 30;

describe('video effects: VideoMixer', () => {
  let fx: AppFixture;

  beforeAll(async () => {
    fx = await startAppFixture({}, fakeCamera(y4m('solid')));
  });
  afterAll(async () => {
    await stopAppFixture(fx ?? {});
  });

  it('VideoMixer: the other page receives one stream in which the camera and the screen share sit at the configured rectangles, and a live layout update moves them', async () => {
    const roomId = 13005;
    const publisher = await fx.app.open(fx.browser.context);
    const receiver = await fx.app.open(fx.browser.context);
    expect((await join(publisher, fx.server, 'mix-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx.server, 'mix-sub', { roomId }, { publish: false })).ok).toBe(true);
    // The app shares "a screen": a canvas painted green, as a custom screen track.
    await publisher.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 480;
      const ctx = canvas.getContext('2d')!;
      setInterval(() => {
        ctx.fillStyle = '#00ff00';
        ctx.fillRect(0, 0, 640, 480);
      }, 100);
      (window as unknown as { screenTrack: MediaStreamTrack }).screenTrack = canvas.captureStream(10).getVideoTracks()[0];
    });
    const shared = await publisher.evaluate(async () => {
      const w = window as unknown as { e2e: { client: { startScreenShare(c: unknown): Promise<void> } }; screenTrack: MediaStreamTrack };
      await w.e2e.client.startScreenShare({ option: { videoTrack: w.screenTrack } });
      return true;
    });
    expect(shared).toBe(true);
    await usePlugin(publisher, fx.server.url, 'video-mixer', 'VideoMixer');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): Array<{ data: { streamType: string } }> } }).e2e
      .eventsOf('remote-video-available').some((e) => e.data.streamType === 'sub'), undefined, { timeout: 20_000 });

    const started = await call(publisher, 'startPlugin', 'VideoMixer', {
      container: { width: 640, height: 480 },
      screen: { x: 0, y: 0, width: 320, height: 480 },
      camera: { x: 320, y: 0, width: 320, height: 240 },
    });
    expect(started).toMatchObject({ ok: true });
    // One stream: the screen share is no longer published on its own.
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): Array<{ data: { streamType: string } }> } }).e2e
      .eventsOf('remote-video-unavailable').some((e) => e.data.streamType === 'sub'), undefined, { timeout: 20_000 });
    await watch(receiver, 'mix-pub');
    const [left, topRight, bottomRight] = await waitForFrames(receiver, 'mix-pub', [LEFT, TOP_RIGHT, BOTTOM_RIGHT],
      ([l, t, b]) => isScreen(l) && isCamera(t) && isEmpty(b));
    expect(isScreen(left) && isCamera(topRight) && isEmpty(bottomRight)).toBe(true);

    // A live update moves them: camera to the left half, screen to the bottom right.
    expect(await call(publisher, 'updatePlugin', 'VideoMixer', {
      camera: { x: 0, y: 0, width: 320, height: 480 },
      screen: { x: 320, y: 240, width: 320, height: 240 },
    })).toMatchObject({ ok: true });
    const moved = await waitForFrames(receiver, 'mix-pub', [LEFT, TOP_RIGHT, BOTTOM_RIGHT], ([l, t, b]) => isCamera(l) && isEmpty(t) && isScreen(b));
    expect(isCamera(moved[0]) && isEmpty(moved[1]) && isScreen(moved[2])).toBe(true);

    // Bad layouts are refused with INVALID_PARAMETER.
    expect(await call(publisher, 'updatePlugin', 'VideoMixer', { camera: { width: 0 } })).toMatchObject({ ok: false, code: 5000 });

    // Stop: the plain camera again, and the screen share back on its own stream.
    expect(await call(publisher, 'stopPlugin', 'VideoMixer')).toMatchObject({ ok: true });
    await waitForFrames(receiver, 'mix-pub', [LEFT, TOP_RIGHT, BOTTOM_RIGHT], (figures) => figures.every(isCamera));
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): Array<{ data: { streamType: string } }> } }).e2e
      .eventsOf('remote-video-available').filter((e) => e.data.streamType === 'sub').length >= 2, undefined, { timeout: 20_000 });
    expect((await eventsOf(receiver, 'remote-video-available')).filter((e) => e.data.streamType === 'sub').length).toBeGreaterThanOrEqual(2);
    await publisher.close();
    await receiver.close();
  });
});
