/** Probes go out every 500–1000 ms (randomised per probe, so a crowd of clients never probes in step). */
export const PROBE_MIN_MS = 500;
export const PROBE_MAX_MS = 1000;
/** A wake-up (network back, page visible) ends the wait after 0–500 ms, also randomised. */
export const WAKE_JITTER_MS = 500;

/** How a wait ended: on the back-off's clock, on a probe's answer, on a wake-up, or cancelled. */
export type WaitOutcome = 'clock' | 'probe' | 'wake' | 'cancelled';

export interface RetryWaitOptions {
  /** The back-off's delay: the wait ends then at the latest. */
  delayMs: number;
  /** Asks the server cheaply whether it answers (true) or not (false); none: the clock alone decides. */
  probe?: () => Promise<boolean>;
  /**
   * Whether a probe's answer or a wake-up may end the wait at once. After an attempt that such a shortcut
   * started has failed, it takes a probe that finds the server unreachable to allow the next one: a server
   * that answers probes but not joins is then retried on the back-off's clock, not in a tight loop.
   */
  armed: boolean;
  /** [0, 1) source of the jitter (Math.random; tests pass their own). */
  random?: () => number;
}

/**
 * The wait before one reconnection attempt (docs/behaviour.md §4): at most the back-off's delay, ended early
 * as soon as a jittered probe finds the server answering after it was unreachable, or on a wake-up.
 */
export class RetryWait {
  readonly done: Promise<WaitOutcome>;
  private readonly _options: RetryWaitOptions;
  private readonly _random: () => number;
  private _armed: boolean;
  private _finish!: (outcome: WaitOutcome) => void;
  private _finished = false;
  private readonly _timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(options: RetryWaitOptions) {
    this._options = options;
    this._random = options.random ?? Math.random;
    this._armed = options.armed;
    this.done = new Promise((resolve) => {
      this._finish = resolve;
    });
    this._after(options.delayMs, () => this._end('clock'));
    if (options.probe) this._scheduleProbe();
  }

  /** Whether a shortcut may end the wait now (it may also have become so by a failed probe meanwhile). */
  get armed(): boolean {
    return this._armed;
  }

  /** The network came back or the page became visible: end the wait soon (jittered), if a shortcut is allowed. */
  wake(): void {
    if (this._armed) this._after(this._random() * WAKE_JITTER_MS, () => this._end('wake'));
  }

  /** Ends the wait now (the room was left). */
  cancel(): void {
    this._end('cancelled');
  }

  private _scheduleProbe(): void {
    this._after(PROBE_MIN_MS + this._random() * (PROBE_MAX_MS - PROBE_MIN_MS), () => {
      void this._probeOnce();
    });
  }

  private async _probeOnce(): Promise<void> {
    const answered = await this._options.probe!().catch(() => false); // a probe that fails is a server not answering
    if (this._finished) return;
    if (!answered) this._armed = true;
    else if (this._armed) {
      this._end('probe');
      return;
    }
    this._scheduleProbe();
  }

  private _after(ms: number, run: () => void): void {
    if (this._finished) return;
    const timer = setTimeout(() => {
      this._timers.delete(timer);
      run();
    }, ms);
    this._timers.add(timer);
  }

  private _end(outcome: WaitOutcome): void {
    if (this._finished) return;
    this._finished = true;
    for (const timer of this._timers) clearTimeout(timer);
    this._timers.clear();
    this._finish(outcome);
  }
}
