/** Player states (docs/behaviour.md §4): STOPPED, PLAYING, PAUSED. */
export type PlayerState = 'STOPPED' | 'PLAYING' | 'PAUSED';

/** Why a player changed state, as audio-/video-play-state-changed report it. */
export type PlayReason = 'playing' | 'mute' | 'unmute' | 'ended' | 'pause' | 'error';

/** Paused players resume on their own this many times (docs/behaviour.md §9 'paused-play retry 5'). */
export const PAUSED_RETRIES = 5;

/**
 * The player state machine: PLAYING from any state, PAUSED only from PLAYING, STOPPED from any.
 * `onChange` is called once per actual change.
 */
export class PlayerStateMachine {
  private _state: PlayerState = 'STOPPED';
  private readonly _onChange: (state: PlayerState, reason: PlayReason) => void;

  constructor(onChange: (state: PlayerState, reason: PlayReason) => void) {
    this._onChange = onChange;
  }

  get state(): PlayerState {
    return this._state;
  }

  playing(reason: PlayReason): void {
    this._set('PLAYING', reason);
  }

  paused(reason: PlayReason): void {
    if (this._state === 'PLAYING') this._set('PAUSED', reason);
  }

  stopped(reason: PlayReason): void {
    this._set('STOPPED', reason);
  }

  private _set(state: PlayerState, reason: PlayReason): void {
    if (this._state === state) return;
    this._state = state;
    this._onChange(state, reason);
  }
}

/**
 * The auto-resume budget of a paused player: PAUSED_RETRIES tries, restored when the player
 * plays again or its view is recreated.
 */
export class ResumeBudget {
  private _left = PAUSED_RETRIES;

  /** Takes one try; false when the budget is spent. */
  take(): boolean {
    if (this._left <= 0) return false;
    this._left--;
    return true;
  }

  reset(): void {
    this._left = PAUSED_RETRIES;
  }

  get left(): number {
    return this._left;
  }
}
