/**
 * Plugin benchmarks: the CPU the AudioMixer and the AIDenoiser cost the publishing page (main thread and audio
 * threads of its renderer process, ms of CPU per second, from /proc), and each plugin's gzip size beside the
 * original's file.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import { enterWithAudio, generateMedia, RAW_MIC } from '../../tests/e2e/src/plugins-media.js';
import { PLUGIN_ENTRIES } from '../../packages/sdk/plugin-entries.mjs';
import { allPids, cmdline, parentPid, threadCpuMs } from './proc.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const SDK_DIST = fileURLToPath(new URL('../../packages/sdk/dist/', import.meta.url));
const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const kb = (n: number) => (n / 1024).toFixed(1);

/** The original's file for each of our plugins: the same path, or where the original keeps a built-in's code. */
const ORIGINAL_FILE: Record<string, string> = {
  'ai-denoiser': 'assets/denoiser-wasm.js',
  debug: 'assets/debug-dialog.js',
};

/** Paths that load and register but refuse to start here (SDK README): their size is not a working plugin's. */
const REFUSING = new Set(['chorus']);

/**
 * The lazily loaded assets a plugin fetches in Chromium (dist/assets/…): for the MediaPipe folders, every file
 * but the non-SIMD wasm variant (loaded only where wasm SIMD is missing).
 */
function assetFiles(name: string): string[] {
  const folder = ({ 'face-detection': 'face_detection', beauty: 'face_mesh' } as Record<string, string>)[name];
  if (name === 'ai-denoiser') return ['assets/denoiser-wasm.js'];
  if (!folder || !existsSync(`${SDK_DIST}assets/${folder}`)) return [];
  return readdirSync(`${SDK_DIST}assets/${folder}`).filter((file) => !file.includes('_solution_wasm_bin')).map((file) => `assets/${folder}/${file}`);
}

/** Each plugin file of the table (plus its assets), gzip, beside the original's (5.17.1's, npm alias trtc-sdk-v5-517). */
export function pluginSizeRows(): Row[] {
  const require = createRequire(import.meta.url);
  const original = require.resolve('trtc-sdk-v5-517/package.json', { paths: [fileURLToPath(new URL('../../packages/sdk/', import.meta.url))] }).replace(/package\.json$/, '');
  const rows: Row[] = [];
  for (const entry of PLUGIN_ENTRIES) {
    const file = `${SDK_DIST}plugins/${entry.path}/${entry.name}.esm.js`;
    if (!existsSync(file)) continue;
    const ours = gz(readFileSync(file));
    const assetList = assetFiles(entry.name);
    const assets = assetList.reduce((sum, file) => sum + gz(readFileSync(`${SDK_DIST}${file}`)), 0);
    const theirPath = ORIGINAL_FILE[entry.name] ?? `plugins/${entry.path}/${entry.name}.esm.js`;
    const theirs = existsSync(original + theirPath) ? `${kb(gz(readFileSync(original + theirPath)))} KB gzip for the original's ${theirPath}` : 'the original builds it into trtc.js (no file of its own)';
    rows.push({
      benchmark: `plugin size: ${entry.globalName}`, figure: kb(ours + assets), unit: 'KB gzip',
      notes: `plugins/${entry.path}/${entry.name}.esm.js ${kb(ours)} KB${assets ? ` + ${entry.name === 'ai-denoiser' ? 'assets/denoiser-wasm.js' : `${assetList.length} files of ${assetList[0].split('/').slice(0, 2).join('/')}/ (MediaPipe script, SIMD wasm, model)`} ${kb(assets)} KB${entry.name === 'ai-denoiser' ? ' (RNNoise wasm inside)' : ''}` : ''}${REFUSING.has(entry.name) ? ' (loads and registers, refuses to start here)' : ''}; ${theirs}`,
    });
  }
  return rows;
}

/** The processes of one `--type` (renderer, gpu-process, …) whose browser was started with the marker flag. */
export function renderersOf(marker: string, type = 'renderer'): number[] {
  const out: number[] = [];
  for (const pid of allPids()) {
    if (!cmdline(pid).includes(`--type=${type}`)) continue;
    for (let p = pid, depth = 0; p > 1 && depth < 4; depth += 1) {
      try {
        p = parentPid(p);
      } catch {
        break;
      }
      if (cmdline(p).includes(marker)) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

export interface ThreadCpu { main: number; audio: number; total: number }

/** ms of CPU per second over a window, main thread / threads named Audio* / whole process, summed over the renderers. */
export async function measure(pids: number[], seconds: number): Promise<ThreadCpu> {
  const sum = (maps: Map<string, number>[], pick: (name: string) => boolean) => maps.reduce((s, m) => s + [...m].filter(([n]) => pick(n)).reduce((a, [, v]) => a + v, 0), 0);
  const before = pids.map(threadCpuMs);
  const start = performance.now();
  await sleep(seconds * 1000);
  const after = pids.map(threadCpuMs);
  const wall = (performance.now() - start) / 1000;
  const delta = (pick: (name: string) => boolean) => (sum(after, pick) - sum(before, pick)) / wall;
  return { main: delta((n) => n === 'main'), audio: delta((n) => /audio/i.test(n)), total: delta(() => true) };
}

const plugin = (page: Page, method: string, name: string, options?: unknown) => page.evaluate(([m, n, o]) =>
  (window as unknown as { e2e: { client: Record<string, (n: string, o: unknown) => Promise<unknown>> } }).e2e.client[m as string](n as string, o), [method, name, options] as const);

/** Publishes a speech + noise microphone, then measures: plain, with one mixer, idle graph, with the denoiser. */
export async function pluginCpuRows(server: { url: string; sig(userId: string): Promise<string> }, seconds = Number(process.env.BENCH_PLUGIN_SECONDS ?? 10)): Promise<Row[]> {
  const media = generateMedia();
  const marker = `--conclave-bench-plugins=${process.pid}`;
  let browser: LaunchedBrowser | undefined;
  let listener: LaunchedBrowser | undefined;
  const app = await AppHost.start(server.url);
  try {
    browser = await launchBrowser([`--use-file-for-fake-audio-capture=${media.path('speech-noise.wav')}`, marker]);
    listener = await launchBrowser();
    const page = await app.open(browser.context);
    const receiver = await app.open(listener.context);
    const ok = await enterWithAudio(page, server as never, 'bench-dj', 42_001, RAW_MIC);
    if (!ok.ok) throw new Error(`publisher could not join: ${ok.message}`);
    await enterWithAudio(receiver, server as never, 'bench-listener', 42_001);
    const pids = renderersOf(marker);
    progress(`plugin CPU: publisher renderer pids ${pids.join(', ')}, ${seconds} s per window`);
    const plain = await measure(pids, seconds);
    await plugin(page, 'startPlugin', 'AudioMixer', { id: 'bench', url: media.dataUrl('tone440.mp3'), loop: true });
    const mixer = await measure(pids, seconds);
    await plugin(page, 'stopPlugin', 'AudioMixer', { id: 'bench' });
    const graph = await measure(pids, seconds);
    await plugin(page, 'startPlugin', 'AIDenoiser', { sdkAppId: TEST_APP.sdkAppId, userId: 'bench-dj', userSig: await server.sig('bench-dj') });
    const denoiser = await measure(pids, seconds);
    const f1 = (v: number) => v.toFixed(1);
    const row = (benchmark: string, what: string, on: ThreadCpu, off: ThreadCpu, offName: string): Row[] => [
      { benchmark, figure: f1(on.main - off.main), unit: 'main-thread ms/s', notes: `${what}: ${f1(on.main)} vs ${f1(off.main)} ms/s ${offName} (publisher renderer main thread)` },
      { benchmark, figure: f1(on.audio - off.audio), unit: 'audio-thread ms/s', notes: `threads named Audio* (Web Audio rendering, AudioWorklet): ${f1(on.audio)} vs ${f1(off.audio)}` },
      { benchmark, figure: f1(on.total - off.total), unit: 'renderer ms/s', notes: `whole renderer process: ${f1(on.total)} vs ${f1(off.total)}` },
    ];
    return [
      ...row('plugin CPU: one AudioMixer', 'looping mp3 mixed into the published microphone', mixer, plain, 'publishing the microphone alone'),
      ...row('plugin CPU: AIDenoiser', 'RNNoise worklet on the microphone', denoiser, graph, 'the same Web Audio graph without it'),
    ];
  } finally {
    await browser?.close();
    await listener?.close();
    await app.close();
    media.remove();
  }
}
