/**
 * Issue 15, canvas player: startRemoteVideo({ option: { canvasRender: true } }) shows the remote video in a
 * <canvas> — the pixels of a known (solid red) fake camera — with first-video-frame and play-state events,
 * fill mode / mirror on the canvas, a snapshot, and the canvas removed on stop.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, call, eventsOf } from './harness/client-page.js';
import { join } from './harness/join.js';
import { fakeMediaArgs, makeFakeMedia } from './harness/media-probe.js';
import { startTestServer, type TestServer } from './harness/server.js';

/** What the page's canvas player shows: its kind, size, style and the colour at its centre. */
const canvasState = (page: Page) => page.evaluate(() => {
  const canvas = document.querySelector<HTMLCanvasElement>('#remote-alice canvas');
  if (!canvas || canvas.width === 0) return undefined;
  // Read the canvas through a 2d copy: it works for either context kind (the WebGL one keeps its buffer).
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d')!;
  ctx.drawImage(canvas, 0, 0);
  const [r, g, b] = ctx.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
  const video = document.querySelector<HTMLVideoElement>('#remote-alice video');
  return {
    renderer: canvas.dataset.renderer, width: canvas.width, height: canvas.height, rgb: [r, g, b], objectFit: canvas.style.objectFit, transform: canvas.style.transform,
    videoShown: video ? video.getBoundingClientRect().width > 1 : false,
  };
});

describe('canvas player (canvasRender)', () => {
  let server: TestServer;
  let app: AppHost;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    const red = await makeFakeMedia('canvas-red', 'red', 440);
    server = await startTestServer();
    app = await AppHost.start(server.url);
    browser = await launchBrowser(fakeMediaArgs(red));
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  it('canvasRender shows the remote video in a canvas (the fake camera\'s red pixels), with first-video-frame and play-state events, fill mode, mirror, snapshot and stop', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 1501 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 1501 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await bob.evaluate(() => {
      const view = document.createElement('div');
      view.id = 'remote-alice';
      view.style.cssText = 'width:320px;height:240px;position:relative';
      document.body.appendChild(view);
    });
    expect(await call(bob, 'startRemoteVideo', { userId: 'alice', streamType: 'main', view: 'remote-alice', option: { canvasRender: true, fillMode: 'contain', mirror: true } })).toMatchObject({ ok: true });

    await expect.poll(async () => {
      const [r, g, b] = (await canvasState(bob))?.rgb ?? [0, 0, 0];
      return r > 180 && g < 80 && b < 80;
    }, { timeout: 15_000, interval: 250 }).toBe(true);
    // The canvas takes the decoded frame's size (the encoder may start below 640×480; the shape is the camera's).
    const shown = (await canvasState(bob))!;
    expect(shown).toMatchObject({ objectFit: 'contain', transform: 'scaleX(-1)', videoShown: false });
    expect(shown.width * 3).toBe(shown.height * 4);
    // WebGL2 on a hardware GPU; headless Chromium here has only SwiftShader, so 2d.
    expect(['webgl2', '2d']).toContain(shown.renderer);
    const first = await eventsOf(bob, 'first-video-frame');
    expect(first.map((e) => e.data)).toContainEqual(expect.objectContaining({ userId: 'alice', streamType: 'main', width: expect.any(Number) as number }));
    const states = (await eventsOf(bob, 'video-play-state-changed')).map((e) => e.data);
    expect(states).toContainEqual(expect.objectContaining({ userId: 'alice', streamType: 'main', state: 'PLAYING' }));

    // A live fill-mode change applies to the canvas; the snapshot is the current red frame.
    expect(await call(bob, 'updateRemoteVideo', { userId: 'alice', streamType: 'main', option: { fillMode: 'cover', mirror: false } })).toMatchObject({ ok: true });
    expect(await canvasState(bob)).toMatchObject({ objectFit: 'cover', transform: '' });
    const snapshot = await call(bob, 'getVideoSnapshot', { userId: 'alice', streamType: 'main' });
    expect(String(snapshot.value)).toMatch(/^data:image\/png;base64,/);

    expect(await call(bob, 'stopRemoteVideo', { userId: 'alice', streamType: 'main' })).toMatchObject({ ok: true });
    expect(await bob.evaluate(() => document.querySelectorAll('#remote-alice canvas, #remote-alice video').length)).toBe(0);
    await alice.close();
    await bob.close();
  });
});
