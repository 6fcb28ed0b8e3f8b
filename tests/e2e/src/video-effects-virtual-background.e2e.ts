import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { fakeCamera, measure, senderVideoState, usePlugin, waitForFrames, y4m, type Region, type RegionFigures } from './video-effects-helpers.js';

// The green-screen camera: green 0x00b140 with a skin-toned figure at x 37.5–62.5 %, y 25–100 %.
const FIGURE = { x0: 0.375, x1: 0.625, y0: 0.25 };
const FIGURE_CENTRE: Region = { x: 0.45, y: 0.5, w: 0.1, h: 0.2 };
const TEXTURE: Region = { x: 0.1, y: 0.1, w: 0.8, h: 0.8 };

/** Background image: left half orange, right half purple (640×480, so cover-fit maps it 1:1). */
function backgroundPng(page: Page): Promise<string> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#ff8000';
    ctx.fillRect(0, 0, 320, 480);
    ctx.fillStyle = '#8000ff';
    ctx.fillRect(320, 0, 320, 480);
    return canvas.toDataURL('image/png');
  });
}

interface GreenAreaFigures {
  /** Share of the formerly-green sample points that now show the background image's colour there. */
  matchingImage: number;
  /** Share that still look green. */
  green: number;
}

/** Classifies a grid of points of the formerly-green area (outside the figure, 2 % margin) in the received frame. */
function greenArea(page: Page, userId: string): Promise<GreenAreaFigures> {
  return page.evaluate(({ id, figure }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`);
    if (!video || video.videoWidth === 0) return { matchingImage: 0, green: 1 };
    const w = video.videoWidth;
    const h = video.videoHeight;
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0);
    const data = ctx.getImageData(0, 0, w, h).data;
    let total = 0, matching = 0, green = 0;
    for (let gy = 0.02; gy < 0.98; gy += 0.03) {
      for (let gx = 0.02; gx < 0.98; gx += 0.02) {
        if (gx > figure.x0 - 0.02 && gx < figure.x1 + 0.02 && gy > figure.y0 - 0.02) continue;
        if (Math.abs(gx - 0.5) < 0.02) continue; // the image's own orange/purple edge
        const i = (Math.round(gy * h) * w + Math.round(gx * w)) * 4;
        const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
        const [er, eg, eb] = gx < 0.5 ? [255, 128, 0] : [128, 0, 255];
        total += 1;
        if (Math.abs(r - er) < 45 && Math.abs(g - eg) < 45 && Math.abs(b - eb) < 45) matching += 1;
        if (g > r + 60 && g > b + 40) green += 1;
      }
    }
    return { matchingImage: matching / total, green: green / total };
  }, { id: userId, figure: FIGURE });
}

async function waitGreenArea(page: Page, userId: string, check: (f: GreenAreaFigures) => boolean, timeoutMs = 20_000): Promise<GreenAreaFigures> {
  const deadline = Date.now() + timeoutMs;
  let last: GreenAreaFigures = { matchingImage: 0, green: 0 };
  while (Date.now() < deadline) {
    last = await greenArea(page, userId);
    if (check(last)) return last;
    await page.waitForTimeout(200);
  }
  throw new Error(`green area never matched: ${JSON.stringify(last)}`);
}

const isSkin = (f: RegionFigures) => f.r > 150 && f.g > 95 && f.g < 160 && f.b > 60 && f.b < 130;

describe('video effects: VirtualBackground', () => {
  let fx: AppFixture;
  let textured: LaunchedBrowser | undefined;

  beforeAll(async () => {
    fx = await startAppFixture({}, fakeCamera(y4m('greenScreen')));
  });
  afterAll(async () => {
    await textured?.close();
    await stopAppFixture(fx ?? {});
  });

  it('VirtualBackground: with a green-screen source, green/image mode replaces the green with the background image in the received frames (≥ 90% of formerly-green pixels match the image); blur lowers the background\'s sharpness by ≥ 70%; stopping restores the original frames', async () => {
    const roomId = 13004;
    const publisher = await fx.app.open(fx.browser.context);
    const receiver = await fx.app.open(fx.browser.context);
    expect((await join(publisher, fx.server, 'vb-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx.server, 'vb-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx.server.url, 'virtual-background', 'VirtualBackground');
    expect(await publisher.evaluate(() => (window as unknown as { VirtualBackground: { isSupported(): boolean } }).VirtualBackground.isSupported())).toBe(true);
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): unknown[] } }).e2e.eventsOf('remote-video-available').length > 0, undefined, { timeout: 20_000 });
    await watch(receiver, 'vb-pub');
    const before = await waitGreenArea(receiver, 'vb-pub', (f) => f.green > 0.95);
    expect(before.matchingImage).toBeLessThan(0.05);

    // Bad input: image type without src; an image that does not load.
    expect(await call(publisher, 'startPlugin', 'VirtualBackground', { type: 'image' })).toMatchObject({ ok: false, code: 5000, extraCode: 5001 });
    const badImage = await call(publisher, 'startPlugin', 'VirtualBackground', { type: 'green', src: `${fx.server.url}/missing.png` });
    expect(badImage).toMatchObject({ ok: false, code: 5000 });
    expect(badImage.message).toContain('load image failed');

    const src = await backgroundPng(publisher);
    expect(await call(publisher, 'startPlugin', 'VirtualBackground', { sdkAppId: 1, userId: 'vb-pub', userSig: 'x', type: 'green', src })).toMatchObject({ ok: true });
    const keyed = await waitGreenArea(receiver, 'vb-pub', (f) => f.matchingImage >= 0.9);
    expect(keyed.matchingImage).toBeGreaterThanOrEqual(0.9);
    // The figure stays.
    const [figure] = await measure(receiver, 'vb-pub', [FIGURE_CENTRE]);
    expect(isSkin(figure)).toBe(true);

    // Image mode (person segmentation): the green background is replaced too.
    expect(await call(publisher, 'updatePlugin', 'VirtualBackground', { type: 'image', src })).toMatchObject({ ok: true });
    const segmented = await waitGreenArea(receiver, 'vb-pub', (f) => f.matchingImage >= 0.9);
    expect(segmented.matchingImage).toBeGreaterThanOrEqual(0.9);

    // Stopping restores the original frames.
    expect(await call(publisher, 'stopPlugin', 'VirtualBackground')).toMatchObject({ ok: true });
    const restored = await waitGreenArea(receiver, 'vb-pub', (f) => f.green > 0.95);
    expect(restored.matchingImage).toBeLessThan(0.05);
    await waitForFrames(receiver, 'vb-pub', [FIGURE_CENTRE], ([f]) => isSkin(f));
    await publisher.close();

    // Blur, on a textured camera (no person in it: all of it is background).
    textured = await launchBrowser(fakeCamera(y4m('textured')));
    const blurPublisher = await fx.app.open(textured.context);
    expect((await join(blurPublisher, fx.server, 'vb-blur', { roomId })).ok).toBe(true);
    await usePlugin(blurPublisher, fx.server.url, 'virtual-background', 'VirtualBackground');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): Array<{ data: { userId: string } }> } }).e2e
      .eventsOf('remote-video-available').some((e) => e.data.userId === 'vb-blur'), undefined, { timeout: 20_000 });
    await watch(receiver, 'vb-blur');
    let previous: RegionFigures | undefined;
    await waitForFrames(receiver, 'vb-blur', [TEXTURE], ([f]) => {
      const settled = previous !== undefined && f.laplacianVariance > 20 && Math.abs(f.laplacianVariance - previous.laplacianVariance) < 0.1 * previous.laplacianVariance;
      previous = f;
      return settled;
    }, 30_000);
    const [sharp] = await measure(receiver, 'vb-blur', [TEXTURE]);
    expect(await call(blurPublisher, 'startPlugin', 'VirtualBackground', { type: 'blur' })).toMatchObject({ ok: true });
    const [blurred] = await waitForFrames(receiver, 'vb-blur', [TEXTURE], ([f]) => f.laplacianVariance <= sharp.laplacianVariance * 0.3);
    expect(blurred.laplacianVariance).toBeLessThanOrEqual(sharp.laplacianVariance * 0.3);
    expect(await call(blurPublisher, 'stopPlugin', 'VirtualBackground')).toMatchObject({ ok: true });
    // Restored means the blur is gone: ten times the blurred figure (~1–2: a flat picture) and at least a fifth
    // of the first sharpness. Not the first sharpness itself: the publisher starts at its profile's full quality, and the
    // segmentation's CPU load makes Chrome's encoder step its resolution down (320×240 while blurred); it climbs
    // back by its own adaptation steps, which on a loaded host takes longer than the bound (seen: 480×360 at 0.24×
    // the first sharpness 30 s after stopPlugin, beside two helpers' builds) and is not the plugin's doing.
    const restoredEnough = (f: { laplacianVariance: number }) => f.laplacianVariance > Math.max(sharp.laplacianVariance * 0.2, blurred.laplacianVariance * 10);
    const [unblurred] = await waitForFrames(receiver, 'vb-blur', [TEXTURE], ([f]) => restoredEnough(f), 30_000).catch(async (error: Error) => {
      throw new Error(`${error.message}; sharp ${JSON.stringify(sharp)}, blurred ${JSON.stringify(blurred)}; publisher ${await senderVideoState(blurPublisher)}`);
    });
    const sharpness = (f: RegionFigures) => `${Math.round(f.laplacianVariance)} at ${f.width}×${f.height}`;
    console.info(`VirtualBackground blur: sharp ${sharpness(sharp)}, blurred ${sharpness(blurred)}, restored ${sharpness(unblurred)}`);
    expect(restoredEnough(unblurred)).toBe(true);
    await blurPublisher.close();
    await receiver.close();
  });
});
