/**
 * The page's hints that a connection may work again: the browser's `online` event and the page becoming
 * visible (a laptop woken, a tab brought back: timers were throttled meanwhile). `start` listens, `stop` stops;
 * outside a browser it does nothing.
 */
export class WakeEvents {
  private readonly _onWake: (why: 'online' | 'visible') => void;
  private _listening = false;

  constructor(onWake: (why: 'online' | 'visible') => void) {
    this._onWake = onWake;
  }

  start(): void {
    if (this._listening) return;
    this._listening = true;
    if (typeof window !== 'undefined') window.addEventListener('online', this._online);
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this._visibility);
  }

  stop(): void {
    if (!this._listening) return;
    this._listening = false;
    if (typeof window !== 'undefined') window.removeEventListener('online', this._online);
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this._visibility);
  }

  private readonly _online = (): void => this._onWake('online');

  private readonly _visibility = (): void => {
    if (document.visibilityState === 'visible') this._onWake('visible');
  };
}
