import { monitorEventLoopDelay } from 'node:perf_hooks';
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
  /**
   * Guarantees the process ends `ms` after the signal that asked for it (the first call counts): the deadline is
   * shortened by the main thread's recent event-loop delay, the time the signal may have waited for its handler.
   * Returns that allowance, ms.
   */
  arm(ms: number): number;
}

/** How often the event-loop delay window restarts, ms: the allowance reflects the last few seconds. */
const LAG_WINDOW_MS = 5_000;

/**
 * Starts the watchdog thread now, idle, so that arming it at shutdown is one message: starting a thread (a new
 * V8 isolate) when the signal arrives took over a second on an overloaded machine, and that time counted against
 * the forced-exit deadline. The deadline then runs on its own thread and ends the process with SIGKILL, so it holds
 * even when the main thread is too busy to run a timer (an overloaded media plane, a synchronous flush of logs to a
 * full pipe). The thread is unref'd: it never keeps the process alive, and a shutdown that finishes in time exits
 * normally. An overloaded main thread also handles the signal late, so the deadline allows for the event-loop delay
 * it has had lately.
 */
export function startExitWatchdog(): ExitWatchdog {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { pid: process.pid } });
  worker.unref();
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  let previousMaxMs = 0;
  const window = setInterval(() => {
    previousMaxMs = lag.max / 1e6;
    lag.reset();
  }, LAG_WINDOW_MS);
  window.unref();
  let armed = false;
  return {
    arm(ms: number): number {
      if (armed) return 0;
      armed = true;
      clearInterval(window);
      const allowance = Math.min(ms / 2, Math.max(previousMaxMs, lag.max / 1e6));
      lag.disable();
      worker.postMessage(Math.max(0, ms - allowance));
      return allowance;
    },
  };
}
