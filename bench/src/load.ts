/**
 * Load: what a forwarded packet costs, side by side with LiveKit (issue 26; method in bench/README.md "Load:
 * cost per forwarded packet"). For each engine and shape, the Go generator (pinned to core 1) steps the load up
 * on a server whose process tree is pinned to core 0, until loss passes 1 % or p99 forwarding delay 50 ms;
 * per step the server tree's CPU over the generator's measurement window, per forwarded packet. A least-squares
 * fit of CPU = fixed + per-packet × rate gives the marginal µs per packet and the rate that fills the core.
 */
import { loadavg } from 'node:os';
import { runLoadgen, type LoadgenConfig, type LoadgenReport } from '../../tests/e2e/src/harness/loadgen.js';
import { LIVEKIT_KEY, LOAD_APP_ID, pin, serverCpuMs, startLoadServer, type LoadEngine, type LoadServer } from './load-servers.js';
import { SHAPES, type Shape, type ShapeName } from './load-shapes.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

/** Limits past which a step counts as saturated (BENCH_LOAD_LOSS_LIMIT, BENCH_LOAD_P99_MS: a loaded machine's scheduling delays trip the p99 early). */
export const LOSS_LIMIT = Number(process.env.BENCH_LOAD_LOSS_LIMIT ?? 0.01);
export const P99_LIMIT_MS = Number(process.env.BENCH_LOAD_P99_MS ?? 50);
/**
 * The generator's own CPU (cores) past which stepping stops (BENCH_LOAD_GENERATOR_LIMIT): past it the generator,
 * not the server, is the limit, and the next step's set-up crawls (LiveKit's 1,000 viewers after a 640-viewer step
 * at 98 % of the generator's core had not set up in 7 min). The step itself still counts.
 */
export const GENERATOR_LIMIT = Number(process.env.BENCH_LOAD_GENERATOR_LIMIT ?? 0.9);

export interface LoadStep {
  n: number;
  users: string;
  /** Packets the subscribers received per second (forwarded by the server). */
  packetsPerSecond: number;
  /** Packets the publishers sent per second. */
  sentPerSecond: number;
  /** Server tree CPU over the window, cores (CPU-seconds per second). */
  cores: number;
  /** The generator's own CPU over the window, cores: near 1 (its one pinned core) it, not the server, is the limit. */
  generatorCores: number;
  /** Server CPU-seconds per 1,000 forwarded packets. */
  cpuSecondsPer1000: number;
  lossRate: number;
  p50Ms: number;
  p99Ms: number;
  nacks: number;
  setupMs: number;
  errors: string[];
  /** 1-minute load average of the host at the end of the step (the machine may be shared). */
  loadAverage: number;
  saturated: boolean;
}

export interface LoadFit {
  /** Fixed cost, cores. */
  fixedCores: number;
  /** Marginal cost, µs of server CPU per forwarded packet. */
  marginalUs: number;
  /** Rate at which the fit fills one core, packets/s. */
  saturationPps: number;
  points: number;
}

export interface LoadCurve {
  engine: LoadEngine;
  shape: ShapeName;
  steps: LoadStep[];
  fit?: LoadFit;
  /** The same fit of the generator's own CPU: its saturation rate must pass the server's, or the generator is the limit. */
  generatorFit?: LoadFit;
  /** Highest rate forwarded within the limits. */
  maxGoodPps: number;
}

/** Least squares of cores against packets/s. */
export function fitCost(steps: readonly LoadStep[]): LoadFit | undefined {
  const points = steps.filter((s) => s.packetsPerSecond > 0);
  if (points.length < 2) return undefined;
  const n = points.length;
  const mx = points.reduce((a, s) => a + s.packetsPerSecond, 0) / n;
  const my = points.reduce((a, s) => a + s.cores, 0) / n;
  const sxx = points.reduce((a, s) => a + (s.packetsPerSecond - mx) ** 2, 0);
  const sxy = points.reduce((a, s) => a + (s.packetsPerSecond - mx) * (s.cores - my), 0);
  if (sxx === 0) return undefined;
  const slope = sxy / sxx;
  const fixedCores = my - slope * mx;
  return { fixedCores, marginalUs: slope * 1e6, saturationPps: slope > 0 ? (1 - fixedCores) / slope : Infinity, points: n };
}

/** The generator's run for a step of size `n` of `shape` in room `room` of `server`. */
export async function stepConfig(server: LoadServer, shape: Shape, n: number, room: number, windowSeconds: number, warmupSeconds: number): Promise<LoadgenConfig> {
  const { publishers, subscribers } = shape.users(n);
  return {
    url: server.url, sdkAppId: LOAD_APP_ID, roomId: String(room), warmupSeconds, windowSeconds,
    publishers: await Promise.all(publishers.map(async (p) => ({ ...p, userSig: await server.sig(p.userId) }))),
    subscribers: await Promise.all(subscribers.map(async (s) => ({ ...s, userSig: await server.sig(s.userId) }))),
    ...(server.engine === 'livekit' ? LIVEKIT_KEY : {}),
  };
}

async function runStep(server: LoadServer, shape: Shape, n: number, room: number, windowSeconds: number, warmupSeconds: number): Promise<LoadStep> {
  const config = await stepConfig(server, shape, n, room, windowSeconds, warmupSeconds);
  let cpuStart = 0;
  let cpuEnd = 0;
  const report: LoadgenReport & { cpuSeconds?: number } = await runLoadgen(config, {
    livekit: server.engine === 'livekit',
    prefix: ['taskset', '-c', '1'],
    onEvent: (e) => {
      if (e.event === 'flowing') void pin(server, 0); // threads started meanwhile (Janus, LiveKit) stay on core 0
      if (e.event === 'window-start') cpuStart = serverCpuMs(server);
      if (e.event === 'window-end') cpuEnd = serverCpuMs(server);
    },
    timeoutMs: 600_000,
  });
  const w = report.window;
  const cores = (cpuEnd - cpuStart) / 1000 / w.seconds;
  const packetsPerSecond = w.rates.receivedPacketsPerSecond;
  const step: LoadStep = {
    n, users: shape.describe(n), packetsPerSecond, sentPerSecond: w.rates.sentPacketsPerSecond, cores,
    generatorCores: (report.cpuSeconds ?? NaN) / w.seconds,
    cpuSecondsPer1000: w.total.receivedPackets > 0 ? ((cpuEnd - cpuStart) / 1000) / (w.total.receivedPackets / 1000) : NaN,
    lossRate: w.total.lossRate, p50Ms: w.total.delay.p50Ms, p99Ms: w.total.delay.p99Ms, nacks: w.total.nacksSent,
    setupMs: report.setupMs, errors: report.errors, loadAverage: loadavg()[0],
    saturated: w.total.lossRate > LOSS_LIMIT || w.total.delay.p99Ms > P99_LIMIT_MS || report.errors.length > 0,
  };
  progress(`load ${server.engine} ${shape.name} n=${n}: ${packetsPerSecond.toFixed(0)} pkt/s, ${(cores * 100).toFixed(0)} % of a core (generator ${(step.generatorCores * 100).toFixed(0)} %), ` +
    `${step.cpuSecondsPer1000.toFixed(4)} CPU-s/1000 pkt, loss ${(step.lossRate * 100).toFixed(2)} %, p50 ${step.p50Ms} ms, p99 ${step.p99Ms} ms, ` +
    `load avg ${step.loadAverage.toFixed(1)}${report.errors.length ? `, errors: ${report.errors.slice(0, 3).join('; ')}` : ''}`);
  return step;
}

/** Steps the load up for each engine and shape. */
export async function runLoad({ engines, shapes, windowSeconds = 5, warmupSeconds = 2, maxSteps = Infinity, livekitBinary }: {
  engines: LoadEngine[]; shapes: ShapeName[]; windowSeconds?: number; warmupSeconds?: number; maxSteps?: number; livekitBinary?: string;
}): Promise<LoadCurve[]> {
  const curves: LoadCurve[] = [];
  let room = 9700;
  for (const engine of engines) {
    for (const name of shapes) {
      const shape = SHAPES[name];
      if (!shape.engines.includes(engine)) continue;
      // A fresh server per shape: what one shape leaves behind does not weigh on the next.
      const curve: LoadCurve = { engine, shape: name, steps: [], maxGoodPps: 0 };
      curves.push(curve);
      const server = await startLoadServer(engine, 0, livekitBinary).catch((error: unknown) => {
        progress(`load ${engine} ${name}: the server did not start: ${String(error)}`);
        return undefined;
      });
      if (!server) continue;
      try {
        for (const n of shape.steps.slice(0, maxSteps)) {
          const step = await runStep(server, shape, n, room++, windowSeconds, warmupSeconds).catch((error: unknown): LoadStep => {
            progress(`load ${engine} ${name} n=${n} failed: ${String(error)}`);
            return { n, users: shape.describe(n), packetsPerSecond: 0, sentPerSecond: 0, cores: 0, generatorCores: NaN, cpuSecondsPer1000: NaN, lossRate: 1, p50Ms: NaN, p99Ms: NaN, nacks: 0, setupMs: 0, errors: [String(error)], loadAverage: loadavg()[0], saturated: true };
          });
          curve.steps.push(step);
          if (step.saturated) break;
          curve.maxGoodPps = Math.max(curve.maxGoodPps, step.packetsPerSecond);
          if (step.generatorCores > GENERATOR_LIMIT) {
            progress(`load ${engine} ${name}: the generator used ${(step.generatorCores * 100).toFixed(0)} % of its core: stepping stops here`);
            break;
          }
        }
      } finally {
        await server.close();
      }
      // Steps within the limits only: past them a starved server's CPU says nothing of its cost.
      const good = curve.steps.filter((s) => !s.saturated);
      curve.fit = fitCost(good);
      curve.generatorFit = fitCost(good.filter((s) => Number.isFinite(s.generatorCores)).map((s) => ({ ...s, cores: s.generatorCores })));
    }
  }
  return curves;
}

const f = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : '–');

/** Table rows: per engine and shape the fit and the steps, then each engine as a ratio to LiveKit and to the floor. */
export function loadRows(curves: readonly LoadCurve[]): Row[] {
  const b = 'load (Go generator)';
  const rows: Row[] = [];
  for (const c of curves) {
    const tag = `${c.engine}, ${c.shape}`;
    if (c.fit) {
      rows.push(
        { benchmark: b, figure: f(c.fit.marginalUs, 1), unit: `µs server CPU per forwarded packet, marginal (${tag})`, notes: `fit over ${c.fit.points} steps; fixed ${f(c.fit.fixedCores * 100, 1)} % of a core` },
        { benchmark: b, figure: f(c.fit.saturationPps), unit: `packets/s filling one core, fit (${tag})`, notes: `highest within loss ≤ 1 % and p99 ≤ ${P99_LIMIT_MS} ms: ${f(c.maxGoodPps)} pkt/s` },
      );
    }
    if (c.generatorFit) {
      const g = c.generatorFit;
      rows.push({ benchmark: b, figure: f(g.marginalUs, 1), unit: `µs generator CPU per forwarded packet, marginal (${tag})`, notes: `its own core full at ${f(g.saturationPps)} pkt/s (fit)${c.fit && g.saturationPps < c.fit.saturationPps ? ': below the server\'s, the generator is the limit' : ''}` });
    }
    for (const s of c.steps) {
      rows.push({
        benchmark: b, figure: f(s.cpuSecondsPer1000 * 1000, 1), unit: `CPU-ms per 1,000 packets (${tag}, ${f(s.packetsPerSecond)} pkt/s)`,
        notes: `${s.users}; ${f(s.cores * 100)} % core (generator ${f(s.generatorCores * 100)} %); loss ${f(s.lossRate * 100, 2)} %; p50 ${f(s.p50Ms, 2)} / p99 ${f(s.p99Ms, 2)} ms; load avg ${f(s.loadAverage, 1)}${s.saturated ? '; past the limits' : ''}`,
      });
    }
  }
  for (const [reference, name] of [['livekit', 'LiveKit'], ['floor', 'the floor']] as const) {
    const ref = (shape: ShapeName) => curves.find((o) => o.engine === reference && o.shape === shape)?.fit;
    for (const c of curves) {
      const r = ref(c.shape);
      if (c.engine === reference || !c.fit || !r) continue;
      rows.push(
        { benchmark: b, figure: f(r.marginalUs / c.fit.marginalUs, 2), unit: `× ${name}, packets per CPU-s marginal (${c.engine}, ${c.shape})`, notes: `${name} ${f(r.marginalUs, 1)} µs/pkt vs ${f(c.fit.marginalUs, 1)} µs/pkt` },
        { benchmark: b, figure: f(c.fit.saturationPps / r.saturationPps, 2), unit: `× ${name}, saturation rate (${c.engine}, ${c.shape})`, notes: `${f(c.fit.saturationPps)} vs ${name} ${f(r.saturationPps)} pkt/s per core (fit)` },
      );
    }
  }
  return rows;
}
