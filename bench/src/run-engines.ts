/**
 * Only the media-engine comparison of the bench (both engines side by side): `node --import tsx
 * src/run-engines.ts` in bench/ after `npm run build`. Prints its table rows; BENCH_ITERATIONS and
 * BENCH_WINDOW_SECONDS as in run.ts; BENCH_ENGINES=janus (comma-separated) for some engines only,
 * BENCH_ENGINE_PARTS=first-frame,cpu,newcomer (comma-separated) for some measurements only.
 */
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { engineRows, runEngines, type EngineName, type EnginePart } from './engines.js';
import { renderTable } from './table.js';

const browser = await launchBrowser();
try {
  const results = await runEngines(browser.context, (url) => AppHost.start(url), {
    iterations: Number(process.env.BENCH_ITERATIONS ?? 10),
    windowSeconds: Number(process.env.BENCH_WINDOW_SECONDS ?? 20),
    ...(process.env.BENCH_ENGINES ? { engines: process.env.BENCH_ENGINES.split(',') as EngineName[] } : {}),
    ...(process.env.BENCH_ENGINE_PARTS ? { parts: process.env.BENCH_ENGINE_PARTS.split(',') as EnginePart[] } : {}),
  });
  process.stdout.write(`\n${renderTable(engineRows(results))}\n`);
  process.stdout.write(`${JSON.stringify(results.map((r) => ({ engine: r.engine, cpu: r.cpu, cpuHeavy: r.cpuHeavy, firstFrameMs: r.firstFrame?.samplesMs, newcomer: r.newcomer })))}\n`);
} finally {
  await browser.close();
}
