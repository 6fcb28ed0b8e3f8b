import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/engine-peers.js';

const MODULE = fileURLToPath(new URL('../../src/engine/child-watchdog.ts', import.meta.url));

/** Whether a process with this pid exists and is not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return true;
}

/** Watchdog shells of `pid` still running (found by their command line). */
function watchdogsOf(pid: number): number {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).filter((entry) => {
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(`kill -9 ${pid} `);
    } catch {
      return false;
    }
  }).length;
}

/** A node process that runs `sleep` under watchParent (as the server runs Janus) and prints the sleeper's pid. */
function parentWithWatchedChild(sleep = ['60']): Promise<{ parent: ReturnType<typeof spawn>; childPid: number }> {
  const code = `import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs'; import { watchParent } from ${JSON.stringify(MODULE)};
    const child = spawn('sleep', ${JSON.stringify(sleep)}, { stdio: 'ignore' }); watchParent(child); console.log(child.pid); setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    parent.stdout?.once('data', (chunk: Buffer) => resolve({ parent, childPid: Number(chunk.toString().trim()) }));
    parent.once('exit', (exitCode) => reject(new Error(`parent exited (${exitCode}) before its child started`)));
  });
}

describe('Janus watchdog (janus-process.ts watchParent)', () => {
  it('kills the watched process when the server is SIGKILLed', async () => {
    const { parent, childPid } = await parentWithWatchedChild();
    expect(alive(childPid)).toBe(true);
    expect(watchdogsOf(childPid)).toBeGreaterThanOrEqual(1); // its shell (and a moment's subshell)
    parent.kill('SIGKILL');
    await waitFor(() => !alive(childPid), 5_000, 'the watched child to be killed');
  }, 20_000);

  it('goes away with its process: once the watched process has exited no watchdog is left to kill its pid (which may be reused)', async () => {
    const { parent, childPid } = await parentWithWatchedChild(['0.3']);
    try {
      await waitFor(() => !alive(childPid), 5_000, 'the watched child to exit');
      await waitFor(() => watchdogsOf(childPid) === 0, 5_000, 'its watchdog to exit');
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
