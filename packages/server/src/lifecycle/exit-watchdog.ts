import { Worker } from 'node:worker_threads';

/** The watchdog thread: sleeps, then kills the whole process. Plain JS, evaluated as a CommonJS worker. */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
setTimeout(() => {
  try { process.stderr.write('conclave-server: forced exit: shutdown took longer than ' + workerData.ms + ' ms\\n'); } catch {}
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);
`;

/**
 * Guarantees the process ends `ms` from now. The deadline runs on a thread of its own and ends the
 * process with SIGKILL, so it holds even when the main thread is too busy to run a timer (an
 * overloaded media plane, a synchronous flush of logs to a full pipe); a timer on the main thread, as
 * before, could be starved indefinitely. The thread is unref'd: a shutdown that finishes in time exits
 * normally.
 */
export function armExitWatchdog(ms: number): void {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { pid: process.pid, ms } });
  worker.unref();
}
