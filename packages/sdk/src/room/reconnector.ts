import { LIMITS } from '@conclave/protocol';
import { reconnectDelayMs } from '../signal/backoff.js';
import { RetryWait, type WaitOutcome } from '../signal/retry-wait.js';
import { WakeEvents } from '../signal/wake-events.js';

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
  /**
   * One attempt (1-based); resolves once reconnected. `serverAnswered`: a probe (or the page's wake-up) started
   * it, so the last schedule's server is known to answer and the schedule need not be asked again.
   */
  attempt(attempt: number, serverAnswered: boolean): Promise<void>;
  /** An attempt failed (its connection is closed here). */
  attemptFailed(error: unknown, attempt: number): void;
  /** A failure not worth retrying (the server refuses us now). */
  isFatal(error: unknown): boolean;
  /** No more attempts: the room gives up. */
  gaveUp(): void;
  /** Asks the server cheaply whether it answers (true) or not; absent: the policy's clock alone decides. */
  probe?(): Promise<boolean>;
  /** The network came back or the page became visible while connected: check the connection is alive. */
  checkAlive?(): void;
}

/**
 * Reconnects after the signalling channel is lost (docs/behaviour.md §4). The policy's delay is the ceiling of
 * each wait; meanwhile the server is probed every 500–1000 ms (jittered) and an attempt starts as soon as it
 * answers again, or 0–500 ms after the browser goes `online` or the page becomes visible. Gives up when the
 * policy returns null or the server refuses. Leaving the room cancels it.
 */
export class Reconnector {
  private readonly _host: ReconnectHost;
  private readonly _policy: ReconnectPolicy;
  private readonly _random: () => number;
  private readonly _wakeEvents: WakeEvents;
  private _wait: RetryWait | undefined;
  private _cancelled = false;
  private _running: Promise<void> | undefined;

  /** @param random the jitter's source (tests pass their own). */
  constructor(host: ReconnectHost, policy: ReconnectPolicy = new FibonacciReconnectPolicy(), random: () => number = Math.random) {
    this._host = host;
    this._policy = policy;
    this._random = random;
    this._wakeEvents = new WakeEvents(() => this.wake());
  }

  get running(): boolean {
    return this._running !== undefined;
  }

  /** Listens to the page's wake-up hints (online, visible) while in the room. */
  watch(): void {
    this._wakeEvents.start();
  }

  /** Stops listening to them (the room was left). */
  unwatch(): void {
    this._wakeEvents.stop();
  }

  /** A hint that the network works again: ends the current wait (jittered), or checks a connection that looks up. */
  wake(): void {
    if (this._wait) this._wait.wake();
    else if (!this._running) this._host.checkAlive?.();
  }

  /** Starts reconnecting, unless already at it. */
  start(): void {
    if (this._running) return;
    this._cancelled = false;
    this._running = this._run().finally(() => {
      this._running = undefined;
    });
  }

  /** Ends the wait before the next attempt (the room was left: the loop then stops). */
  cancel(): void {
    this._cancelled = true;
    this._wait?.cancel();
  }

  private async _run(): Promise<void> {
    const startedAt = Date.now();
    let lastError: unknown;
    let armed = true;
    for (let retryCount = 0; ; retryCount++) {
      const delay = this._policy.nextRetryDelayInMs({ retryCount, elapsedMs: Date.now() - startedAt, lastError });
      if (delay === null) break;
      const probe = this._host.probe?.bind(this._host);
      this._wait = new RetryWait({ delayMs: delay, armed, random: this._random, ...(probe ? { probe } : {}) });
      const outcome: WaitOutcome = await this._wait.done;
      this._wait = undefined;
      if (outcome === 'cancelled' || this._cancelled || !this._host.active()) return;
      try {
        await this._host.attempt(retryCount + 1, outcome === 'probe');
        return;
      } catch (error) {
        lastError = error;
        this._host.attemptFailed(error, retryCount + 1);
        if (this._host.isFatal(error)) break;
        // A failed attempt that a shortcut started needs fresh proof of an outage before the next shortcut.
        armed = outcome === 'clock';
      }
    }
    if (this._host.active()) this._host.gaveUp();
  }
}
