/**
 * The Go load generator (bench/loadgen, bench/README.md "Load generator"): building it (cached by Go's build
 * cache; the first build downloads its modules from the Go module proxy) and running it. Shared by its smoke
 * test (loadgen-smoke.e2e.ts) and the load bench (bench/src/load*.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** bench/loadgen: sources, build.sh, and (gitignored) bin/ and media-cache/. */
export const LOADGEN_DIR = fileURLToPath(new URL('../../../../bench/loadgen/', import.meta.url));
export const LOADGEN_MEDIA_DIR = `${LOADGEN_DIR}media-cache`;

/** Builds the generator (and with `livekit`, its LiveKit driver) and the media clips; returns the ms it took. */
export async function buildLoadgen(options: { livekit?: boolean; timeoutMs?: number } = {}): Promise<number> {
  const t0 = performance.now();
  await promisify(execFile)('sh', [`${LOADGEN_DIR}build.sh`, ...(options.livekit ? ['livekit'] : [])], { timeout: options.timeoutMs ?? 600_000, maxBuffer: 16 << 20 });
  return performance.now() - t0;
}

/** A publisher of a run. */
export interface LoadgenPublisher { userId: string; userSig: string; audio: boolean; video: boolean; small: boolean }
/** A subscriber of a run and the streams it takes from each source. */
export interface LoadgenSubscriber {
  userId: string;
  userSig: string;
  sources: { userId: string; audio: boolean; bigVideo: boolean; smallVideo: boolean }[];
}

/** One run (bench/loadgen/run/run.go Config). */
export interface LoadgenConfig {
  /** Conclave: the server's HTTP origin; LiveKit: its ws:// URL. */
  url: string;
  sdkAppId: number;
  roomId: string;
  mediaDir?: string;
  publishers: LoadgenPublisher[];
  subscribers: LoadgenSubscriber[];
  warmupSeconds: number;
  windowSeconds: number;
  concurrency?: number;
  apiKey?: string;
  apiSecret?: string;
}

/** Figures of one media kind (or both) over the window. */
export interface LoadgenKind {
  sentPackets: number; sentBytes: number; receivedPackets: number; receivedBytes: number;
  expectedPackets: number; lostPackets: number; lossRate: number;
  nacksSent: number; nacksReceived: number; plisReceived: number; streams: number; unmatched: number;
  delay: { samples: number; p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number };
}

/** The generator's report (bench/loadgen/run/run.go Report). */
export interface LoadgenReport {
  publishers: number;
  subscribers: number;
  setupMs: number;
  window: {
    seconds: number;
    audio: LoadgenKind; video: LoadgenKind; total: LoadgenKind;
    rates: { sentPacketsPerSecond: number; receivedPacketsPerSecond: number; receivedMbps: number };
  };
  errors: string[];
}

/** A progress event the generator writes to stderr (`window-start`, `window-end`, …). */
export interface LoadgenEvent { event: string; t: number; [key: string]: unknown }

/**
 * Runs the generator on `config` and resolves to its report. `onEvent` sees each progress event as it
 * comes (the bench reads the server's CPU at the window's edges); `prefix` runs it under e.g. taskset.
 */
export function runLoadgen(config: LoadgenConfig, options: { livekit?: boolean; onEvent?: (e: LoadgenEvent) => void; prefix?: string[]; timeoutMs?: number } = {}): Promise<LoadgenReport> {
  const binary = `${LOADGEN_DIR}bin/${options.livekit ? 'loadgen-livekit' : 'loadgen'}`;
  const [command, ...args] = [...(options.prefix ?? []), binary];
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(JSON.stringify({ mediaDir: LOADGEN_MEDIA_DIR, concurrency: 4, ...config }));
  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('{"event"')) options.onEvent?.(JSON.parse(line) as LoadgenEvent);
      else stderr += `${line}\n`;
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`loadgen exited with ${code ?? signal}: ${stderr.slice(-2000)}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as LoadgenReport);
      } catch {
        reject(new Error(`loadgen printed no report: ${stdout.slice(0, 500)} ${stderr.slice(-2000)}`));
      }
    });
  });
}
