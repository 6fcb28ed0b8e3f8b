/**
 * A sliding one-second window over messages: at most `maxMessages` messages and `maxBytes` bytes in any
 * `windowMs`. `take` records a message when it fits and tells whether it did.
 */
export class RateWindow {
  private readonly _maxMessages: number;
  private readonly _maxBytes: number;
  private readonly _windowMs: number;
  private readonly _now: () => number;
  private readonly _sent: { at: number; bytes: number }[] = [];

  constructor(maxMessages: number, maxBytes: number, windowMs = 1000, now: () => number = () => Date.now()) {
    this._maxMessages = maxMessages;
    this._maxBytes = maxBytes;
    this._windowMs = windowMs;
    this._now = now;
  }

  /** Records a message of `bytes` bytes if it fits in the window; false (nothing recorded) otherwise. */
  take(bytes: number): boolean {
    const now = this._now();
    while (this._sent.length > 0 && now - this._sent[0].at >= this._windowMs) this._sent.shift();
    const used = this._sent.reduce((sum, m) => sum + m.bytes, 0);
    if (this._sent.length >= this._maxMessages || used + bytes > this._maxBytes) return false;
    this._sent.push({ at: now, bytes });
    return true;
  }
}
