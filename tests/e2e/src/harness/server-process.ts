import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { genUserSig } from '@conclave/usersig';
import { E2E_ENGINE, TEST_APP } from './server.js';

/**
 * The built server CLI (`conclave-server`) as a separate process on a fixed port, so a test can
 * kill it outright and start it again where clients expect it.
 */
export class ServerCli {
  #child: ChildProcess | undefined;
  readonly port: number;
  readonly url: string;
  readonly #env: NodeJS.ProcessEnv;

  constructor(port: number, env: NodeJS.ProcessEnv = {}) {
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
    this.#env = env;
  }

  /** Starts the process; resolves once it prints its URL (bounded). */
  async start(timeoutMs = 20_000): Promise<void> {
    const cli = fileURLToPath(new URL('../../../../packages/server/dist/cli.js', import.meta.url));
    const child = spawn(process.execPath, [cli], {
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '0.0.0.0',
        CONCLAVE_SDKAPPID: String(TEST_APP.sdkAppId),
        CONCLAVE_SECRET_KEY: TEST_APP.secretKey,
        CONCLAVE_ICE_ADDRESS: '127.0.0.1',
        CONCLAVE_ENGINE: E2E_ENGINE,
        CONCLAVE_LOG_LEVEL: process.env.CONCLAVE_LOG_LEVEL ?? 'warn',
        ...this.#env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('server CLI did not start in time')), timeoutMs);
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        const text = chunk.toString();
        // The server's own lifecycle lines (signals, forced exit) belong in the test log.
        for (const line of text.split('\n')) if (line.startsWith('conclave-server:')) process.stdout.write(`[server :${this.port}] ${line}\n`);
        if (output.includes('Conclave is running at')) return;
        output += text;
        if (output.includes('Conclave is running at')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server CLI exited with ${code}: ${output}`));
      });
    });
    child.removeAllListeners('exit');
  }

  /** Kills the process with SIGKILL: no goodbye to anyone. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.#child = undefined;
  }

  /** True while the process runs. */
  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Sends `signal` and resolves when the process has exited, with how long that took. */
  async stopWith(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return { code: child?.exitCode ?? null, signal: child?.signalCode ?? null, ms: 0 };
    const started = performance.now();
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, sig) => resolve({ code, signal: sig })));
    child.kill(signal);
    const result = await exited;
    this.#child = undefined;
    return { ...result, ms: performance.now() - started };
  }

  sig(userId: string): Promise<string> {
    return genUserSig({ sdkAppId: TEST_APP.sdkAppId, secretKey: TEST_APP.secretKey, userId });
  }
}
