import { KeyedRateLimiter } from './rate-limiter.js';

/** How a lockout counts: `failures` per `windowMs` are tolerated, the next one locks the key for `lockMs`. */
export interface LockoutPolicy {
  failures: number;
  windowMs: number;
  lockMs: number;
  /** Locks held at most (100,000); past it the one that ends soonest is forgotten first. */
  maxLocks?: number;
}

/**
 * Failed credentials counted per key — (client address, credential), so one party's failures lock out only
 * what it tried from where it is (docs/architecture.md "Lockouts") — and a lock once a key fails too often. Memory
 * is bounded without ever dropping every lock at once: expired locks go first, then the oldest (every lock
 * lasts `lockMs`, so the oldest is the one ending soonest); lifting a real lock takes `maxLocks` newer ones.
 */
export class FailureLockout {
  readonly #failures: KeyedRateLimiter;
  readonly #lockMs: number;
  readonly #maxLocks: number;
  /** key → end of its lock (ms), in the order the locks began. */
  readonly #lockedUntil = new Map<string, number>();

  constructor(policy: LockoutPolicy) {
    this.#failures = new KeyedRateLimiter({ amount: policy.failures, windowMs: policy.windowMs });
    this.#lockMs = policy.lockMs;
    this.#maxLocks = policy.maxLocks ?? 100_000;
  }

  /** True while `key` is locked out. */
  locked(key: string, now = Date.now()): boolean {
    const until = this.#lockedUntil.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.#lockedUntil.delete(key);
    return false;
  }

  /** Counts a failure of `key`; true when it (now) locks the key. */
  fail(key: string, now = Date.now()): boolean {
    if (this.#failures.take(key, 0, now)) return false;
    this.#lockedUntil.delete(key);
    this.#evict(now);
    this.#lockedUntil.set(key, now + this.#lockMs);
    return true;
  }

  /** Locks held (expired ones included until they are evicted). */
  get size(): number {
    return this.#lockedUntil.size;
  }

  #evict(now: number): void {
    for (const [key, until] of this.#lockedUntil) {
      if (until > now && this.#lockedUntil.size < this.#maxLocks) return;
      this.#lockedUntil.delete(key);
    }
  }
}
