import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import { EngineError, type EngineRefusal } from '../media-engine.js';
import { watchParent } from '../child-watchdog.js';

/** worker/ at the repository root: the crate, build.sh and (gitignored) target/ (src/ and dist/ sit at one depth). */
const CRATE_DIR = fileURLToPath(new URL('../../../../../worker/', import.meta.url));
const BUILT_BINARY = `${CRATE_DIR}target/release/conclave-media-worker`;
/** How long a first build may take (a fresh machine compiles str0m and its crates: about two minutes on 2 cores). */
const BUILD_TIMEOUT_MS = 15 * 60_000;
const REQUEST_TIMEOUT_MS = 10_000;
const RESTART_BACKOFF_MS = 1000;

/** What the worker tells without being asked (worker/README.md "Events"). */
export type WorkerEvent =
  | { event: 'ready'; address: string; port: number }
  | { event: 'feed-up'; participant: string }
  | { event: 'uplink-lost'; participant: string; detail: string }
  | { event: 'downlink-failed'; subscriber: string; detail: string }
  | { event: 'census'; peers: number }
  | { event: 'counters'; forwardedPackets: number; forwardedBytes: number; forwardedFrames: number; received: Record<'audio' | 'video' | 'small' | 'aux', number> };

export interface WorkerProcessOptions {
  /** The address the worker's one UDP socket binds (its host candidate). */
  iceAddress: string;
  /** A binary to run instead of worker/target/release (CONCLAVE_WORKER_BINARY). */
  binary?: string;
  logger?: Logger;
}

type Pending = { resolve: (value: Record<string, unknown>) => void; reject: (error: EngineError) => void; timer: NodeJS.Timeout };

/** The worker's binary: the configured one, else the crate's build (worker/build.sh run on first use). */
export async function workerBinary(binary?: string): Promise<string> {
  if (binary) return binary;
  if (!existsSync(BUILT_BINARY)) {
    try {
      await promisify(execFile)('sh', [`${CRATE_DIR}build.sh`], { timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 << 20 });
    } catch (error) {
      throw EngineError.from(error, 'unavailable');
    }
  }
  return BUILT_BINARY;
}

/**
 * The worker process, supervised: requests and replies are lines of JSON on its stdin and stdout (worker/README.md).
 * An unexpected exit rejects the requests in flight ('unavailable'), is logged, and starts a new worker after a
 * backoff; `onRestart` is told, so the engine drops what the old one held.
 */
export class WorkerProcess {
  readonly #options: WorkerProcessOptions;
  readonly #binary: string;
  readonly #pending = new Map<number, Pending>();
  #child: ChildProcess | undefined;
  #ready: Promise<void> = Promise.resolve();
  #nextId = 1;
  #stopping = false;
  #lastStart = 0;
  /** Lines the worker wrote on stderr (its failures), logged when there is a logger. */
  stderrLines = 0;
  onEvent: (event: WorkerEvent) => void = () => undefined;
  onRestart: () => void = () => undefined;

  private constructor(options: WorkerProcessOptions, binary: string) {
    this.#options = options;
    this.#binary = binary;
  }

  static async start(options: WorkerProcessOptions): Promise<WorkerProcess> {
    const worker = new WorkerProcess(options, await workerBinary(options.binary));
    worker.#spawn();
    await worker.#ready;
    return worker;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  #spawn(): void {
    this.#lastStart = Date.now();
    const child = spawn(this.#binary, ['--ip', this.#options.iceAddress, '--port', '0'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.#child = child;
    watchParent(child);
    let ready!: () => void;
    let failed!: (error: EngineError) => void;
    this.#ready = new Promise<void>((resolve, reject) => { ready = resolve; failed = reject; });
    this.#ready.catch(() => undefined); // told to the caller of the request that waits for it
    createInterface({ input: child.stdout! }).on('line', (line) => this.#line(line, ready));
    createInterface({ input: child.stderr! }).on('line', (line) => {
      this.stderrLines++;
      if (this.#options.logger) this.#options.logger.warn({ worker: line }, 'media worker');
      else process.stderr.write(`media worker: ${line}\n`);
    });
    child.on('error', (error) => failed(EngineError.from(error, 'unavailable')));
    child.on('exit', (code, signal) => {
      if (this.#child !== child) return;
      this.#child = undefined;
      const error = new EngineError(this.#stopping ? 'closed' : 'unavailable', `the media worker exited (${signal ?? code})`);
      failed(error);
      for (const pending of this.#pending.values()) {
        clearTimeout(pending.timer);
        pending.reject(error);
      }
      this.#pending.clear();
      if (this.#stopping) return;
      this.#options.logger?.error({ code, signal }, 'the media worker exited; restarting it');
      setTimeout(() => {
        if (this.#stopping) return;
        this.#spawn();
        this.onRestart();
      }, Math.max(0, RESTART_BACKOFF_MS - (Date.now() - this.#lastStart)));
    });
  }

  #line(line: string, ready: () => void): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.#options.logger?.warn({ line }, 'the media worker wrote a line that is not JSON'); // dropped: no request to answer
      return;
    }
    if (typeof message.event === 'string') {
      if (message.event === 'ready') ready();
      this.onEvent(message as unknown as WorkerEvent);
      return;
    }
    const pending = this.#pending.get(Number(message.id));
    if (!pending) return; // its request timed out already (and was rejected then)
    this.#pending.delete(Number(message.id));
    clearTimeout(pending.timer);
    const error = message.error as { reason?: EngineRefusal; message?: string } | undefined;
    if (error) pending.reject(new EngineError(error.reason ?? 'refused', error.message ?? 'the media worker refused'));
    else pending.resolve(message);
  }

  /** Sends one operation; resolves with the worker's reply, rejects with its EngineError ('unavailable' when it is down). */
  async request(op: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    await this.#ready;
    const child = this.#child;
    if (!child?.stdin?.writable) throw new EngineError(this.#stopping ? 'closed' : 'unavailable', 'the media worker is not running');
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new EngineError('unavailable', `the media worker did not answer '${op}' within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      child.stdin!.write(`${JSON.stringify({ id, op, ...fields })}\n`);
    });
  }

  /** Resident memory of the worker, from /proc; undefined when unknown. */
  memoryBytes(): number | undefined {
    const pid = this.#child?.pid;
    if (!pid) return undefined;
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined; // the process went meanwhile: unknown, as the contract says
    }
  }

  /** Kills the worker (tests: a crash). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    this.#child?.kill(signal);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    const child = this.#child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}
