/**
 * Video-effect plugins: per effect, the processing time per frame on the publishing page (the pipeline's
 * User Timing measures, GPU work included) and the frame rate the receiving page presents, at 640×480 and
 * 1280×720 from a textured fake camera; and each plugin file's size beside the original's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { watch } from '../../tests/e2e/src/harness/join.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import { fakeCamera, receivedFps, squarePng, usePlugin, y4m } from '../../tests/e2e/src/video-effects-helpers.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

/** The plugin files, as in the plugin table (path under plugins/video-effect, global name). */
const PLUGINS = [['watermark', 'Watermark'], ['basic-beauty', 'BasicBeauty'], ['virtual-background', 'VirtualBackground'], ['video-mixer', 'VideoMixer']] as const;

/** One measured case: which plugins start with which options (run in the publishing page). */
interface EffectCase {
  name: string;
  start(page: Page): Promise<void>;
}

/** Opens an app page; defines the name helper tsx's transform adds to functions sent to the page. */
async function openPage(app: AppHost, context: Parameters<AppHost['open']>[0]): Promise<Page> {
  const page = await app.open(context);
  await page.evaluate('globalThis.__name = (f) => f');
  return page;
}

const startPlugin = (page: Page, name: string, options: unknown) => page.evaluate(async ({ n, o }) => {
  await (window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<unknown> } } }).e2e.client.startPlugin(n, o);
}, { n: name, o: options });

const CASES: EffectCase[] = [
  { name: 'none (plain camera)', start: async () => undefined },
  { name: 'Watermark', start: async (page) => startPlugin(page, 'Watermark', { imageUrl: await squarePng(page, '#ff00ff', 80), x: 20, y: 20, size: { width: 80, height: 80 } }) },
  { name: 'BasicBeauty', start: (page) => startPlugin(page, 'BasicBeauty', { beauty: 0.6, brightness: 0.4, ruddy: 0.4 }) },
  { name: 'VirtualBackground green', start: async (page) => startPlugin(page, 'VirtualBackground', { type: 'green', src: await squarePng(page, '#ff8000', 64) }) },
  { name: 'VirtualBackground blur', start: (page) => startPlugin(page, 'VirtualBackground', { type: 'blur', blurLevel: 3 }) },
  { name: 'VirtualBackground image', start: async (page) => startPlugin(page, 'VirtualBackground', { type: 'image', src: await squarePng(page, '#2080ff', 64) }) },
  {
    name: 'VideoMixer', start: async (page) => {
      const size = await page.evaluate(() => (window as unknown as { e2e: { client: { getVideoTrack(): MediaStreamTrack } } }).e2e.client.getVideoTrack().getSettings());
      await startPlugin(page, 'VideoMixer', {
        container: { width: size.width, height: size.height, backgroundColor: '#102030' },
        camera: { x: 0, y: 0, width: Math.round((size.width ?? 640) / 2), height: size.height, fillMode: 'cover' },
        images: [{ url: await squarePng(page, '#ff00ff', 64), x: Math.round((size.width ?? 640) * 0.6), y: 40, width: 128, height: 128 }],
        texts: [{ content: 'Conclave mix', x: Math.round((size.width ?? 640) * 0.55), y: 220, font: '28px sans-serif' }],
      });
    },
  },
  {
    name: 'stacked: beauty + watermark + blur', start: async (page) => {
      await startPlugin(page, 'BasicBeauty', { beauty: 0.6, brightness: 0.3, ruddy: 0.3 });
      await startPlugin(page, 'Watermark', { imageUrl: await squarePng(page, '#ff00ff', 60), x: 10, y: 10, size: { width: 60, height: 60 } });
      await startPlugin(page, 'VirtualBackground', { type: 'blur', blurLevel: 3 });
    },
  },
];

/** Figures of one case at one size. */
export interface VideoEffectResult {
  size: string;
  effect: string;
  frames: number;
  medianMs: number;
  p95Ms: number;
  receivedFps: number;
  error?: string;
}

/** A plugin file's size beside the original's. */
export interface PluginSize {
  name: string;
  ours: { raw: number; gzip: number };
  original?: { raw: number; gzip: number };
}

const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/** Our built ESM plugin files and trtc-sdk-v5's (VideoMixer: the 5.11 package's). */
export function measurePluginSizes(): PluginSize[] {
  const require = createRequire(import.meta.url);
  const originalDir = require.resolve('trtc-sdk-v5/package.json', { paths: [new URL('../../packages/sdk/', import.meta.url).pathname] }).replace(/package\.json$/, 'plugins/video-effect/');
  return PLUGINS.map(([path]) => {
    const ours = readFileSync(new URL(`../../packages/sdk/dist/plugins/video-effect/${path}/${path}.esm.js`, import.meta.url));
    let original: PluginSize['original'];
    try {
      const bytes = readFileSync(`${originalDir}${path}/${path}.esm.js`);
      original = { raw: bytes.length, gzip: gz(bytes) };
    } catch {
      original = undefined;
    }
    return { name: path, ours: { raw: ours.length, gzip: gz(ours) }, original };
  });
}

/** Measures every case at every size; a publisher page per case, one receiver per size. */
export async function runVideoEffects(app: AppHost, server: { url: string; sig(userId: string): Promise<string> },
  options: { windowSeconds: number; settleSeconds: number; sizes: Array<[number, number]>; cases?: string[] }): Promise<VideoEffectResult[]> {
  const results: VideoEffectResult[] = [];
  for (const [width, height] of options.sizes) {
    const browser = await launchBrowser(fakeCamera(y4m('textured', width, height)));
    const roomId = 14000 + width;
    try {
      const receiver = await openPage(app, browser.context);
      await receiver.evaluate(async (enter) => (window as unknown as { e2e: { join(o: unknown): Promise<unknown> } }).e2e.join({ publish: false, enter }),
        { sdkAppId: TEST_APP.sdkAppId, userId: `fx-sub-${width}`, userSig: await server.sig(`fx-sub-${width}`), roomId });
      for (const [index, effect] of CASES.entries()) {
        if (options.cases && !options.cases.some((name) => effect.name.toLowerCase().includes(name))) continue;
        const userId = `fx-${width}-${index}`;
        const publisher = await openPage(app, browser.context);
        const result: VideoEffectResult = { size: `${width}×${height}`, effect: effect.name, frames: 0, medianMs: 0, p95Ms: 0, receivedFps: 0 };
        try {
          const joined = await publisher.evaluate((opts) => (window as unknown as { e2e: { join(o: unknown): Promise<{ ok: boolean; message?: string }> } }).e2e.join(opts),
            { profile: width >= 1280 ? '720p' : '480p', enter: { sdkAppId: TEST_APP.sdkAppId, userId, userSig: await server.sig(userId), roomId } });
          if (!joined.ok) throw new Error(`join failed: ${joined.message}`);
          for (const [path, global] of PLUGINS) await usePlugin(publisher, server.url, path, global);
          await receiver.waitForFunction((id) => (window as unknown as { e2e: { eventsOf(t: string): Array<{ data: { userId: string } }> } }).e2e
            .eventsOf('remote-video-available').some((e) => e.data.userId === id), userId, { timeout: 20_000 });
          await watch(receiver, userId);
          await effect.start(publisher);
          // Let the encoder, the bandwidth estimate and the model warm up, then measure one window.
          await publisher.waitForTimeout(options.settleSeconds * 1000);
          await publisher.evaluate(() => performance.clearMeasures('conclave-video-effect-frame'));
          result.receivedFps = await receivedFps(receiver, userId, options.windowSeconds);
          const timing = await publisher.evaluate(() => {
            const times = performance.getEntriesByName('conclave-video-effect-frame').map((e) => e.duration).sort((a, b) => a - b);
            const at = (p: number) => times.length ? times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] : 0;
            return { frames: times.length, median: at(0.5), p95: at(0.95) };
          });
          Object.assign(result, { frames: timing.frames, medianMs: timing.median, p95Ms: timing.p95 });
        } catch (error) {
          result.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
        }
        progress(`video effects ${result.size} ${result.effect}: ${result.medianMs.toFixed(1)} ms median, ${result.p95Ms.toFixed(1)} ms p95, received ${result.receivedFps.toFixed(1)} fps${result.error ? ` (${result.error})` : ''}`);
        results.push(result);
        await publisher.close();
      }
      await receiver.close();
    } finally {
      await browser.close();
    }
  }
  return results;
}

/**
 * The whole benchmark as run.ts runs it: every case at 640×480 and 1280×720 (BENCH_EFFECT_WINDOW_SECONDS,
 * default 6, after BENCH_EFFECT_SETTLE_SECONDS, default 4), and the plugin sizes. To rerun some rows only:
 * BENCH_EFFECT_CASES (comma-separated parts of case names, e.g. `stacked`) and BENCH_EFFECT_SIZES (e.g. `640x480`).
 */
export async function benchVideoEffects(app: AppHost, server: { url: string; sig(userId: string): Promise<string> }) {
  const results = await runVideoEffects(app, server, {
    windowSeconds: Number(process.env.BENCH_EFFECT_WINDOW_SECONDS ?? 6),
    settleSeconds: Number(process.env.BENCH_EFFECT_SETTLE_SECONDS ?? 4),
    sizes: sizesFrom(process.env.BENCH_EFFECT_SIZES) ?? [[640, 480], [1280, 720]],
    cases: process.env.BENCH_EFFECT_CASES?.split(',').map((name) => name.trim().toLowerCase()).filter(Boolean),
  });
  const sizes = measurePluginSizes();
  return { results, sizes, rows: videoEffectRows(results, sizes) };
}

/** `640x480,1280x720` → sizes; undefined when unset. */
function sizesFrom(value: string | undefined): Array<[number, number]> | undefined {
  const sizes = value?.split(',').map((size) => size.trim().split(/[x×]/).map(Number)).filter((pair): pair is [number, number] => pair.length === 2 && pair.every((n) => n > 0));
  return sizes?.length ? sizes : undefined;
}

/** Table rows: one per case and size, then the plugin sizes. */
export function videoEffectRows(results: readonly VideoEffectResult[], sizes: readonly PluginSize[]): Row[] {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const rows: Row[] = results.map((r) => ({
    benchmark: `video effect ${r.size}`,
    figure: r.error ? 'failed' : r.effect.startsWith('none') ? '–' : `${r.medianMs.toFixed(1)} / ${r.p95Ms.toFixed(1)}`,
    unit: 'ms/frame (median / p95)',
    notes: `${r.effect}: received ${r.receivedFps.toFixed(1)} fps${r.frames ? `, ${r.frames} frames timed` : ''}${r.error ? `; ${r.error}` : ''}`,
  }));
  for (const size of sizes) {
    rows.push({
      benchmark: 'video-effect plugin size',
      figure: kb(size.ours.gzip),
      unit: 'KB gzip',
      notes: `${size.name}.esm.js (${kb(size.ours.raw)} KB raw); original ${size.original ? `${kb(size.original.gzip)} KB gzip (${kb(size.original.raw)} KB raw)` : 'n/a'}`,
    });
  }
  return rows;
}
