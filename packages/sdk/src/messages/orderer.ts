/** Ordering constants of custom messages (SPEC §9). */
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
 * Puts the messages of one stream back in sequence order (SPEC §9): the first message waits 100 ms for
 * earlier ones; a message ahead of the next expected one waits up to 5 s for the gap to fill, after
 * which what is held is delivered in order and the gap is skipped; a jump of more than 300 either way
 * resets the ordering; an old duplicate is dropped.
 */
export class StreamOrderer<T> {
  readonly #deliver: (seq: number, item: T) => void;
  readonly #timers: Timers;
  readonly #held = new Map<number, T>();
  #expected: number | undefined;
  #timer: unknown;
  #starting = false;

  constructor(deliver: (seq: number, item: T) => void, timers: Timers = realTimers) {
    this.#deliver = deliver;
    this.#timers = timers;
  }

  /** Messages held back, waiting for a gap to fill. */
  get held(): number {
    return this.#held.size;
  }

  push(seq: number, item: T): void {
    if (this.#expected === undefined) {
      this.#held.set(seq, item);
      if (!this.#starting) {
        this.#starting = true;
        this.#timer = this.#timers.set(() => {
          this.#starting = false;
          this.#timer = undefined;
          this.#flushAll();
        }, ORDERING.FIRST_MESSAGE_WAIT_MS);
      }
      return;
    }
    const distance = seq - this.#expected;
    if (Math.abs(distance) > ORDERING.MAX_GAP) {
      // The sender's numbering restarted: deliver what is held, then start over from this message.
      this.#flushAll();
      this.#deliver(seq, item);
      this.#expected = seq + 1;
      return;
    }
    if (distance < 0 || this.#held.has(seq)) return; // a duplicate
    this.#held.set(seq, item);
    this.#drain();
    if (this.#held.size > 0 && this.#timer === undefined) {
      this.#timer = this.#timers.set(() => {
        this.#timer = undefined;
        this.#flushAll();
      }, ORDERING.OUT_OF_ORDER_WAIT_MS);
    }
  }

  /** Delivers consecutive held messages from the expected one. */
  #drain(): void {
    while (this.#expected !== undefined && this.#held.has(this.#expected)) {
      const seq = this.#expected;
      const item = this.#held.get(seq) as T;
      this.#held.delete(seq);
      this.#expected = seq + 1;
      this.#deliver(seq, item);
    }
    if (this.#held.size === 0 && this.#timer !== undefined && !this.#starting) {
      this.#timers.clear(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Delivers everything held in order, skipping gaps. */
  #flushAll(): void {
    if (this.#timer !== undefined) {
      this.#timers.clear(this.#timer);
      this.#timer = undefined;
    }
    this.#starting = false;
    const seqs = [...this.#held.keys()].sort((a, b) => a - b);
    for (const seq of seqs) {
      const item = this.#held.get(seq) as T;
      this.#held.delete(seq);
      this.#expected = seq + 1;
      this.#deliver(seq, item);
    }
  }

  /** Stops timers and forgets what is held. */
  close(): void {
    if (this.#timer !== undefined) this.#timers.clear(this.#timer);
    this.#timer = undefined;
    this.#held.clear();
  }
}
