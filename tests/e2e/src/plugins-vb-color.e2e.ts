import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { fakeCamera, usePlugin, y4m } from './video-effects-helpers.js';

// The green-screen camera: green 0x00b140 with a skin-toned figure at x 37.5–62.5 %, y 25–100 %.
const FIGURE = { x0: 0.375, x1: 0.625, y0: 0.25 };

/** Share of sample points of the formerly-green area (outside the figure, with a margin) within 45 of `rgb` per channel. */
function shareOf(page: Page, userId: string, rgb: [number, number, number]): Promise<number> {
  return page.evaluate(({ id, figure, expected }) => {
    const video = document.querySelector<HTMLVideoElement>(`#remote-${id}-main video`);
    if (!video || video.videoWidth === 0) return 0;
    const w = video.videoWidth;
    const h = video.videoHeight;
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0);
    const data = ctx.getImageData(0, 0, w, h).data;
    let total = 0;
    let matching = 0;
    for (let gy = 0.02; gy < 0.98; gy += 0.04) {
      for (let gx = 0.02; gx < 0.98; gx += 0.03) {
        if (gx > figure.x0 - 0.04 && gx < figure.x1 + 0.04 && gy > figure.y0 - 0.04) continue;
        const i = (Math.round(gy * h) * w + Math.round(gx * w)) * 4;
        total += 1;
        if (Math.abs(data[i] - expected[0]) < 45 && Math.abs(data[i + 1] - expected[1]) < 45 && Math.abs(data[i + 2] - expected[2]) < 45) matching += 1;
      }
    }
    return total ? matching / total : 0;
  }, { id: userId, figure: FIGURE, expected: rgb });
}

let fx: AppFixture | undefined;

beforeAll(async () => {
  fx = await startAppFixture({}, fakeCamera(y4m('greenScreen')));
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
});

describe("VirtualBackground 5.17 options: type 'color'", () => {
  it('replaces the background with the colour (CSS string, then [r, g, b] by update) in the received frames; stop restores the camera', async () => {
    const roomId = 25011;
    const publisher = await fx!.app.open(fx!.browser.context);
    const receiver = await fx!.app.open(fx!.browser.context);
    expect((await join(publisher, fx!.server, 'vbc-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx!.server, 'vbc-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx!.server.url, 'virtual-background', 'VirtualBackground');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): { data: { userId: string } }[] } }).e2e
      .eventsOf('remote-video-available').some((e) => e.data.userId === 'vbc-pub'), undefined, { timeout: 20_000 });
    await watch(receiver, 'vbc-pub');
    const GREEN: [number, number, number] = [0, 177, 64];
    await expect.poll(() => shareOf(receiver, 'vbc-pub', GREEN), { timeout: 20_000 }).toBeGreaterThanOrEqual(0.9);

    expect(await call(publisher, 'startPlugin', 'VirtualBackground', { sdkAppId: 1, userId: 'vbc-pub', userSig: 'x', type: 'color', color: '#ff00ff', enableFaceCentering: true, enableEffectOptimization: true })).toMatchObject({ ok: true });
    await expect.poll(() => shareOf(receiver, 'vbc-pub', [255, 0, 255]), { timeout: 45_000, interval: 500 }).toBeGreaterThanOrEqual(0.85);

    expect(await call(publisher, 'updatePlugin', 'VirtualBackground', { type: 'color', color: [0, 0, 255] })).toMatchObject({ ok: true });
    await expect.poll(() => shareOf(receiver, 'vbc-pub', [0, 0, 255]), { timeout: 20_000, interval: 500 }).toBeGreaterThanOrEqual(0.85);

    expect(await call(publisher, 'stopPlugin', 'VirtualBackground')).toMatchObject({ ok: true });
    await expect.poll(() => shareOf(receiver, 'vbc-pub', GREEN), { timeout: 20_000, interval: 500 }).toBeGreaterThanOrEqual(0.9);
    await publisher.close();
    await receiver.close();
  }, 150_000);
});
