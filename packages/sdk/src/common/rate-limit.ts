import { invalidOperation, MESSAGE } from '../errors/catalogue.js';

/**
 * The per-second call frequency limit (docs/behaviour.md §5): each API function may be called at most
 * `perSecond` times in any one-second window; beyond that it fails with 'call frequency limit exceeded'.
 */
export class CallRateLimiter {
  private readonly _perSecond: number;
  private readonly _calls = new Map<string, number[]>();
  private readonly _now: () => number;

  constructor(perSecond: number, now: () => number = () => Date.now()) {
    this._perSecond = perSecond;
    this._now = now;
  }

  /** Records a call; throws INVALID_OPERATION when over the limit. */
  check(functionName: string): void {
    const now = this._now();
    const recent = (this._calls.get(functionName) ?? []).filter((t) => now - t < 1000);
    if (recent.length >= this._perSecond) {
      this._calls.set(functionName, recent);
      throw invalidOperation(undefined, MESSAGE.CALL_FREQUENCY, functionName);
    }
    recent.push(now);
    this._calls.set(functionName, recent);
  }
}
