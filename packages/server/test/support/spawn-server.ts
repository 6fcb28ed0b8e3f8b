import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerOverrides } from '../../src/config/config.js';

/** A server in a child process (child-server.ts): its URL, and how to stop it. */
export interface ChildServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts child-server.ts under tsx; resolves once it listens (bounded). */
export function spawnTestServer(overrides: ServerOverrides, timeoutMs = 30_000): Promise<ChildServer> {
  const script = fileURLToPath(new URL('./child-server.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(overrides)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child server did not start in ${timeoutMs} ms: ${output}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the child server exited with ${code}: ${output}`));
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /listening (\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
