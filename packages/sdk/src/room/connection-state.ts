import type { Emitter } from '../common/emitter.js';
import type { ConnectionState, TRTCEventTypes } from '../types.js';

/**
 * The client's connection state (`connection-state-changed`, docs/behaviour.md §4.2). A lost signalling channel
 * is announced as the original does (5.10 to 5.17 alike): DISCONNECTED, then CONNECTING with `isReconnecting`
 * at each attempt (DISCONNECTED again when one fails), then CONNECTED. With create({ enableReconnectingState })
 * it is announced as Conclave's seed did: RECONNECTING, then CONNECTED (RECONNECTING → CONNECTING is never announced).
 */
export class ConnectionStates {
  private readonly _events: Emitter<TRTCEventTypes>;
  private _state: ConnectionState = 'DISCONNECTED';
  /** The seed's announcement of a reconnection (create({ enableReconnectingState: true })). */
  reconnectingState = false;

  constructor(events: Emitter<TRTCEventTypes>) {
    this._events = events;
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** Announces a state (a repeat is not announced). CONNECTING and RECONNECTING say whether it is a reconnection. */
  set(state: ConnectionState, isReconnecting = false): void {
    const prevState = this._state;
    if (prevState === state) return;
    this._state = state;
    if (state === 'CONNECTING' || state === 'RECONNECTING') {
      this._events.emit('connection-state-changed', { prevState, state, isReconnecting: state === 'RECONNECTING' || isReconnecting });
    } else {
      this._events.emit('connection-state-changed', { prevState, state });
    }
  }

  /** The signalling channel was lost while in the room. */
  lost(): void {
    this.set(this.reconnectingState ? 'RECONNECTING' : 'DISCONNECTED');
  }

  /** A reconnection attempt starts (the seed's RECONNECTING stays: its next announcement is the outcome). */
  attempt(): void {
    if (!this.reconnectingState) this.set('CONNECTING', true);
  }

  /** A reconnection attempt failed; more may follow. */
  attemptFailed(): void {
    if (!this.reconnectingState) this.set('DISCONNECTED');
  }
}
