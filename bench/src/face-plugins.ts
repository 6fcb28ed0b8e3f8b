/**
 * FaceDetection and Beauty CPU: the publishing page's renderer and GPU processes (all threads, from /proc), ms of CPU
 * per second of video, on the face camera of the e2e tests (640×480, 15 fps): plain camera, with
 * FaceDetection (default 300 ms interval), with Beauty (all six levels 0.5: face mesh + warps + retouch).
 */
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join } from '../../tests/e2e/src/harness/join.js';
import { faceY4m } from '../../tests/e2e/src/face-picture.js';
import { fakeCamera, usePlugin } from '../../tests/e2e/src/video-effects-helpers.js';
import { measure, renderersOf, type ThreadCpu } from './plugins.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const start = (page: Page, name: string, options: Record<string, unknown>) => page.evaluate(async ([n, o]) => {
  const w = window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<unknown> } } };
  await w.e2e.client.startPlugin(n as string, { ...(o as object), onFaceDetectionStateChanged: () => undefined });
}, [name, options] as const);
const stop = (page: Page, name: string) => page.evaluate(async (n) => {
  await (window as unknown as { e2e: { client: { stopPlugin(n: string): Promise<unknown> } } }).e2e.client.stopPlugin(n);
}, name);

/** Rows: renderer CPU ms/s of each plugin above the plain camera's (BENCH_FACE_SECONDS per window, default 10). */
export async function faceCpuRows(server: { url: string; sig(userId: string): Promise<string> }, seconds = Number(process.env.BENCH_FACE_SECONDS ?? 10)): Promise<Row[]> {
  const marker = `--conclave-bench-face=${process.pid}`;
  let browser: LaunchedBrowser | undefined;
  const app = await AppHost.start(server.url);
  try {
    browser = await launchBrowser([...fakeCamera(faceY4m()), marker]);
    const page = await app.open(browser.context);
    // the name helper tsx's transform adds to functions sent to the page
    await page.evaluate('globalThis.__name = (f) => f');
    const joined = await join(page, server, 'bench-face', { roomId: 42_025 });
    if (!joined.ok) throw new Error(`publisher could not join: ${joined.message}`);
    await usePlugin(page, server.url, 'face-detection', 'FaceDetection');
    await usePlugin(page, server.url, 'beauty', 'Beauty');
    // The GPU process too: WebGL (SwiftShader on servers and CI) runs Beauty's pass there.
    const pids = [...renderersOf(marker), ...renderersOf(marker, 'gpu-process')];
    progress(`face plugins CPU: publisher renderer + GPU process pids ${pids.join(', ')}, ${seconds} s per window`);
    const plain = await measure(pids, seconds);
    await start(page, 'FaceDetection', {});
    await page.waitForTimeout(2000);
    const detection = await measure(pids, seconds);
    await stop(page, 'FaceDetection');
    await start(page, 'Beauty', { sdkAppId: 1, userId: 'bench-face', userSig: 'x', whiten: 0.5, dermabrasion: 0.5, lift: 0.5, shave: 0.5, eye: 0.5, chin: 0.5 });
    await page.waitForTimeout(2000);
    const beauty = await measure(pids, seconds);
    const f1 = (v: number) => v.toFixed(1);
    const row = (benchmark: string, what: string, on: ThreadCpu): Row => ({
      benchmark, figure: f1(on.total - plain.total), unit: 'CPU ms per s of video',
      notes: `${what}: ${f1(on.total)} vs ${f1(plain.total)} ms/s publishing the plain camera (renderer + GPU process, main threads ${f1(on.main)} vs ${f1(plain.main)}); 640×480 face camera, 15 fps`,
    });
    return [
      row('plugin CPU: FaceDetection', 'MediaPipe face detector every 300 ms on the captured camera', detection),
      row('plugin CPU: Beauty', 'face mesh ≤ 10/s + warps and retouch in the fused WebGL pass, all levels 0.5', beauty),
    ];
  } finally {
    await browser?.close();
    await app.close();
  }
}
