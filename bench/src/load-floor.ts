/**
 * The load lab's floor forwarder (bench/floor, Rust; bench/README.md "Load: cost per forwarded packet"): building
 * it with cargo, starting it on loopback, and asking it for its counters. The generator drives it with plain SRTP
 * (bench/loadgen/floor), so its CPU per forwarded packet is what forwarding alone costs.
 */
import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** bench/floor: the crate, build.sh, and (gitignored) target/. */
export const FLOOR_DIR = fileURLToPath(new URL('../floor/', import.meta.url));
export const FLOOR_BINARY = `${FLOOR_DIR}target/release/floor`;

/** Builds the floor (cargo; the first build fetches its crates); returns the ms it took. */
export async function buildFloor(timeoutMs = 600_000): Promise<number> {
  const t0 = performance.now();
  await promisify(execFile)('sh', [`${FLOOR_DIR}build.sh`], { timeout: timeoutMs, maxBuffer: 16 << 20 });
  return performance.now() - t0;
}

/** Whether the floor has been built (bench/floor/build.sh; its smoke test builds it). */
export const floorBuilt = (): boolean => existsSync(FLOOR_BINARY);

export interface FloorProcess {
  /** The generator's URL of it: udp://127.0.0.1:port. */
  url: string;
  port: number;
  pid: number;
  close(): Promise<void>;
}

/** Starts the floor (or `binary`, e.g. a wrapper that runs it under callgrind) on a free loopback port; resolves once it listens. */
export function startFloor(timeoutMs = 10_000, binary = FLOOR_BINARY): Promise<FloorProcess> {
  const child = spawn(binary, ['--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the floor did not listen within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the floor exited with ${code}`));
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /^listening [\d.]+:(\d+)$/m.exec(out)?.[1];
      if (!port || child.pid === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url: `udp://127.0.0.1:${port}`, port: Number(port), pid: child.pid,
        close: async () => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((done) => child.once('exit', done));
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** The floor's counters (routes.rs `stats`). */
export interface FloorStats {
  received: number; forwarded: number; auth_failed: number; replayed: number; unknown_ssrc: number;
  malformed: number; send_failed: number; routes: number; outputs: number;
}

/** Asks the floor at `port` for its counters (a control datagram, retried until answered). */
export async function floorStats(port: number, timeoutMs = 5000): Promise<FloorStats> {
  const socket = createSocket('udp4');
  try {
    const reply = await new Promise<string>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('the floor did not answer its stats request')), timeoutMs);
      socket.on('message', (msg) => {
        clearTimeout(deadline);
        clearInterval(retry);
        resolve(msg.toString());
      });
      const ask = () => socket.send('C 1\nstats\n', port, '127.0.0.1');
      const retry = setInterval(ask, 250);
      ask();
    });
    const stats: Record<string, number> = {};
    for (const [, key, value] of reply.matchAll(/(\w+)=(\d+)/g)) stats[key] = Number(value);
    return stats as unknown as FloorStats;
  } finally {
    socket.close();
  }
}
