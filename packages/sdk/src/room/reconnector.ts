import { LIMITS } from '@conclave/protocol';
import { reconnectDelayMs } from '../signal/backoff.js';

/** What a reconnect policy is told before each attempt. */
export interface ReconnectContext {
  /** Attempts made so far (0 before the first). */
  readonly retryCount: number;
  /** Time since the connection was lost. */
  readonly elapsedMs: number;
  /** Why the previous attempt failed (undefined before the first). */
  readonly lastError?: unknown;
}

/** When to try again after the signalling connection is lost (as livekit's ReconnectPolicy). */
export interface ReconnectPolicy {
  /** The delay before the next attempt, or null to give up. */
  nextRetryDelayInMs(context: ReconnectContext): number | null;
}

/** docs/behaviour.md §4: Fibonacci back-off in seconds (1, 1, 2, 3, 5, 8, 13, 21), then 30 s, for 30 attempts. */
export class FibonacciReconnectPolicy implements ReconnectPolicy {
  private readonly _maxAttempts: number;

  constructor(maxAttempts: number = LIMITS.RECONNECT_ATTEMPTS) {
    this._maxAttempts = maxAttempts;
  }

  nextRetryDelayInMs({ retryCount }: ReconnectContext): number | null {
    return retryCount >= this._maxAttempts ? null : reconnectDelayMs(retryCount + 1);
  }
}

/** What the reconnector drives. */
export interface ReconnectHost {
  /** True while reconnecting still makes sense (the room is not left). */
  active(): boolean;
  /** One attempt (1-based); resolves once reconnected. */
  attempt(attempt: number): Promise<void>;
  /** An attempt failed (its connection is closed here). */
  attemptFailed(error: unknown, attempt: number): void;
  /** A failure not worth retrying (the server refuses us now). */
  isFatal(error: unknown): boolean;
  /** No more attempts: the room gives up. */
  gaveUp(): void;
}

/**
 * Reconnects after the signalling channel is lost (docs/behaviour.md §4): waits as the policy says, tries, and
 * gives up when the policy returns null or the server refuses. Leaving the room cancels it.
 */
export class Reconnector {
  private readonly _host: ReconnectHost;
  private readonly _policy: ReconnectPolicy;
  private readonly _wakeSleepers = new Set<() => void>();
  private _running: Promise<void> | undefined;

  constructor(host: ReconnectHost, policy: ReconnectPolicy = new FibonacciReconnectPolicy()) {
    this._host = host;
    this._policy = policy;
  }

  get running(): boolean {
    return this._running !== undefined;
  }

  /** Starts reconnecting, unless already at it. */
  start(): void {
    if (this._running) return;
    this._running = this._run().finally(() => {
      this._running = undefined;
    });
  }

  /** Ends the wait before the next attempt (the room was left: the loop then stops). */
  cancel(): void {
    for (const wake of [...this._wakeSleepers]) wake();
  }

  private async _run(): Promise<void> {
    const startedAt = Date.now();
    let lastError: unknown;
    for (let retryCount = 0; ; retryCount++) {
      const delay = this._policy.nextRetryDelayInMs({ retryCount, elapsedMs: Date.now() - startedAt, lastError });
      if (delay === null) break;
      await this._sleep(delay);
      if (!this._host.active()) return;
      try {
        await this._host.attempt(retryCount + 1);
        return;
      } catch (error) {
        lastError = error;
        this._host.attemptFailed(error, retryCount + 1);
        if (this._host.isFatal(error)) break;
      }
    }
    if (this._host.active()) this._host.gaveUp();
  }

  /** Waits, unless cancelled meanwhile. */
  private _sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this._wakeSleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this._wakeSleepers.add(wake);
    });
  }
}
