import { SERVER_CODE } from '@conclave/protocol';

/** One budget: `amount` units per `windowMs`, refilled continuously (a token bucket holding one window's worth). */
export interface RateBudget {
  amount: number;
  windowMs: number;
}

interface Bucket {
  /** Tokens per budget (count, then bytes). */
  tokens: number[];
  at: number;
}

/**
 * Per-key rate limiting over one or two budgets (a count of events, and optionally a number of bytes):
 * a token bucket per key that holds one window's worth and refills continuously, so a key may send a
 * window's worth at once and then keeps to the rate. A take that would exceed any budget is refused
 * and consumes nothing. Memory is bounded: keys whose buckets are full again are dropped, and past
 * `maxKeys` the oldest key is forgotten.
 */
export class KeyedRateLimiter {
  readonly #budgets: RateBudget[];
  readonly #maxKeys: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(count: RateBudget, bytes?: RateBudget, maxKeys = 100_000) {
    for (const budget of [count, bytes]) {
      if (budget && (!(budget.amount > 0) || !(budget.windowMs > 0))) throw new RangeError('a rate budget needs a positive amount and window');
    }
    this.#budgets = bytes ? [count, bytes] : [count];
    this.#maxKeys = maxKeys;
  }

  /** Takes one event of `bytes` bytes for `key`; false (and nothing taken) when over a budget. */
  take(key: string, bytes = 0, now = Date.now()): boolean {
    const bucket = this.#refill(key, now);
    const wants = [1, bytes];
    if (this.#budgets.some((_, i) => bucket.tokens[i] < wants[i])) return false;
    this.#budgets.forEach((_, i) => { bucket.tokens[i] -= wants[i]; });
    return true;
  }

  /** Whether one event of `bytes` bytes for `key` would be taken now (nothing is taken). */
  allows(key: string, bytes = 0, now = Date.now()): boolean {
    if (!this.#buckets.has(key)) return this.#budgets.every((budget, i) => budget.amount >= [1, bytes][i]);
    const bucket = this.#refill(key, now);
    return this.#budgets.every((_, i) => bucket.tokens[i] >= [1, bytes][i]);
  }

  /** Forgets a key (its sender went away). */
  forget(key: string): void {
    this.#buckets.delete(key);
  }

  /** Keys currently tracked. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Drops the keys whose buckets are full again (they would behave exactly like new keys). */
  sweep(now = Date.now()): void {
    for (const key of [...this.#buckets.keys()]) {
      const bucket = this.#refill(key, now);
      if (this.#budgets.every((budget, i) => bucket.tokens[i] >= budget.amount)) this.#buckets.delete(key);
    }
  }

  #refill(key: string, now: number): Bucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= this.#maxKeys) this.sweep(now);
      if (this.#buckets.size >= this.#maxKeys) this.#buckets.delete(this.#buckets.keys().next().value as string);
      bucket = { tokens: this.#budgets.map((b) => b.amount), at: now };
      this.#buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, now - bucket.at);
    bucket.at = now;
    this.#budgets.forEach((budget, i) => {
      bucket.tokens[i] = Math.min(budget.amount, bucket.tokens[i] + (elapsed * budget.amount) / budget.windowMs);
    });
    return bucket;
  }
}

/** The verdict on one custom or SEI message. */
export type MessageVerdict = { ok: true } | { ok: false; code: number; message: string };

/**
 * The server-side limit on custom and SEI messages (docs/behaviour.md §7): per sender, at most `messagesPerSecond`
 * messages (30) and `bytesPerSecond` bytes (8000) per second. Whoever relays such messages calls
 * `check(senderKey, bytes)` for each and drops (and answers with the code of) the refused ones;
 * `forget(senderKey)` when the sender leaves.
 */
export class CustomMessageLimiter {
  readonly #limiter: KeyedRateLimiter;
  readonly #messages: number;
  readonly #bytes: number;

  constructor(messagesPerSecond: number, bytesPerSecond: number) {
    this.#messages = messagesPerSecond;
    this.#bytes = bytesPerSecond;
    this.#limiter = new KeyedRateLimiter({ amount: messagesPerSecond, windowMs: 1000 }, { amount: bytesPerSecond, windowMs: 1000 });
  }

  check(senderKey: string, bytes: number, now = Date.now()): MessageVerdict {
    if (bytes > this.#bytes) {
      return { ok: false, code: SERVER_CODE.MESSAGE_RATE_LIMITED, message: `message of ${bytes} bytes exceeds ${this.#bytes} bytes per second` };
    }
    if (this.#limiter.take(senderKey, bytes, now)) return { ok: true };
    return {
      ok: false,
      code: SERVER_CODE.MESSAGE_RATE_LIMITED,
      message: `custom message rate exceeded (${this.#messages} messages and ${this.#bytes} bytes per second)`,
    };
  }

  forget(senderKey: string): void {
    this.#limiter.forget(senderKey);
  }

  sweep(now = Date.now()): void {
    this.#limiter.sweep(now);
  }

  get size(): number {
    return this.#limiter.size;
  }
}
