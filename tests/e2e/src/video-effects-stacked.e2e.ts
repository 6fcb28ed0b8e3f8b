import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { fakeCamera, receivedFps, squarePng, usePlugin, waitForFrames, y4m, type Region } from './video-effects-helpers.js';

const MARK: Region = { x: 20 / 640, y: 20 / 480, w: 20 / 640, h: 20 / 480 };

describe('video effects: stacked', () => {
  let fx: AppFixture;

  beforeAll(async () => {
    fx = await startAppFixture({}, fakeCamera(y4m('textured')));
  });
  afterAll(async () => {
    await stopAppFixture(fx ?? {});
  });

  // Issue 13 item 5: the three effects stacked in one pipeline keep the received frame rate ≥ 12 fps at
  // 640×480 (the fake camera sends 15). The rate is the median of three 5 s windows, so one window hit by
  // another process on the shared cores does not decide it; `npm run bench` has the per-frame times.
  it('Effects stacked (beauty + watermark + virtual background) keep the published frame rate ≥ 12 fps at 640×480 on this 2-core machine, measured on the receiving side', async () => {
    const roomId = 13006;
    const publisher = await fx.app.open(fx.browser.context);
    const receiver = await fx.app.open(fx.browser.context);
    expect((await join(publisher, fx.server, 'stack-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx.server, 'stack-sub', { roomId }, { publish: false })).ok).toBe(true);
    for (const [path, global] of [['basic-beauty', 'BasicBeauty'], ['watermark', 'Watermark'], ['virtual-background', 'VirtualBackground']]) {
      await usePlugin(publisher, fx.server.url, path, global);
    }
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): unknown[] } }).e2e.eventsOf('remote-video-available').length > 0, undefined, { timeout: 20_000 });
    await watch(receiver, 'stack-pub');
    const aborted = await publisher.evaluate(() => {
      (window as unknown as { vbAborted: unknown[] }).vbAborted = [];
      return 0;
    });
    expect(aborted).toBe(0);
    expect(await call(publisher, 'startPlugin', 'BasicBeauty', { beauty: 0.6, brightness: 0.3, ruddy: 0.3 })).toMatchObject({ ok: true });
    expect(await call(publisher, 'startPlugin', 'Watermark', { imageUrl: await squarePng(publisher, '#ff00ff', 40), x: 10, y: 10, size: { width: 40, height: 40 } })).toMatchObject({ ok: true });
    const vb = await publisher.evaluate(async () => {
      const w = window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<void> } }; vbAborted: unknown[] };
      try {
        await w.e2e.client.startPlugin('VirtualBackground', { type: 'blur', blurLevel: 3, onAbort: (error: unknown) => w.vbAborted.push(String(error)) });
        return 'ok';
      } catch (error) {
        return String(error);
      }
    });
    expect(vb).toBe('ok');
    // All three are on: the watermark shows in the received frames.
    await waitForFrames(receiver, 'stack-pub', [MARK], ([m]) => m.r > 170 && m.b > 170 && m.g < 110);
    // Let the encoder and the bandwidth estimate settle, then count presented frames over 6 s.
    await receiver.waitForFunction(() => {
      const video = document.querySelector<HTMLVideoElement>('[id^="remote-stack-pub"] video');
      return !!video && video.videoWidth === 640 && video.videoHeight === 480;
    }, undefined, { timeout: 20_000 });
    const windows: number[] = [];
    for (let i = 0; i < 3; i++) windows.push(await receivedFps(receiver, 'stack-pub', 5));
    const fps = [...windows].sort((a, b) => a - b)[1];
    const stats = await publisher.evaluate(() => {
      const times = performance.getEntriesByName('conclave-video-effect-frame').map((e) => e.duration).sort((a, b) => a - b);
      return { frames: times.length, median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
    });
    console.log(`stacked effects at 640×480: received ${fps.toFixed(1)} fps (median of ${windows.map((w) => w.toFixed(1)).join(', ')}); pipeline ${stats.median?.toFixed(1)} ms median, ${stats.p95?.toFixed(1)} ms p95 per frame (${stats.frames} frames)`);
    expect(await publisher.evaluate(() => (window as unknown as { vbAborted: unknown[] }).vbAborted)).toEqual([]);
    expect(fps).toBeGreaterThanOrEqual(12);
    await publisher.close();
    await receiver.close();
  }, 180_000);
});
