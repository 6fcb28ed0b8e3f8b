import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallResult } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { TEST_APP } from './harness/server.js';
import { fakeCamera, squarePng, usePlugin, waitForFrames, y4m, type Region, type RegionFigures } from './video-effects-helpers.js';

// The fake camera is solid blue-grey (0x3060a0); the watermark is an 80×80 magenta square at (100, 60) of 640×480.
const MARK: Region = { x: 120 / 640, y: 80 / 480, w: 40 / 640, h: 40 / 480 };
const OUTSIDE: Region = { x: 400 / 640, y: 300 / 480, w: 40 / 640, h: 40 / 480 };
const isMagenta = (f: RegionFigures) => f.r > 180 && f.b > 180 && f.g < 90;
const isCamera = (f: RegionFigures) => f.b > f.r + 60 && f.g < 140 && f.r < 90;

describe('video effects: Watermark', () => {
  let fx: AppFixture;
  let plain: Server | undefined;

  beforeAll(async () => {
    fx = await startAppFixture({}, fakeCamera(y4m('solid')));
  });
  afterAll(async () => {
    plain?.closeAllConnections();
    plain?.close();
    await stopAppFixture(fx ?? {});
  });

  it('Watermark: a magenta-square image at (x, y) appears in the received frames at that place, disappears after stop; a bad image URL gives SPEC\'s error; getVideoTrack({ processed: true }) carries it, getVideoTrack() does not', async () => {
    const roomId = 13001;
    const publisher = await fx.app.open(fx.browser.context);
    const receiver = await fx.app.open(fx.browser.context);
    expect((await join(publisher, fx.server, 'wm-pub', { roomId })).ok).toBe(true);
    expect((await join(receiver, fx.server, 'wm-sub', { roomId }, { publish: false })).ok).toBe(true);
    await usePlugin(publisher, fx.server.url, 'watermark', 'Watermark');
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): unknown[] } }).e2e.eventsOf('remote-video-available').length > 0, undefined, { timeout: 20_000 });
    await watch(receiver, 'wm-pub');
    // Before: the camera colour everywhere.
    await waitForFrames(receiver, 'wm-pub', [MARK, OUTSIDE], ([mark, outside]) => isCamera(mark) && isCamera(outside));

    const imageUrl = await squarePng(publisher, '#ff00ff', 80);
    const started = await call(publisher, 'startPlugin', 'Watermark', { imageUrl, x: 100, y: 60, size: { width: 80, height: 80 } });
    expect(started).toMatchObject({ ok: true });
    const [mark, outside] = await waitForFrames(receiver, 'wm-pub', [MARK, OUTSIDE], ([m, o]) => isMagenta(m) && isCamera(o));
    expect(isMagenta(mark)).toBe(true);
    expect(isCamera(outside)).toBe(true);

    // The local preview shows what others receive: the preview element plays the processed track.
    // getVideoTrack({ processed: true }) is (a clone of) the track others receive, with the watermark;
    // getVideoTrack() the captured camera, without it. Each is played in its own <video> and sampled.
    const sampled = await publisher.evaluate(async () => {
      const client = (window as unknown as { e2e: { client: { getVideoTrack(q?: unknown): MediaStreamTrack | null } } }).e2e.client;
      /** The colour of a playing <video> where the mark's centre is (140, 100 of 640×480). */
      const markAt = (video: HTMLVideoElement) => {
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const ctx = canvas.getContext('2d')!;
        ctx.drawImage(video, 0, 0);
        const [r, g, b] = ctx.getImageData(Math.round(140 / 640 * canvas.width), Math.round(100 / 480 * canvas.height), 1, 1).data;
        return r > 180 && b > 180 && g < 90 ? 'mark' : `camera ${r},${g},${b}`;
      };
      const sample = async (track: MediaStreamTrack | null) => {
        if (!track) return 'no track';
        const video = document.createElement('video');
        video.muted = true;
        video.srcObject = new MediaStream([track]);
        await video.play();
        const deadline = performance.now() + 10_000;
        while (video.videoWidth === 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        // two presented frames, so the one sampled is a current one
        for (let i = 0; i < 2; i++) await new Promise((r) => (video as HTMLVideoElement & { requestVideoFrameCallback(cb: () => void): number }).requestVideoFrameCallback(() => r(undefined)));
        const seen = markAt(video);
        video.srcObject = null;
        return seen;
      };
      const preview = markAt(document.querySelector<HTMLVideoElement>('#local video')!);
      const captured = client.getVideoTrack();
      const processed = client.getVideoTrack({ processed: true });
      const result = { preview, differ: !!processed && processed !== captured, processed: await sample(processed), captured: await sample(captured) };
      processed?.stop(); // the clone is the app's to stop, as with the original
      return result;
    });
    expect(sampled.preview).toBe('mark');
    expect(sampled.differ).toBe(true);
    expect(sampled.processed).toBe('mark');
    expect(sampled.captured).toMatch(/^camera/);

    expect(await call(publisher, 'stopPlugin', 'Watermark')).toMatchObject({ ok: true });
    await waitForFrames(receiver, 'wm-pub', [MARK], ([m]) => isCamera(m));

    const bad = await call(publisher, 'startPlugin', 'Watermark', { imageUrl: `${fx.server.url}/no-such-image.png`, x: 0, y: 0 });
    expect(bad).toMatchObject({ ok: false, name: 'RtcError', code: 5000 });
    expect(bad.message).toContain('load image failed');
    expect(bad.message).toContain('/no-such-image.png');
    // Still the plain camera after the failed start.
    await waitForFrames(receiver, 'wm-pub', [MARK], ([m]) => isCamera(m));
    await publisher.close();
    await receiver.close();
  });

  it('A plain script-tag page loading /sdk/trtc.js and /sdk/plugins/video-effect/watermark/watermark.iife.js runs TRTC.create({ plugins: [Watermark] }) and startPlugin(\'Watermark\', …) unchanged from an app written for the original', async () => {
    const roomId = 13002;
    const sig = await fx.server.sig('plain-pub');
    // An app page as written for the original SDK: two script tags, globals TRTC and Watermark.
    const html = `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="local" style="width:320px;height:240px"></div>
<script src="${fx.server.url}/sdk/trtc.js"></script>
<script src="${fx.server.url}/sdk/plugins/video-effect/watermark/watermark.iife.js"></script>
<script>
  const canvas = document.createElement('canvas'); canvas.width = 80; canvas.height = 80;
  const g = canvas.getContext('2d'); g.fillStyle = '#ff00ff'; g.fillRect(0, 0, 80, 80);
  const trtc = TRTC.create({ plugins: [Watermark] });
  (async () => {
    await trtc.startLocalVideo({ view: 'local' });
    await trtc.enterRoom({ sdkAppId: ${TEST_APP.sdkAppId}, userId: 'plain-pub', userSig: '${sig}', roomId: ${roomId} });
    await trtc.startPlugin('Watermark', { imageUrl: canvas.toDataURL('image/png'), x: 100, y: 60, size: { width: 80, height: 80 } });
    window.started = 'ok';
  })().catch((error) => { window.started = String(error && error.message); });
</script></body></html>`;
    plain = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    });
    await new Promise<void>((resolve) => plain!.listen(0, '127.0.0.1', resolve));
    const page = await fx.browser.context.newPage();
    await page.goto(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => (window as unknown as { started?: string }).started !== undefined, undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { started?: string }).started)).toBe('ok');

    const receiver = await fx.app.open(fx.browser.context);
    expect((await join(receiver, fx.server, 'plain-sub', { roomId }, { publish: false })).ok).toBe(true);
    await receiver.waitForFunction(() => (window as unknown as { e2e: { eventsOf(t: string): unknown[] } }).e2e.eventsOf('remote-video-available').length > 0, undefined, { timeout: 20_000 });
    await watch(receiver, 'plain-pub');
    const [mark, outside] = await waitForFrames(receiver, 'plain-pub', [MARK, OUTSIDE], ([m, o]) => isMagenta(m) && isCamera(o));
    expect(isMagenta(mark) && isCamera(outside)).toBe(true);
    // `trtc` is the page script's own top-level const, as in the app.
    const stopped = await page.evaluate("trtc.stopPlugin('Watermark').then(() => ({ ok: true }), (e) => ({ ok: false, message: e.message }))") as CallResult;
    expect(stopped.ok).toBe(true);
    await page.close();
    await receiver.close();
  });
});
