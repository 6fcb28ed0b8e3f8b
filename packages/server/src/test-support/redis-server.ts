import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './ports.js';

/**
 * Debian's redis-server on a loopback port with no persistence, which a test can stop (SIGKILL: an outage)
 * and start again on the same port (empty: Redis lost its data).
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
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start in 15 s: ${output.slice(-1000)}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`cannot start redis-server (apt-get install redis-server): ${error.message}`));
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${String(code)}: ${output.slice(-1000)}`));
      });
    });
    child.removeAllListeners('exit');
    this.#child = child;
  }

  /** Kills it at once (an outage: connections drop, nothing is saved). */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
