import { Worker } from 'node:worker_threads';

/** The watchdog thread: waits for a deadline, sleeps until it, then kills the whole process. Plain JS, evaluated as a CommonJS worker. */
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.once('message', (ms) => {
  setTimeout(() => {
    try { process.stderr.write('conclave-server: forced exit: shutdown took longer than ' + ms + ' ms\\n'); } catch {}
    process.kill(workerData.pid, 'SIGKILL');
  }, ms);
});
`;

/** A started watchdog thread, idle until armed. */
export interface ExitWatchdog {
  /** Guarantees the process ends `ms` from now (the first call counts). */
  arm(ms: number): void;
}

/**
 * Starts the watchdog thread now, idle, so that arming it at shutdown is one message: starting a thread (a new
 * V8 isolate) when the signal arrives took over a second on an overloaded machine, and that time counted against
 * the forced-exit deadline. The deadline then runs on its own thread and ends the process with SIGKILL, so it holds
 * even when the main thread is too busy to run a timer (an overloaded media plane, a synchronous flush of logs to a
 * full pipe). The thread is unref'd: it never keeps the process alive, and a shutdown that finishes in time exits
 * normally.
 */
export function startExitWatchdog(): ExitWatchdog {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { pid: process.pid } });
  worker.unref();
  let armed = false;
  return {
    arm(ms: number): void {
      if (armed) return;
      armed = true;
      worker.postMessage(ms);
    },
  };
}
