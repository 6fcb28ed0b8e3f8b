import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RunningServer, ServerConfig } from '@conclave/server';
import { genUserSig } from '@conclave/usersig';
import { readProcCpu, type CpuSample } from './proc.js';
import { TEST_APP, type TestServer } from '../../tests/e2e/src/harness/server.js';

export type ServerStats = ReturnType<RunningServer['stats']>;

export type ChildRequest = { type: 'stats'; id: number } | { type: 'close' };
export type ChildReply =
  | { type: 'ready'; url: string; port: number; config: ServerConfig }
  | { type: 'stats'; id: number; stats: ServerStats; cpu: NodeJS.CpuUsage };

/**
 * The Conclave server in its own Node process, so that its CPU time can be measured apart from the
 * benchmark driver (playwright) and Chromium. Implements the e2e harness's TestServer so the harness's
 * join() works against it; stats() returns the snapshot of the last fetchStats().
 */
export class ServerProcess implements TestServer {
  readonly #child: ChildProcess;
  readonly url: string;
  readonly port: number;
  readonly config: ServerConfig;
  /** Not a cluster node. */
  readonly nodeId = undefined;
  #lastStats: ServerStats = { rooms: 0, users: 0, uplinks: 0, downlinks: 0, subscriptions: 0, forwardedPackets: 0, forwardedBytes: 0, receivedPackets: undefined };
  #nextId = 1;
  readonly #pending = new Map<number, (reply: { stats: ServerStats; cpu: NodeJS.CpuUsage }) => void>();

  private constructor(child: ChildProcess, ready: Extract<ChildReply, { type: 'ready' }>) {
    this.#child = child;
    this.url = ready.url;
    this.port = ready.port;
    this.config = ready.config;
    child.on('message', (reply: ChildReply) => {
      if (reply.type !== 'stats') return;
      this.#pending.get(reply.id)?.(reply);
      this.#pending.delete(reply.id);
    });
  }

  /**
   * Forks the server child on a free loopback port with the e2e test app; resolves once it listens. `env` adds
   * to (or overrides) this process's environment for the child only, e.g. `{ CONCLAVE_ENGINE: 'janus' }`.
   */
  static async start({ env = {}, timeoutMs = 20_000 }: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<ServerProcess> {
    const entry = fileURLToPath(new URL('./server-child.ts', import.meta.url));
    const child = fork(entry, [], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      // BENCH_SERVER_NODE_ARGS, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof', to profile the server.
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        CONCLAVE_SDKAPPID: String(TEST_APP.sdkAppId),
        CONCLAVE_SECRET_KEY: TEST_APP.secretKey,
        CONCLAVE_ICE_ADDRESS: '127.0.0.1',
        CONCLAVE_LOG_LEVEL: process.env.CONCLAVE_LOG_LEVEL ?? 'warn',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<Extract<ChildReply, { type: 'ready' }>>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A child that never got ready must not outlive the bench (it would keep it from exiting).
        child.kill('SIGKILL');
        reject(new Error(`server child did not start within ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server child exited with code ${code} before it was ready`));
      });
      child.on('message', (reply: ChildReply) => {
        if (reply.type !== 'ready') return;
        clearTimeout(timer);
        resolve(reply);
      });
    });
    child.removeAllListeners('exit');
    return new ServerProcess(child, ready);
  }

  get pid(): number {
    if (this.#child.pid === undefined) throw new Error('server child has no pid');
    return this.#child.pid;
  }

  /** CPU time of the server process so far. */
  cpu(): CpuSample {
    return readProcCpu(this.pid);
  }

  /** Nothing to drain outside a cluster. */
  async drain(): Promise<void> {}

  /** Asks the child for its current stats() and process.cpuUsage() (bounded wait). */
  #request(timeoutMs: number): Promise<{ stats: ServerStats; cpu: NodeJS.CpuUsage }> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error('server child did not answer a stats request'));
      }, timeoutMs);
      this.#pending.set(id, (reply) => {
        clearTimeout(timer);
        this.#lastStats = reply.stats;
        resolve(reply);
      });
      this.#child.send({ type: 'stats', id } satisfies ChildRequest);
    });
  }

  /** The child's current stats(). */
  async fetchStats(timeoutMs = 5_000): Promise<ServerStats> {
    return (await this.#request(timeoutMs)).stats;
  }

  /** The child's own process.cpuUsage() (µs), a cross-check of /proc. */
  async fetchCpuUsage(timeoutMs = 5_000): Promise<NodeJS.CpuUsage> {
    return (await this.#request(timeoutMs)).cpu;
  }

  /** The snapshot taken by the last fetchStats(). */
  stats(): ServerStats {
    return this.#lastStats;
  }

  sig(userId: string, options: { expire?: number; now?: number; secretKey?: string } = {}): Promise<string> {
    return genUserSig({ sdkAppId: TEST_APP.sdkAppId, secretKey: options.secretKey ?? TEST_APP.secretKey, userId, expire: options.expire, now: options.now });
  }

  /** Closes the server gracefully, killing the child if it does not exit in time. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#child.once('exit', () => resolve()));
    if (this.#child.connected) this.#child.send({ type: 'close' } satisfies ChildRequest);
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}
