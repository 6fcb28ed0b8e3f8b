/**
 * Instructions per forwarded packet of the native engines and the floor (issue 26, 42; bench/README.md "Instructions
 * per forwarded packet"). CPU time on a shared machine is noisy; an instruction count is not. The engine's process (Janus, which
 * Conclave's server starts through CONCLAVE_JANUS_BIN, or LiveKit) runs under valgrind's callgrind with its
 * instrumentation off; for each step size the generator runs a window with the instrumentation on for that window
 * only, and the count over the packets the subscribers received gives instructions per packet. Two step sizes give
 * the marginal count (what the engine's fixed work — timers, idle threads — costs cancels out).
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runLoadgen } from '../../tests/e2e/src/harness/loadgen.js';
import { stepConfig } from './load.js';
import { FLOOR_BINARY } from './load-floor.js';
import { JANUS_SRTP, startLoadServer, type LoadEngine, type LoadServer } from './load-servers.js';
import { SHAPES, type Shape, type ShapeName } from './load-shapes.js';
import { processTree } from './proc.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

const run = promisify(execFile);
/** USER and HOST as both the wrapper and callgrind_control see them (valgrind names its control pipes after them). */
const VGDB_NAMES = { USER: 'conclave', HOST: 'callgrind' };
/** Go's asynchronous preemption signals crash callgrind's signal bookkeeping (an assertion in threads.c). */
const GO_UNDER_VALGRIND = 'GODEBUG=asyncpreemptoff=1';
/** callgrind_control `args` for the callgrind process `pid` whose vgdb prefix is under `dir`. */
const control = (dir: string, pid: number, ...args: string[]) =>
  run('callgrind_control', [`--vgdb-prefix=${dir}/vgdb`, ...args, String(pid)], { env: { ...process.env, ...VGDB_NAMES } });

/** The engines callgrind measures: native code only (the embedded engine is JIT-compiled JavaScript). */
export type NativeEngine = Extract<LoadEngine, 'janus' | 'livekit' | 'floor'>;

export interface CallgrindStep {
  n: number;
  users: string;
  instructions: number;
  receivedPackets: number;
  lossRate: number;
}

export interface CallgrindResult {
  engine: NativeEngine;
  shape: ShapeName;
  steps: CallgrindStep[];
  /** Instructions per additional forwarded packet between the smallest and the largest step. */
  marginal?: number;
}

/** A shell wrapper that runs `binary` under callgrind, instrumentation off, its dumps in `dir`. */
function callgrindWrapper(dir: string, binary: string): string {
  const path = join(dir, 'under-callgrind.sh');
  // valgrind names its control pipes after the prefix, USER and HOST, and the server child sets HOST (its bind
  // address): the wrapper and callgrind_control (control()) both name them alike.
  writeFileSync(path, `#!/bin/sh\nexec env ${Object.entries(VGDB_NAMES).map(([k, v]) => `${k}=${v}`).join(' ')} ${GO_UNDER_VALGRIND} valgrind --tool=callgrind --instr-atstart=no --fair-sched=yes -q --vgdb-prefix=${dir}/vgdb --callgrind-out-file=${dir}/cg.%p ${binary} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

/** The callgrind process in the server's tree (valgrind runs the tool as `callgrind-<arch>`). */
function callgrindPid(server: LoadServer): number {
  for (const pid of processTree(server.pid)) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('callgrind')) return pid;
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no callgrind process under the ${server.engine} server (pid ${server.pid})`);
}

/** Total instructions (Ir) of the first dump of process `pid` in `dir`, waiting (≤ 30 s) for valgrind to write it. */
async function dumpInstructions(dir: string, pid: number): Promise<number> {
  const file = join(dir, `cg.${pid}.1`);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const totals = existsSync(file) ? /^totals: (\d+)/m.exec(readFileSync(file, 'utf8')) : null;
    if (totals) return Number(totals[1]);
    if (Date.now() > deadline) throw new Error(`callgrind wrote no dump (${readdirSync(dir).join(', ')})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** One step on a fresh instrumented engine: the window's instructions and packets. */
async function measureStep(engine: NativeEngine, shape: Shape, n: number, windowSeconds: number, dir: string, wrapper: string): Promise<CallgrindStep> {
  // Janus under valgrind can take longer than its usual start bound (15 s) on a loaded machine.
  const server = engine === 'janus' ? await startLoadServer('janus', 0, undefined, { env: { CONCLAVE_JANUS_BIN: wrapper, CONCLAVE_JANUS_START_TIMEOUT_MS: '80000' } })
    : engine === 'floor' ? await startLoadServer('floor', 0, undefined, { floorBinary: wrapper, startTimeoutMs: 60_000 })
    : await startLoadServer('livekit', 0, wrapper, { startTimeoutMs: 120_000 });
  try {
    const pid = callgrindPid(server);
    let on: Promise<unknown> = Promise.resolve();
    let off: Promise<unknown> = Promise.resolve();
    const report = await runLoadgen(await stepConfig(server, shape, n, 9900 + n, windowSeconds, 3), {
      livekit: engine === 'livekit',
      onEvent: (e) => {
        if (e.event === 'window-start') on = control(dir, pid, '--instr=on');
        // Dump first: with the instrumentation off, callgrind has nothing to dump (and still answers OK).
        if (e.event === 'window-end') off = on.then(() => control(dir, pid, '--dump')).then(() => control(dir, pid, '--instr=off'));
      },
      timeoutMs: 300_000,
    });
    await off;
    if (report.errors.length > 0) throw new Error(report.errors.slice(0, 3).join('; '));
    return { n, users: shape.describe(n), instructions: await dumpInstructions(dir, pid), receivedPackets: report.window.total.receivedPackets, lossRate: report.window.total.lossRate };
  } finally {
    await server.close();
  }
}

async function measure(engine: NativeEngine, shapeName: ShapeName, sizes: number[], windowSeconds: number, livekitBinary?: string): Promise<CallgrindResult> {
  // BENCH_CALLGRIND_KEEP: a folder that keeps the dumps (cg.<pid>.1 per step) for callgrind_annotate.
  const keep = process.env.BENCH_CALLGRIND_KEEP;
  if (keep) mkdirSync(keep, { recursive: true });
  const dir = mkdtempSync(join(keep ?? tmpdir(), `conclave-callgrind-${engine}-`));
  const result: CallgrindResult = { engine, shape: shapeName, steps: [] };
  try {
    const native = engine === 'janus' ? (await run('sh', ['-c', 'command -v janus'])).stdout.trim() : engine === 'floor' ? FLOOR_BINARY : livekitBinary;
    if (!native) throw new Error('no LiveKit server binary');
    const wrapper = callgrindWrapper(dir, native);
    // A fresh server per step: an instrumented engine left behind by one step's users slows the next one's joins.
    for (const n of sizes) {
      // Once more on failure: under valgrind a Go server's first connections can time out on a loaded machine.
      const step = await measureStep(engine, SHAPES[shapeName], n, windowSeconds, dir, wrapper).catch((error: unknown) => {
        progress(`callgrind ${engine} ${shapeName} n=${n}: ${String(error)}; once more`);
        return measureStep(engine, SHAPES[shapeName], n, windowSeconds, dir, wrapper);
      });
      result.steps.push(step);
      progress(`callgrind ${engine} ${shapeName} n=${n}: ${step.instructions} instructions, ${step.receivedPackets} packets forwarded, ` +
        `${(step.instructions / step.receivedPackets).toFixed(0)} per packet, loss ${(step.lossRate * 100).toFixed(1)} %`);
    }
    const [first, last] = [result.steps[0], result.steps[result.steps.length - 1]];
    if (first && last && last.receivedPackets > first.receivedPackets) {
      result.marginal = (last.instructions - first.instructions) / (last.receivedPackets - first.receivedPackets);
    }
  } finally {
    if (keep) progress(`callgrind ${engine}: dumps kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/**
 * Runs callgrind on each native engine for `shape` (BENCH_CALLGRIND_SHAPE, livestream) at two sizes
 * (BENCH_CALLGRIND_STEPS, 1,3: kept small, an instrumented engine runs tens of times slower).
 */
export async function runCallgrind(engines: NativeEngine[], livekitBinary?: string): Promise<CallgrindResult[]> {
  const shape = (process.env.BENCH_CALLGRIND_SHAPE ?? 'livestream') as ShapeName;
  const sizes = (process.env.BENCH_CALLGRIND_STEPS ?? '1,3').split(',').map(Number);
  const windowSeconds = Number(process.env.BENCH_CALLGRIND_WINDOW_SECONDS ?? 6);
  const results: CallgrindResult[] = [];
  for (const engine of engines) {
    results.push(await measure(engine, shape, sizes, windowSeconds, livekitBinary).catch((error: unknown) => {
      progress(`callgrind ${engine}: ${String(error)}`);
      return { engine, shape, steps: [] };
    }));
  }
  return results;
}

const f = (v: number | undefined) => (v !== undefined && Number.isFinite(v) ? v.toFixed(0) : '–');

/** Rows: per engine the marginal and per-step instructions per packet, then Janus as a ratio to LiveKit. */
export function callgrindRows(results: readonly CallgrindResult[]): Row[] {
  const b = 'load (callgrind)';
  const rows: Row[] = [];
  for (const r of results) {
    rows.push({ benchmark: b, figure: f(r.marginal), unit: `instructions per forwarded packet, marginal (${r.engine}${r.engine === 'janus' ? ` with ${JANUS_SRTP === 'openssl' ? 'OpenSSL' : 'Debian\'s NSS'} libsrtp` : ''}, ${r.shape})`, notes: r.steps.map((s) => `${s.users}: ${f(s.instructions / s.receivedPackets)}/pkt over ${s.receivedPackets} pkt, loss ${(s.lossRate * 100).toFixed(1)} %`).join('; ') || 'did not run' });
  }
  const janus = results.find((r) => r.engine === 'janus')?.marginal;
  const livekit = results.find((r) => r.engine === 'livekit')?.marginal;
  if (janus && livekit) rows.push({ benchmark: b, figure: (livekit / janus).toFixed(2), unit: '× LiveKit, packets per instruction (janus)', notes: `LiveKit ${f(livekit)} vs Janus ${f(janus)} instructions per packet` });
  const floor = results.find((r) => r.engine === 'floor')?.marginal;
  for (const r of results) {
    if (floor && r.marginal && r.engine !== 'floor') rows.push({ benchmark: b, figure: (floor / r.marginal).toFixed(2), unit: `× the floor, packets per instruction (${r.engine})`, notes: `the floor ${f(floor)} vs ${f(r.marginal)} instructions per packet` });
  }
  return rows;
}
