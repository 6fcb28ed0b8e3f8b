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
const isRed = (f: RegionFigures) => f.r > 170 && f.g < 70 && f.b < 70;
const isBlue = (f: RegionFigures) => f.b > 170 && f.r < 70 && f.g < 70;
// The left half of the canvas, upper and lower parts (each spanning the width of the left half).
const LEFT_UPPER: Region = { x: 0.05, y: 0.08, w: 0.4, h: 0.3 };
const LEFT_LOWER: Region = { x: 0.05, y: 0.62, w: 0.4, h: 0.3 };

/** Waits (bounded) until the mixer's preview <video> inside #id plays decoded frames of the mix's size; its figures. */
async function waitForPreview(page: Page, id: string): Promise<{ videos: number; width: number; height: number; frames: number; paused: boolean }> {
  const handle = await page.waitForFunction((parentId) => {
    const videos = document.querySelectorAll<HTMLVideoElement>(`#${parentId} video`);
    const video = videos[0] as HTMLVideoElement | undefined;
    const frames = video?.getVideoPlaybackQuality().totalVideoFrames ?? 0;
    return video && frames > 2 && video.videoWidth > 0 ? { videos: videos.length, width: video.videoWidth, height: video.videoHeight, frames, paused: video.paused } : undefined;
  }, id, { timeout: 15_000 });
  return (await handle.jsonValue())!;
}

/** An image data: URL, 200×100, left half red, right half blue (the rotated image[] source). */
const redBlueImage = (page: Page) => page.evaluate(() => {
  const canvas = document.createElement('canvas');
  canvas.width = 200;
  canvas.height = 100;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, 100, 100);
  ctx.fillStyle = '#0000ff';
  ctx.fillRect(100, 0, 100, 100);
  return canvas.toDataURL('image/png');
});

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
  it('mixes the published camera, a second camera (cameraId) and a video file as laid out; update moves and drops sources; view previews the mix in a playing <video> (moved by update, in each element of a list, removed on stop); a source rotated 90° lands turned clockwise; a second screen source is captured by the mixer; all sources failing rejects with data.failedDetails', async () => {
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
    await publisher.evaluate(() => {
      for (const id of ['mix-view', 'mix-view-2']) {
        const div = document.createElement('div');
        div.id = id;
        div.style.cssText = 'width:320px;height:180px';
        document.body.appendChild(div);
      }
    });

    const started = await publisher.evaluate(async (clipSrc) => {
      const client = (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<{ track: unknown; systemAudioTrackList: object; result: { successOptions: { video?: unknown[]; camera?: unknown[] }; failedDetails: { id: string; error: Error }[] } }> } } }).e2e.client;
      const cameras = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
      const result = await client.startPlugin('VideoMixer', {
        view: 'mix-view',
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

    // view: the element given at start holds one playing <video> of the mix (decoded frames at the canvas size).
    expect(await waitForPreview(publisher, 'mix-view')).toMatchObject({ videos: 1, width: 640, height: 360, paused: false });

    // rotation: a left-red / right-blue image turned 90° clockwise into the left half: red on top, blue below
    // (upright it would be red left / blue right; 270° would put blue on top). The update moves the view too.
    const image = await redBlueImage(publisher);
    const updated = await publisher.evaluate(async (src) => {
      const client = (window as unknown as { e2e: { client: { updatePlugin(n: string, o: unknown): Promise<{ result: { failedDetails: unknown[] } }> } } }).e2e.client;
      const result = await client.updatePlugin('VideoMixer', {
        view: document.getElementById('mix-view-2'),
        image: [{ id: 'img', url: src, layout: { x: 0, y: 0, width: 320, height: 360, zIndex: 3, fillMode: 'fill', rotation: 90 } }],
      });
      return result.result.failedDetails.length;
    }, image);
    expect(updated).toBe(0);
    await waitForFrames(receiver, 'm17-pub', [LEFT_UPPER, LEFT_LOWER], ([upper, lower]) => isRed(upper) && isBlue(lower));
    expect(await waitForPreview(publisher, 'mix-view-2')).toMatchObject({ videos: 1, width: 640, height: 360 });
    expect(await publisher.evaluate(() => document.querySelectorAll('#mix-view video').length)).toBe(0);
    // view as a list of elements: the mix plays in each.
    expect(await publisher.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { updatePlugin(n: string, o: unknown): Promise<unknown> } } }).e2e.client;
      await client.updatePlugin('VideoMixer', { view: [document.getElementById('mix-view'), document.getElementById('mix-view-2')] });
      return true;
    })).toBe(true);
    expect(await waitForPreview(publisher, 'mix-view')).toMatchObject({ videos: 1, width: 640 });
    expect(await waitForPreview(publisher, 'mix-view-2')).toMatchObject({ videos: 1, width: 640 });

    // screen[]: the first entry is the client's screen share (none here); a further one the mixer captures itself
    // (getDisplayMedia; Chromium's fake desktop), drawn over the clip; dropping the list releases that capture.
    const screens = await publisher.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { updatePlugin(n: string, o: unknown): Promise<{ result: { failedDetails: unknown[]; successOptions: { screen?: unknown[] } } }> } } }).e2e.client;
      const result = await client.updatePlugin('VideoMixer', {
        screen: [
          { id: 'share', layout: { x: 0, y: 0, width: 1, height: 1, zIndex: 0, hidden: true } },
          { id: 'desk', layout: { x: 320, y: 180, width: 320, height: 180, zIndex: 4, fillMode: 'fill' } },
        ],
      });
      return { failed: result.result.failedDetails.length, kept: result.result.successOptions.screen?.length };
    });
    expect(screens).toEqual({ failed: 0, kept: 2 });
    await waitForFrames(receiver, 'm17-pub', [BOTTOM_RIGHT], ([b]) => !isMagenta(b) && !isOrange(b) && b.luma > 5);
    expect(await call(publisher, 'updatePlugin', 'VideoMixer', { screen: [] })).toMatchObject({ ok: true });
    await waitForFrames(receiver, 'm17-pub', [BOTTOM_RIGHT], ([b]) => isMagenta(b));

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
    // Stopping removes the preview.
    expect(await publisher.evaluate(() => document.querySelectorAll('#mix-view video, #mix-view-2 video').length)).toBe(0);
    await publisher.close();
    await receiver.close();
  }, 120_000);
});
