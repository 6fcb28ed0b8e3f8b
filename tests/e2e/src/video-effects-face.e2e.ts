import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { FACE_REGION, faceY4m } from './face-picture.js';
import { fakeCamera, receivedFps, usePlugin } from './video-effects-helpers.js';

type Win = Window & { e2e: { client: Record<string, (...args: unknown[]) => Promise<unknown>> }; faceEvents: Array<{ hasFace: boolean; at: number }> };

/** The luma of a grid over the face region of the received frame (48×48 samples). */
function faceLuma(page: Page, userId: string): Promise<number[]> {
  return page.evaluate(({ id, r }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`);
    if (!video || video.videoWidth === 0) throw new Error('no decoded video yet');
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0);
    const x0 = Math.round(r.x * canvas.width);
    const y0 = Math.round(r.y * canvas.height);
    const w = Math.round(r.w * canvas.width);
    const h = Math.round(r.h * canvas.height);
    const data = ctx.getImageData(x0, y0, w, h).data;
    const out: number[] = [];
    for (let gy = 0; gy < 48; gy++) {
      for (let gx = 0; gx < 48; gx++) {
        const i = (Math.floor((gy + 0.5) * h / 48) * w + Math.floor((gx + 0.5) * w / 48)) * 4;
        out.push(0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2]);
      }
    }
    return out;
  }, { id: userId, r: FACE_REGION });
}

const meanAbsDiff = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length;

/**
 * Waits (bounded) until the receiver has presented `count` more frames of the user's video: after an effect change
 * resolves on the publisher, frames already on their way still show the previous picture.
 */
async function newFrames(page: Page, userId: string, count: number, timeoutMs = 20_000): Promise<void> {
  await page.evaluate(async ({ id, n, ms }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`) as HTMLVideoElement & {
      requestVideoFrameCallback(cb: (now: number, meta: { presentedFrames: number }) => void): number;
    };
    if (!video) throw new Error('no remote video');
    const presented = () => new Promise<number>((resolve) => video.requestVideoFrameCallback((_now, meta) => resolve(meta.presentedFrames)));
    const deadline = performance.now() + ms;
    const first = await presented();
    while ((await presented()) < first + n) if (performance.now() > deadline) throw new Error(`fewer than ${n} new frames in ${ms} ms`);
  }, { id: userId, n: count, ms: timeoutMs });
}

/** Waits (bounded) until two consecutive samples of the face region differ by less than `still` (a settled picture). */
async function settledFace(page: Page, userId: string, still = 1.5, timeoutMs = 20_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let previous: number[] | undefined;
  let lastDiff = Infinity;
  while (Date.now() < deadline) {
    try {
      const sample = await faceLuma(page, userId);
      if (previous) {
        lastDiff = meanAbsDiff(sample, previous);
        if (lastDiff < still) return sample;
      }
      previous = sample;
    } catch {
      previous = undefined;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the face region never settled (last change ${lastDiff.toFixed(2)})`);
}

/** Waits (bounded) until the face region differs from `from` by at least `min`; returns the difference. */
async function faceChange(page: Page, userId: string, from: number[], check: (diff: number) => boolean, timeoutMs = 20_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let diff = NaN;
  while (Date.now() < deadline) {
    diff = meanAbsDiff(await faceLuma(page, userId), from);
    if (check(diff)) return diff;
    await page.waitForTimeout(250);
  }
  throw new Error(`face region difference never matched (last ${diff.toFixed(2)})`);
}

const faceEvents = (page: Page) => page.evaluate(() => (window as unknown as Win).faceEvents);

describe('Must show 6: FaceDetection and Beauty on a fake camera showing a face', () => {
  let fx: AppFixture;
  let publisher: Page;
  let receiver: Page;

  beforeAll(async () => {
    fx = await startAppFixture({}, fakeCamera(faceY4m()));
    publisher = await fx.app.open(fx.browser.context);
    receiver = await fx.app.open(fx.browser.context);
    const roomId = 13025;
    expect((await join(publisher, fx.server, 'face-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx.server, 'face-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx.server.url, 'face-detection', 'FaceDetection');
    await usePlugin(publisher, fx.server.url, 'beauty', 'Beauty');
    await usePlugin(publisher, fx.server.url, 'basic-beauty', 'BasicBeauty');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): unknown[] } }).e2e.eventsOf('remote-video-available').length > 0, undefined, { timeout: 20_000 });
    await watch(receiver, 'face-pub');
  }, 60_000);
  afterAll(async () => {
    await stopAppFixture(fx ?? {});
  });

  it('Beauty: lift, shave, eye and chin change the face region of the received picture measurably; all-zero options leave it unchanged; the sticker catalogue is refused', async () => {
    // The reference: the camera through the effect pipeline, unchanged (BasicBeauty at 0: its shader is the
    // identity). The pipeline's own colour path (camera frame to canvas to encoder) shifts the picture a
    // little from the plain camera's, so "unchanged" is measured against the pipeline's picture.
    expect(await call(publisher, 'startPlugin', 'BasicBeauty', { beauty: 0, brightness: 0, ruddy: 0 })).toMatchObject({ ok: true });
    await newFrames(receiver, 'face-pub', 20);
    const plain = await settledFace(receiver, 'face-pub');
    // The vendor's sticker catalogue: refused with ENV_NOT_SUPPORTED / PLUGIN, saying why; bad levels: INVALID_PARAMETER.
    const sticker = await call(publisher, 'startPlugin', 'Beauty', { sdkAppId: 1, userId: 'face-pub', userSig: 'x', effect: [{ id: 'EDE5D18065451445' }] });
    expect(sticker).toMatchObject({ ok: false, code: 5200, extraCode: 5210 });
    expect(sticker.message).toMatch(/vendor's catalogue/);
    expect(await call(publisher, 'startPlugin', 'Beauty', { sdkAppId: 1, userId: 'face-pub', userSig: 'x', lift: 2 })).toMatchObject({ ok: false, code: 5000, extraCode: 5005 });

    // All zero: Beauty leaves the picture unchanged.
    expect(await call(publisher, 'startPlugin', 'Beauty', { sdkAppId: 1, userId: 'face-pub', userSig: 'x', whiten: 0, dermabrasion: 0, lift: 0, shave: 0, eye: 0, chin: 0 })).toMatchObject({ ok: true });
    expect(await call(publisher, 'stopPlugin', 'BasicBeauty')).toMatchObject({ ok: true });
    await newFrames(receiver, 'face-pub', 20);
    const zero = await settledFace(receiver, 'face-pub');
    const zeroDiff = meanAbsDiff(zero, plain);
    // …and it is a live picture, not a frozen one.
    expect(await receivedFps(receiver, 'face-pub', 1)).toBeGreaterThan(3);
    expect(zeroDiff).toBeLessThan(2.5);

    // The face-shape options warp the face: well beyond the encoder's own noise.
    expect(await call(publisher, 'updatePlugin', 'Beauty', { lift: 1, shave: 1, eye: 1, chin: 1 })).toMatchObject({ ok: true });
    const shapedDiff = await faceChange(receiver, 'face-pub', plain, (diff) => diff > Math.max(6, 3 * zeroDiff));
    expect(shapedDiff).toBeGreaterThan(Math.max(6, 3 * zeroDiff));

    // Back to zero, then stop: the picture returns.
    expect(await call(publisher, 'updatePlugin', 'Beauty', { lift: 0, shave: 0, eye: 0, chin: 0 })).toMatchObject({ ok: true });
    await faceChange(receiver, 'face-pub', plain, (diff) => diff < 2.5);
    expect(await call(publisher, 'stopPlugin', 'Beauty')).toMatchObject({ ok: true });
  });

  it('FaceDetection: reports a face on the face camera; after the camera switches to a source with no face, reports it missing once missingTimeout has passed', async () => {
    const missingTimeout = 1500;
    const started = await publisher.evaluate(async (timeout) => {
      const w = window as unknown as Win;
      w.faceEvents = [];
      try {
        await w.e2e.client.startPlugin('FaceDetection', {
          detectionInterval: 200, minConfidence: 0.6, missingTimeout: timeout,
          onFaceDetectionStateChanged: (hasFace: boolean) => w.faceEvents.push({ hasFace, at: performance.now() }),
        });
        return 'ok';
      } catch (error) {
        return String(error);
      }
    }, missingTimeout);
    expect(started).toBe('ok');
    await publisher.waitForFunction(() => (window as unknown as Win).faceEvents.length > 0, undefined, { timeout: 15_000 });
    expect((await faceEvents(publisher))[0].hasFace).toBe(true);

    // Switch the camera to a source without a face (a plain canvas).
    const switchedAt = await publisher.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 480;
      const ctx = canvas.getContext('2d')!;
      const paint = () => {
        ctx.fillStyle = '#506070';
        ctx.fillRect(0, 0, 640, 480);
      };
      paint();
      setInterval(paint, 100);
      const track = canvas.captureStream(15).getVideoTracks()[0];
      await (window as unknown as Win).e2e.client.updateLocalVideo({ option: { videoTrack: track } });
      return performance.now();
    });
    await publisher.waitForFunction(() => (window as unknown as Win).faceEvents.length > 1, undefined, { timeout: 15_000 });
    const events = await faceEvents(publisher);
    expect(events.map((e) => e.hasFace)).toEqual([true, false]);
    // Not before missingTimeout (its countdown starts with the first detection without a face, after the switch).
    expect(events[1].at - switchedAt).toBeGreaterThanOrEqual(missingTimeout);
    expect(events[1].at - switchedAt).toBeLessThan(missingTimeout + 5000);
    expect(await call(publisher, 'stopPlugin', 'FaceDetection')).toMatchObject({ ok: true });
  });
});
