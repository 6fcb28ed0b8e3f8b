import type { ChildProcess } from 'node:child_process';

/** How a child process a test starts says it is up, and what its errors call it. */
export interface ReadyLine {
  /** What its stdout or stderr prints once it is ready. */
  ready: string | RegExp;
  /** Its name in the errors ('redis-server', 'coturn'). */
  name: string;
  /** The Debian package to install when it cannot be spawned. */
  install?: string;
  /** How long it may take (default 15 s). */
  timeoutMs?: number;
}

/**
 * Resolves once `child` prints its ready line on stdout or stderr; rejects when it cannot be spawned, exits first
 * or is not ready in time, the error ending with what it printed. (The one start-up wait of the servers the tests
 * spawn: Redis, coturn, the server CLI.)
 */
export function whenReady(child: ChildProcess, { ready, name, install, timeoutMs = 15_000 }: ReadyLine): Promise<void> {
  let output = '';
  return new Promise<void>((resolve, reject) => {
    // Settled once: the output listeners go, so a child that keeps logging is not searched again chunk by chunk
    // (its streams stay flowing: it never blocks on a full pipe). The error listener stays: a later 'error' (a
    // failed kill) must not go unhandled.
    const settle = (error?: Error) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => settle(new Error(`${name} did not start in ${timeoutMs / 1000} s: ${output.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (typeof ready === 'string' ? output.includes(ready) : ready.test(output)) settle();
    };
    const onError = (error: Error) => settle(new Error(`cannot start ${name}${install ? ` (apt-get install ${install})` : ''}: ${error.message}`));
    const onExit = (code: number | null) => settle(new Error(`${name} exited with ${String(code)}: ${output.slice(-2000)}`));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', onError);
    child.once('exit', onExit);
  });
}
