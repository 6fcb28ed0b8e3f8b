import { KeyedRateLimiter } from './rate-limiter.js';

/** The HTTP endpoints that check a credential for anyone who asks (each has its own budget per address). */
export type CredentialCheck = 'schedule' | 'ai-denoise-auth' | 'media-token';

/** The budgets (limits.* in the configuration). */
export interface CredentialLimitsOptions {
  /** Credential checks per minute per address, for each of CredentialCheck. */
  credentialChecksPerMinute: number;
  /** Joins with bad credentials per minute per address. */
  failedJoinsPerMinute: number;
}

/**
 * Per-address budgets of credential checks, so that nobody without a credential can keep the node busy
 * checking ones: a budget of checks for each HTTP endpoint that checks a userSig or a token, and a budget of
 * failed joins (a join is checked before it is admitted, docs/behaviour.md §4.2; once its address has spent its
 * failures, its joins are refused unchecked until the budget refills). Each is a token bucket holding a minute's
 * worth (limits/rate-limiter.ts): a burst of that many, then that many per minute.
 */
export class CredentialLimits {
  readonly #checks: KeyedRateLimiter;
  readonly #failedJoins: KeyedRateLimiter;

  constructor(options: CredentialLimitsOptions) {
    this.#checks = new KeyedRateLimiter({ amount: options.credentialChecksPerMinute, windowMs: 60_000 });
    this.#failedJoins = new KeyedRateLimiter({ amount: options.failedJoinsPerMinute, windowMs: 60_000 });
  }

  /** Takes one check of `kind` for `address`; false (nothing taken) when the address has spent its budget. */
  takeCheck(kind: CredentialCheck, address: string, now = Date.now()): boolean {
    return this.#checks.take(`${kind} ${address}`, 0, now);
  }

  /** Whether `address` may still try a join (it has failures left). */
  mayTryJoin(address: string, now = Date.now()): boolean {
    return this.#failedJoins.allows(address, 0, now);
  }

  /** A join from `address` failed its credentials check. */
  noteFailedJoin(address: string, now = Date.now()): void {
    this.#failedJoins.take(address, 0, now);
  }
}
