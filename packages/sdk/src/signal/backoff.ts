import { fibonacci } from '../common/fibonacci.js';

/** After this many attempts the delay stops growing (docs/behaviour.md §4). */
const CAP_AFTER_ATTEMPT = 8;
const CAP_MS = 30_000;

/**
 * Delay before reconnection attempt `attempt` (1-based): the Fibonacci series in seconds
 * (1, 1, 2, 3, 5, 8, 13, 21), capped at 30 s once the attempt number exceeds 8.
 */
export function reconnectDelayMs(attempt: number): number {
  if (attempt > CAP_AFTER_ATTEMPT) return CAP_MS;
  return Math.min(CAP_MS, fibonacci(attempt) * 1000);
}
