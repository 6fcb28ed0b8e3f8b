/**
 * Optional CPU pinning for a cleaner reading: the server on one core, the load client on another
 * (`taskset -a -cp`, every thread of the process). Without taskset, or with one core, nothing is pinned.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** Pins every thread of `pid` to `core`; false when it could not. */
export function pin(pid: number, core: number): boolean {
  if (availableParallelism() <= core) return false;
  try {
    execFileSync('taskset', ['-a', '-cp', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
