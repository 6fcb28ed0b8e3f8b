import { invalidOperation, MESSAGE } from '../errors/catalogue.js';

/**
 * The per-second call frequency limit (SPEC §5): each API function may be called at most
 * `perSecond` times in any one-second window; beyond that it fails with 'call frequency limit exceeded'.
 */
export class CallRateLimiter {
  readonly #perSecond: number;
  readonly #calls = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(perSecond: number, now: () => number = () => Date.now()) {
    this.#perSecond = perSecond;
    this.#now = now;
  }

  /** Records a call; throws INVALID_OPERATION when over the limit. */
  check(functionName: string): void {
    const now = this.#now();
    const recent = (this.#calls.get(functionName) ?? []).filter((t) => now - t < 1000);
    if (recent.length >= this.#perSecond) {
      this.#calls.set(functionName, recent);
      throw invalidOperation(undefined, MESSAGE.CALL_FREQUENCY, functionName);
    }
    recent.push(now);
    this.#calls.set(functionName, recent);
  }
}
