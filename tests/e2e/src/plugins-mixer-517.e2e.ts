import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { fakeCamera, usePlugin, waitForFrames, y4m, type Region, type RegionFigures } from './video-effects-helpers.js';

// The camera is solid blue-grey (0x3060a0); the 5.17 canvas is orange; the camera fills its left half.
const LEFT: Region = { x: 0.1, y: 0.3, w: 0.3, h: 0.4 };
const RIGHT: Region = { x: 0.6, y: 0.3, w: 0.3, h: 0.4 };
const isCamera = (f: RegionFigures) => Math.abs(f.r - 0x30) < 40 && Math.abs(f.g - 0x60) < 40 && Math.abs(f.b - 0xa0) < 40;
const isOrange = (f: RegionFigures) => f.r > 200 && f.g > 90 && f.g < 170 && f.b < 60;

let fx: AppFixture | undefined;

beforeAll(async () => {
  fx = await startAppFixture({}, fakeCamera(y4m('solid')));
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
});

describe("VideoMixer, 5.17's option shape (canvasInfo, camera[], video[], its MixParseResult) beside 5.11's", () => {
  it('mixes the camera onto the canvas as laid out; refuses a video[] source in failedDetails; update moves the camera', async () => {
    const roomId = 25031;
    const publisher = await fx!.app.open(fx!.browser.context);
    const receiver = await fx!.app.open(fx!.browser.context);
    expect((await join(publisher, fx!.server, 'm17-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx!.server, 'm17-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx!.server.url, 'video-mixer', 'VideoMixer');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): { data: { userId: string } }[] } }).e2e
      .eventsOf('remote-video-available').some((e) => e.data.userId === 'm17-pub'), undefined, { timeout: 20_000 });
    await watch(receiver, 'm17-pub');

    const started = await publisher.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<{ track: unknown; systemAudioTrackList: object; result: { successOptions: { video?: unknown[] }; failedDetails: { id: string; error: Error }[] } }> } } }).e2e.client;
      const result = await client.startPlugin('VideoMixer', {
        canvasInfo: { width: 640, height: 360, canvasColor: '#ff8000' },
        camera: [{ id: 'cam', layout: { x: 0, y: 0, width: 320, height: 360, zIndex: 1, fillMode: 'fill' } }],
        video: [{ id: 'clip', url: '/clip.mp4', layout: { x: 320, y: 0, width: 320, height: 180, zIndex: 2 } }],
      });
      return {
        isTrack: result.track instanceof MediaStreamTrack,
        audio: Object.keys(result.systemAudioTrackList).length,
        failed: result.result.failedDetails.map((d) => ({ id: d.id, isError: d.error instanceof Error, message: d.error.message })),
        keptVideo: result.result.successOptions.video?.length,
      };
    });
    expect(started).toMatchObject({ isTrack: true, audio: 0, keptVideo: 0, failed: [{ id: 'clip', isError: true }] });
    expect(started.failed[0].message).toMatch(/video file sources are not supported/);
    const [left, right] = await waitForFrames(receiver, 'm17-pub', [LEFT, RIGHT], ([l, r]) => isCamera(l) && isOrange(r));
    expect(left.width / left.height).toBeCloseTo(640 / 360, 1);
    expect(isOrange(right)).toBe(true);

    // 5.17's update: the camera moves to the right half.
    expect(await call(publisher, 'updatePlugin', 'VideoMixer', { camera: [{ id: 'cam', layout: { x: 320, y: 0, width: 320, height: 360, zIndex: 1, fillMode: 'fill' } }] })).toMatchObject({ ok: true });
    await waitForFrames(receiver, 'm17-pub', [LEFT, RIGHT], ([l, r]) => isOrange(l) && isCamera(r));
    expect(await call(publisher, 'stopPlugin', 'VideoMixer')).toMatchObject({ ok: true });
    await publisher.close();
    await receiver.close();
  }, 120_000);
});
