import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './ports.js';
import { whenReady } from './child-output.js';

/**
 * Starts Debian's redis-server on loopback `port` with no persistence; resolves when it accepts connections.
 * (The one Redis starter of the tests: the server's unit tests, tests/e2e and bench use it.)
 */
export async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await whenReady(child, { ready: 'Ready to accept connections', name: 'redis-server', install: 'redis-server' });
  return child;
}

/**
 * redis-server on a loopback port chosen at run time, with no persistence, which a test can stop, kill (SIGKILL:
 * an outage) and start again on the same port (empty: Redis lost its data).
 */
export class TestRedis {
  readonly port: number;
  #child: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort());
    await redis.restart();
    return redis;
  }

  /** Starts it (again) on its port; resolves when it accepts connections. */
  async restart(): Promise<void> {
    this.#child = await spawnRedis(this.port);
  }

  /** Kills it at once (an outage: connections drop, nothing is saved). */
  kill(): Promise<void> {
    return this.#end('SIGKILL');
  }

  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void> {
    return this.#end('SIGTERM');
  }

  async #end(signal: NodeJS.Signals): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}
