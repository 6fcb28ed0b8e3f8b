/**
 * The servers of the load bench (bench/README.md "Load: cost per forwarded packet"): Conclave with either
 * engine (the bench's server child) and LiveKit server v1.13.5 in dev mode, each on loopback with its
 * process tree pinned to core 0; the CPU time of that tree.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from '../../tests/kit/ports.js';
import { LOADGEN_DIR } from '../../tests/e2e/src/harness/loadgen.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import { startFloor } from './load-floor.js';
import { processTree, treeCpu } from './proc.js';
import { ServerProcess } from './server-process.js';

/** `floor`: the floor forwarder (load-floor.ts), the yardstick of what forwarding alone costs. */
export type LoadEngine = 'embedded' | 'janus' | 'livekit' | 'floor';

export const LIVEKIT_VERSION = 'v1.13.5';
export const LIVEKIT_KEY = { apiKey: 'devkey', apiSecret: 'secret' };

/** A server under load: where the generator connects and the root of the process tree to measure. */
export interface LoadServer {
  engine: LoadEngine;
  /** Conclave: the HTTP origin; LiveKit: its ws:// URL; the floor: udp://127.0.0.1:port. */
  url: string;
  pid: number;
  /** A userSig for Conclave users (LiveKit's tokens are minted by the generator). */
  sig(userId: string): Promise<string>;
  close(): Promise<void>;
}

const run = promisify(execFile);

/** Pins every thread of the server's process tree to `core` (taskset), as processes come and go. */
export async function pin(server: LoadServer, core: number): Promise<void> {
  for (const pid of processTree(server.pid)) await run('taskset', ['-a', '-p', '-c', String(core), String(pid)]).catch(() => undefined);
}

/** CPU ms of the server's process tree so far. */
export function serverCpuMs(server: LoadServer): number {
  return treeCpu(server.pid);
}

/** Builds LiveKit server from the Go module proxy once (bench/loadgen/livekit-server.sh); returns its path and the ms it took. */
export async function buildLivekit(): Promise<{ path: string; ms: number }> {
  const t0 = performance.now();
  await run('sh', [`${LOADGEN_DIR}livekit-server.sh`], { timeout: 1_800_000, maxBuffer: 16 << 20 });
  return { path: `${LOADGEN_DIR}bin/livekit-server-${LIVEKIT_VERSION}`, ms: performance.now() - t0 };
}

/**
 * Which libsrtp the Janus engine runs with (BENCH_JANUS_SRTP): 'debian' (default), the system's, built with NSS, as
 * `npm start` runs it; 'openssl', libsrtp2 built with OpenSSL's crypto once by loadgen/libsrtp-openssl.sh and handed
 * to Janus through CONCLAVE_JANUS_LIBRARY_PATH (fewer instructions per SRTP packet under callgrind, but no less CPU
 * time on the meeting shape: bench/README.md "Janus: where a forwarded packet's instructions go").
 */
export const JANUS_SRTP = process.env.BENCH_JANUS_SRTP === 'openssl' ? 'openssl' : 'debian';

let libsrtpDir: Promise<string> | undefined;
/** The environment that gives the Janus engine the libsrtp of JANUS_SRTP (builds it the first time). */
export async function janusSrtpEnv(): Promise<Record<string, string>> {
  if (JANUS_SRTP === 'debian') return {};
  libsrtpDir ??= run('sh', [`${LOADGEN_DIR}libsrtp-openssl.sh`], { timeout: 600_000, maxBuffer: 16 << 20 }).then(({ stdout }) => stdout.trim().split('\n').pop() ?? '');
  return { CONCLAVE_JANUS_LIBRARY_PATH: await libsrtpDir };
}

async function startConclave(engine: 'embedded' | 'janus', env: Record<string, string>): Promise<LoadServer> {
  // All the generator's users come from one address: lift the per-address connection limit (50). Errors only:
  // the server child's log shares stdout with the table.
  const srtp = engine === 'janus' ? await janusSrtpEnv() : {};
  const settings = { CONCLAVE_ENGINE: engine, CONCLAVE_MAX_CONNECTIONS_PER_IP: '100000', CONCLAVE_LOG_LEVEL: process.env.CONCLAVE_LOG_LEVEL ?? 'error', ...srtp, ...env };
  // A generous start-up bound: on a shared, loaded machine the child's module loading alone can pass 20 s.
  const server = await ServerProcess.start({ env: settings, timeoutMs: 90_000 });
  return { engine, url: server.url, pid: server.pid, sig: (userId) => server.sig(userId), close: () => server.close() };
}

/**
 * A livekit-server in dev mode (keys devkey/secret) on free ports, bound to `bind` and announcing `nodeIp` as its
 * ICE candidate (one UDP port, muxed), once its HTTP port answers; dev mode's default log level (debug) is replaced.
 */
export async function spawnLivekit(binary: string, options: { bind: string; nodeIp: string; logLevel: 'warn' | 'error'; startTimeoutMs: number }): Promise<{ port: number; pid: number; close(): Promise<void> }> {
  const [port, udpPort, tcpPort] = [await freePort(), await freePort(), await freePort()];
  const config = `port: ${port}\nrtc:\n  udp_port: ${udpPort}\n  tcp_port: ${tcpPort}\n  use_external_ip: false\nlogging:\n  level: ${options.logLevel}\n`;
  const child: ChildProcess = spawn(binary, ['--dev', '--bind', options.bind, '--node-ip', options.nodeIp, '--config-body', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + options.startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`livekit-server exited with ${child.exitCode}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`livekit-server did not start within ${options.startTimeoutMs / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (child.pid === undefined) throw new Error('livekit-server has no pid');
  return {
    port, pid: child.pid,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function startLivekit(binary: string, startTimeoutMs: number): Promise<LoadServer> {
  const server = await spawnLivekit(binary, { bind: '127.0.0.1', nodeIp: '127.0.0.1', logLevel: 'warn', startTimeoutMs });
  return { engine: 'livekit', url: `ws://127.0.0.1:${server.port}`, pid: server.pid, sig: () => Promise.resolve(''), close: server.close };
}

async function startFloorServer(binary: string | undefined, startTimeoutMs: number): Promise<LoadServer> {
  const floor = await startFloor(startTimeoutMs, binary);
  return { engine: 'floor', url: floor.url, pid: floor.pid, sig: () => Promise.resolve(''), close: () => floor.close() };
}

/**
 * Starts the server of `engine` on loopback, pinned to `core`. `env` goes to Conclave's server (e.g.
 * CONCLAVE_JANUS_BIN, a wrapper the server runs Janus through); `startTimeoutMs` bounds LiveKit's and the floor's
 * start (30 s); `floorBinary` runs the floor through a wrapper (callgrind).
 */
export async function startLoadServer(engine: LoadEngine, core: number, livekitBinary?: string, { env = {}, startTimeoutMs = 30_000, floorBinary }: { env?: Record<string, string>; startTimeoutMs?: number; floorBinary?: string } = {}): Promise<LoadServer> {
  const server = engine === 'livekit' ? await startLivekit(livekitBinary ?? (await buildLivekit()).path, startTimeoutMs)
    : engine === 'floor' ? await startFloorServer(floorBinary, startTimeoutMs) : await startConclave(engine, env);
  await pin(server, core);
  return server;
}

/** The Conclave app the generator's users belong to. */
export const LOAD_APP_ID = TEST_APP.sdkAppId;
