import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { tmpdir } from 'node:os';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { measure, usePlugin, waitForFrames, type Region, type RegionFigures } from './video-effects-helpers.js';

// Chromium's built-in fake cameras, two of them: fake_device_0 (the published camera) is green with a moving
// pattern, fake_device_1 grey with a moving pattern. The video file is solid magenta; the canvas orange.
const CAMERAS = ['--use-fake-device-for-media-stream=device-count=2'];
const LEFT: Region = { x: 0.1, y: 0.3, w: 0.3, h: 0.4 };
const TOP_RIGHT: Region = { x: 0.55, y: 0.05, w: 0.4, h: 0.4 };
const BOTTOM_RIGHT: Region = { x: 0.6, y: 0.6, w: 0.3, h: 0.3 };
const isCamera = (f: RegionFigures) => f.g > 90 && f.g > 2 * f.r && f.g > 2 * f.b;
const isSecondCamera = (f: RegionFigures) => Math.max(f.r, f.g, f.b) - Math.min(f.r, f.g, f.b) < 25 && f.luma > 5 && f.luma < 150;
const isMagenta = (f: RegionFigures) => f.r > 150 && f.b > 150 && f.g < 80;
const isOrange = (f: RegionFigures) => f.r > 200 && f.g > 90 && f.g < 170 && f.b < 60;

/** A 2 s solid-magenta VP8 clip made with ffmpeg (the video[] source), read once. */
function magentaClip(): string {
  const file = joinPath(tmpdir(), 'conclave-mixer-clip-magenta.webm');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0xd020d0:s=320x240:r=15:d=2', '-c:v', 'libvpx', '-b:v', '300k', file]);
  return readFileSync(file).toString('base64');
}

/** A blob: URL of the clip in the page. */
const clipUrl = (page: Page, base64: string) => page.evaluate((data) => URL.createObjectURL(new Blob([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], { type: 'video/webm' })), base64);

/** Waits (bounded) until a region's pixels change between two frames: moving camera pixels, not a still. */
async function waitForMotion(page: Page, userId: string, region: Region): Promise<void> {
  const signature = () => page.evaluate(({ id, r }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`)!;
    const canvas = document.createElement('canvas');
    canvas.width = 32;
    canvas.height = 24;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, r.x * video.videoWidth, r.y * video.videoHeight, r.w * video.videoWidth, r.h * video.videoHeight, 0, 0, 32, 24);
    return Array.from(ctx.getImageData(0, 0, 32, 24).data.filter((_, i) => i % 4 === 1));
  }, { id: userId, r: region });
  const first = await signature();
  const deadline = Date.now() + 10_000;
  let change = 0;
  while (Date.now() < deadline) {
    await page.waitForTimeout(150);
    const next = await signature();
    change = next.reduce((sum, v, i) => sum + Math.abs(v - first[i]), 0) / next.length;
    if (change > 3) return;
  }
  throw new Error(`the region never changed (mean change ${change.toFixed(2)})`);
}

let fx: AppFixture | undefined;

beforeAll(async () => {
  fx = await startAppFixture({}, CAMERAS);
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
});

describe("VideoMixer, 5.17's option shape (canvasInfo, camera[], video[], its MixParseResult) beside 5.11's", () => {
  it('mixes the published camera, a second camera (cameraId) and a video file as laid out; update moves and drops sources; all sources failing rejects with data.failedDetails', async () => {
    const roomId = 25031;
    const clip = magentaClip();
    const publisher = await fx!.app.open(fx!.browser.context);
    const receiver = await fx!.app.open(fx!.browser.context);
    expect((await join(publisher, fx!.server, 'm17-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx!.server, 'm17-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx!.server.url, 'video-mixer', 'VideoMixer');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): { data: { userId: string } }[] } }).e2e
      .eventsOf('remote-video-available').some((e) => e.data.userId === 'm17-pub'), undefined, { timeout: 20_000 });
    await watch(receiver, 'm17-pub');
    const url = await clipUrl(publisher, clip);

    const started = await publisher.evaluate(async (clipSrc) => {
      const client = (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<{ track: unknown; systemAudioTrackList: object; result: { successOptions: { video?: unknown[]; camera?: unknown[] }; failedDetails: { id: string; error: Error }[] } }> } } }).e2e.client;
      const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
      const result = await client.startPlugin('VideoMixer', {
        canvasInfo: { width: 640, height: 360, canvasColor: '#ff8000' },
        camera: [
          { id: 'cam', layout: { x: 0, y: 0, width: 320, height: 360, zIndex: 1, fillMode: 'fill' } },
          { id: 'cam2', cameraId: cameras[1].deviceId, layout: { x: 320, y: 0, width: 320, height: 180, zIndex: 1, fillMode: 'fill' } },
        ],
        video: [{ id: 'clip', url: clipSrc, layout: { x: 320, y: 180, width: 320, height: 180, zIndex: 2, fillMode: 'fill' } }],
      });
      return {
        cameras: cameras.length,
        isTrack: result.track instanceof MediaStreamTrack,
        audio: Object.keys(result.systemAudioTrackList).length,
        failed: result.result.failedDetails.map((d) => ({ id: d.id, message: d.error.message })),
        kept: [result.result.successOptions.camera?.length, result.result.successOptions.video?.length],
      };
    }, url);
    expect(started).toEqual({ cameras: 2, isTrack: true, audio: 0, failed: [], kept: [2, 1] });
    const [left] = await waitForFrames(receiver, 'm17-pub', [LEFT, TOP_RIGHT, BOTTOM_RIGHT], ([l, t, b]) => isCamera(l) && isSecondCamera(t) && isMagenta(b));
    expect(left.width / left.height).toBeCloseTo(640 / 360, 1);
    // Both camera regions carry live, moving pictures (two captures), the clip region the file's colour.
    await waitForMotion(receiver, 'm17-pub', LEFT);
    await waitForMotion(receiver, 'm17-pub', TOP_RIGHT);

    // 5.17's update replaces the camera list: the published camera moves to the right half, the second camera leaves.
    expect(await call(publisher, 'updatePlugin', 'VideoMixer', { camera: [{ id: 'cam', layout: { x: 320, y: 0, width: 320, height: 360, zIndex: 1, fillMode: 'fill' } }] })).toMatchObject({ ok: true });
    await waitForFrames(receiver, 'm17-pub', [LEFT, TOP_RIGHT, BOTTOM_RIGHT], ([l, r, b]) => isOrange(l) && isCamera(r) && isMagenta(b));

    // Every source given fails: 5.17's INVALID_PARAMETER "all sources mix failed", with data.failedDetails; the mix stays.
    const failure = await publisher.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { updatePlugin(n: string, o: unknown): Promise<unknown> } } }).e2e.client;
      try {
        await client.updatePlugin('VideoMixer', { video: [{ id: 'missing', url: '/no-such-clip.webm', layout: { x: 0, y: 0, width: 100, height: 100, zIndex: 3 } }] });
        return { rejected: false };
      } catch (error) {
        const e = error as { name: string; code: number; message: string; data?: { failedDetails: { id: string; error: Error }[] } };
        return { rejected: true, name: e.name, code: e.code, message: e.message, ids: e.data?.failedDetails.map((d) => d.id), isError: e.data?.failedDetails[0]?.error instanceof Error };
      }
    });
    expect(failure).toMatchObject({ rejected: true, name: 'RtcError', code: 5000, ids: ['missing'], isError: true });
    expect(failure.message).toMatch(/all sources mix failed/);
    const [still] = await measure(receiver, 'm17-pub', [BOTTOM_RIGHT]);
    expect(isMagenta(still)).toBe(true);
    expect(await call(publisher, 'stopPlugin', 'VideoMixer')).toMatchObject({ ok: true });
    await publisher.close();
    await receiver.close();
  }, 120_000);
});
