/**
 * A room's audience count, told to its members at most once per interval (docs/behaviour.md §3.5): audiences
 * are hidden from the user lists, so apps count them from this. The first change after a quiet interval goes
 * out at once; changes within the interval are merged into one push at its end, carrying the count then.
 */
export class AudienceCountNotice {
  readonly #intervalMs: number;
  readonly #count: () => number;
  readonly #send: (count: number) => void;
  /** The count last told (a new room has no audience: nothing to tell until that changes). */
  #told = 0;
  #lastSentAt = -Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(intervalMs: number, count: () => number, send: (count: number) => void) {
    this.#intervalMs = intervalMs;
    this.#count = count;
    this.#send = send;
  }

  /** The count may have changed: tell it now, or at the end of the current interval. */
  changed(): void {
    if (this.#timer !== undefined) return;
    const wait = this.#lastSentAt + this.#intervalMs - Date.now();
    if (wait <= 0) {
      this.#flush();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#flush();
    }, wait);
    this.#timer.unref?.();
  }

  /** The room is gone: nothing more is told. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #flush(): void {
    const count = this.#count();
    if (count === this.#told) return;
    this.#told = count;
    this.#lastSentAt = Date.now();
    this.#send(count);
  }
}
