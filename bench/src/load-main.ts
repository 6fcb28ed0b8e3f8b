/**
 * `npm run bench:load`: builds the generator (and LiveKit server, once), steps the load on each engine and
 * shape, prints the table to stdout and writes everything to results/load.json (and a plot, load.svg).
 * Knobs: BENCH_LOAD_ENGINES (embedded,janus,livekit,floor), BENCH_LOAD_SHAPES (audio,meeting,meeting-small,livestream),
 * BENCH_LOAD_WINDOW_SECONDS (5), BENCH_LOAD_WARMUP_SECONDS (2), BENCH_LOAD_MAX_STEPS (all), BENCH_LOAD_LOSS_LIMIT (0.01),
 * BENCH_LOAD_P99_MS (50), BENCH_LOAD_GENERATOR_LIMIT (0.9 of the generator's core); BENCH_LOAD_CALLGRIND=0 skips the instruction counts of the native engines (load-callgrind.ts),
 * BENCH_LOAD_STEPPED=0 the stepped CPU curves.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildLoadgen } from '../../tests/e2e/src/harness/loadgen.js';
import { buildFloor } from './load-floor.js';
import { callgrindRows, runCallgrind, type NativeEngine } from './load-callgrind.js';
import { loadRows, runLoad } from './load.js';
import { loadPlot } from './load-plot.js';
import { buildLivekit, type LoadEngine } from './load-servers.js';
import type { ShapeName } from './load-shapes.js';
import { progress } from './stats.js';
import { renderTable, type Row } from './table.js';

const list = <T extends string>(value: string | undefined, fallback: T[]): T[] => (value ? value.split(',').map((v) => v.trim()).filter(Boolean) as T[] : fallback);

/** Runs the load bench; returns its rows (also used by `npm run bench` with BENCH_LOAD=1). */
export async function benchLoad(): Promise<Row[]> {
  const engines = list<LoadEngine>(process.env.BENCH_LOAD_ENGINES, ['embedded', 'janus', 'livekit', 'floor']);
  const shapes = list<ShapeName>(process.env.BENCH_LOAD_SHAPES, ['audio', 'meeting', 'meeting-small', 'livestream']);
  const build = await buildLoadgen({ livekit: engines.includes('livekit') });
  progress(`load: generator built in ${(build / 1000).toFixed(1)} s`);
  if (engines.includes('floor')) progress(`load: floor forwarder built in ${((await buildFloor()) / 1000).toFixed(1)} s`);
  const livekit = engines.includes('livekit') ? await buildLivekit() : undefined;
  if (livekit) progress(`load: LiveKit server ready in ${(livekit.ms / 1000).toFixed(1)} s (built once, then cached)`);
  const loadBefore = loadavg();
  const curves = process.env.BENCH_LOAD_STEPPED === '0' ? [] : await runLoad({
    engines, shapes, livekitBinary: livekit?.path,
    windowSeconds: Number(process.env.BENCH_LOAD_WINDOW_SECONDS ?? 5),
    warmupSeconds: Number(process.env.BENCH_LOAD_WARMUP_SECONDS ?? 2),
    maxSteps: Number(process.env.BENCH_LOAD_MAX_STEPS ?? Infinity),
  });
  const native = engines.filter((e): e is NativeEngine => e === 'janus' || e === 'livekit' || e === 'floor');
  const instructions = process.env.BENCH_LOAD_CALLGRIND === '0' || native.length === 0 ? [] : await runCallgrind(native, livekit?.path);
  const dir = fileURLToPath(new URL('../results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}load.json`, JSON.stringify({ at: new Date().toISOString(), cpus: cpus().length, cpu: cpus()[0]?.model, loadBefore, loadAfter: loadavg(), curves, instructions }, null, 2));
  writeFileSync(`${dir}load.svg`, loadPlot(curves));
  progress(`load: results/load.json, results/load.svg (load average before ${loadBefore.map((v) => v.toFixed(1)).join(' ')}, after ${loadavg().map((v) => v.toFixed(1)).join(' ')})`);
  return [...loadRows(curves), ...callgrindRows(instructions)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchLoad();
  process.stdout.write(`${renderTable(rows)}\n`);
}
