import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './server-process.js';

/** Debian's redis-server on loopback with a run-time port and no persistence, started and stopped by a test. */
export class RedisServer {
  readonly #child: ChildProcess;
  readonly url: string;

  private constructor(child: ChildProcess, port: number) {
    this.#child = child;
    this.url = `redis://127.0.0.1:${port}`;
  }

  static async start(): Promise<RedisServer> {
    const port = await freePort();
    return new RedisServer(await spawnRedis(port), port);
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.#child.kill('SIGTERM');
    await exited;
  }
}

/** Starts redis-server on `port` (no persistence); resolves when it accepts connections. */
export async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('redis-server did not start in time')), 15_000);
    let output = '';
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
      reject(new Error(`redis-server exited with ${code}: ${output.slice(-2000)}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}
