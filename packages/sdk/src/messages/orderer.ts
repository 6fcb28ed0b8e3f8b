/** Ordering constants of custom messages (docs/behaviour.md §9). */
export const ORDERING = Object.freeze({
  /** A jump larger than this (either way) means the sender restarted its numbering: ordering resets. */
  MAX_GAP: 300,
  /** How long out-of-order messages wait for the missing ones. */
  OUT_OF_ORDER_WAIT_MS: 5000,
  /** How long a stream's first message waits for earlier ones that may overtake it. */
  FIRST_MESSAGE_WAIT_MS: 100,
  /** How long a message from a user not yet announced waits for its peer join. */
  UNKNOWN_USER_WAIT_MS: 2000,
} as const);

/** Timer functions, injectable for tests. */
export interface Timers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Puts the messages of one stream back in sequence order (docs/behaviour.md §9): the first message waits 100 ms for
 * earlier ones; a message ahead of the next expected one waits up to 5 s for the gap to fill, after
 * which what is held is delivered in order and the gap is skipped; a jump of more than 300 either way
 * resets the ordering; an old duplicate is dropped.
 */
export class StreamOrderer<T> {
  private readonly _deliver: (seq: number, item: T) => void;
  private readonly _timers: Timers;
  private readonly _held = new Map<number, T>();
  private _expected: number | undefined;
  private _timer: unknown;
  private _starting = false;

  constructor(deliver: (seq: number, item: T) => void, timers: Timers = realTimers) {
    this._deliver = deliver;
    this._timers = timers;
  }

  push(seq: number, item: T): void {
    if (this._expected === undefined) {
      this._held.set(seq, item);
      if (!this._starting) {
        this._starting = true;
        this._timer = this._timers.set(() => {
          this._starting = false;
          this._timer = undefined;
          this._flushAll();
        }, ORDERING.FIRST_MESSAGE_WAIT_MS);
      }
      return;
    }
    const distance = seq - this._expected;
    if (Math.abs(distance) > ORDERING.MAX_GAP) {
      // The sender's numbering restarted: deliver what is held, then start over from this message.
      this._flushAll();
      this._deliver(seq, item);
      this._expected = seq + 1;
      return;
    }
    if (distance < 0 || this._held.has(seq)) return; // a duplicate
    this._held.set(seq, item);
    this._drain();
    if (this._held.size > 0 && this._timer === undefined) {
      this._timer = this._timers.set(() => {
        this._timer = undefined;
        this._flushAll();
      }, ORDERING.OUT_OF_ORDER_WAIT_MS);
    }
  }

  /** Delivers consecutive held messages from the expected one. */
  private _drain(): void {
    while (this._expected !== undefined && this._held.has(this._expected)) {
      const seq = this._expected;
      const item = this._held.get(seq) as T;
      this._held.delete(seq);
      this._expected = seq + 1;
      this._deliver(seq, item);
    }
    if (this._held.size === 0 && this._timer !== undefined && !this._starting) {
      this._timers.clear(this._timer);
      this._timer = undefined;
    }
  }

  /** Delivers everything held in order, skipping gaps. */
  private _flushAll(): void {
    if (this._timer !== undefined) {
      this._timers.clear(this._timer);
      this._timer = undefined;
    }
    this._starting = false;
    const seqs = [...this._held.keys()].sort((a, b) => a - b);
    for (const seq of seqs) {
      const item = this._held.get(seq) as T;
      this._held.delete(seq);
      this._expected = seq + 1;
      this._deliver(seq, item);
    }
  }

  /** Stops timers and forgets what is held. */
  close(): void {
    if (this._timer !== undefined) this._timers.clear(this._timer);
    this._timer = undefined;
    this._held.clear();
  }
}
