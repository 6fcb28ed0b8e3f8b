/**
 * A sliding one-second window over messages: at most `maxMessages` messages and `maxBytes` bytes in any
 * `windowMs`. `take` records a message when it fits and tells whether it did.
 */
export class RateWindow {
  readonly #maxMessages: number;
  readonly #maxBytes: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #sent: { at: number; bytes: number }[] = [];

  constructor(maxMessages: number, maxBytes: number, windowMs = 1000, now: () => number = () => Date.now()) {
    this.#maxMessages = maxMessages;
    this.#maxBytes = maxBytes;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  /** Records a message of `bytes` bytes if it fits in the window; false (nothing recorded) otherwise. */
  take(bytes: number): boolean {
    const now = this.#now();
    while (this.#sent.length > 0 && now - this.#sent[0].at >= this.#windowMs) this.#sent.shift();
    const used = this.#sent.reduce((sum, m) => sum + m.bytes, 0);
    if (this.#sent.length >= this.#maxMessages || used + bytes > this.#maxBytes) return false;
    this.#sent.push({ at: now, bytes });
    return true;
  }
}
