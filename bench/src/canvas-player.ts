/**
 * Canvas player benchmark: the CPU one remote 640×480 stream costs the viewing browser when it
 * renders in the <video> player and when it renders with canvasRender (renderer and GPU processes, ms of
 * CPU per second, from /proc), over the same window length, the publisher in another browser.
 */
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost, call, eventsOf } from '../../tests/e2e/src/harness/client-page.js';
import { join, type SigSource } from '../../tests/e2e/src/harness/join.js';
import { measure, renderersOf, type ThreadCpu } from './plugins.js';
import { progress, waitFor } from './stats.js';
import type { Row } from './table.js';

/** Watches alice in a fresh view, with or without canvasRender, and waits for frames on screen. */
async function watchAlice(page: Page, canvasRender: boolean): Promise<void> {
  await page.evaluate(() => {
    document.getElementById('bench-view')?.remove();
    const view = document.createElement('div');
    view.id = 'bench-view';
    view.style.cssText = 'width:640px;height:480px;position:relative';
    document.body.appendChild(view);
  });
  const started = await call(page, 'startRemoteVideo', { userId: 'alice', streamType: 'main', view: 'bench-view', option: { canvasRender } });
  if (!started.ok) throw new Error(`startRemoteVideo failed: ${JSON.stringify(started)}`);
  await waitFor('the first frame', async () => (await eventsOf(page, 'first-video-frame')).length, (n) => n >= (canvasRender ? 2 : 1), { timeoutMs: 15_000, intervalMs: 200 });
}

export async function runCanvasPlayer(server: SigSource & { url: string }, seconds = Number(process.env.BENCH_CANVAS_SECONDS ?? 10)): Promise<{ video: ThreadCpu; canvas: ThreadCpu; gpuVideo: number; gpuCanvas: number; renderer: string }> {
  const marker = `--conclave-bench-canvas=${process.pid}`;
  const app = await AppHost.start(server.url);
  let publisher: LaunchedBrowser | undefined;
  let viewer: LaunchedBrowser | undefined;
  try {
    publisher = await launchBrowser();
    viewer = await launchBrowser([marker]);
    const alice = await app.open(publisher.context);
    const bob = await app.open(viewer.context);
    for (const [page, id, publish] of [[alice, 'alice', true], [bob, 'bob', false]] as const) {
      const joined = await join(page, server, id, { roomId: 1502 }, { publish, profile: '480p' });
      if (!joined.ok) throw new Error(`${id} could not join: ${joined.message}`);
    }
    const renderers = renderersOf(marker);
    const gpu = renderersOf(marker, 'gpu-process');
    await watchAlice(bob, false);
    await new Promise((r) => setTimeout(r, 2000));
    const [video, gpuVideo] = await Promise.all([measure(renderers, seconds), measure(gpu, seconds)]);
    await call(bob, 'stopRemoteVideo', { userId: 'alice', streamType: 'main' });
    await watchAlice(bob, true);
    await new Promise((r) => setTimeout(r, 2000));
    const [canvas, gpuCanvas] = await Promise.all([measure(renderers, seconds), measure(gpu, seconds)]);
    const renderer = await bob.evaluate(() => document.querySelector<HTMLCanvasElement>('#bench-view canvas')?.dataset.renderer ?? '?');
    progress(`canvas player: renderer ${video.total.toFixed(0)} → ${canvas.total.toFixed(0)} ms/s, GPU process ${gpuVideo.total.toFixed(0)} → ${gpuCanvas.total.toFixed(0)} ms/s`);
    return { video, canvas, gpuVideo: gpuVideo.total, gpuCanvas: gpuCanvas.total, renderer };
  } finally {
    await publisher?.close();
    await viewer?.close();
    await app.close();
  }
}

export function canvasPlayerRows(r: Awaited<ReturnType<typeof runCanvasPlayer>>): Row[] {
  const b = 'canvas player (canvasRender)';
  const f0 = (v: number) => v.toFixed(0);
  return [
    { benchmark: b, figure: f0(r.canvas.total + r.gpuCanvas), unit: 'CPU ms/s', notes: `one remote 640×480 stream, viewer renderer + GPU process: canvas (${r.renderer}; 2d where WebGL is software) ${f0(r.canvas.total)} + ${f0(r.gpuCanvas)} vs <video> ${f0(r.video.total)} + ${f0(r.gpuVideo)} ms/s` },
    { benchmark: b, figure: ((r.canvas.total + r.gpuCanvas) / Math.max(r.video.total + r.gpuVideo, 1e-6)).toFixed(2), unit: '× canvas / <video> CPU', notes: `renderer main thread: canvas ${f0(r.canvas.main)} vs <video> ${f0(r.video.main)} ms/s` },
  ];
}
