import { invalidOperation } from '../errors/catalogue.js';

/**
 * A small state machine (docs/behaviour.md §4): an action is refused unless the current state is one of its
 * allowed origins.
 */
export class StateMachine<S extends string> {
  private _state: S;
  private readonly _onChange: ((from: S, to: S) => void) | undefined;

  constructor(initial: S, onChange?: (from: S, to: S) => void) {
    this._state = initial;
    this._onChange = onChange;
  }

  get state(): S {
    return this._state;
  }

  is(...states: S[]): boolean {
    return states.includes(this._state);
  }

  /** Throws INVALID_OPERATION (with `message`) unless the state is one of `from`. */
  require(from: readonly S[], functionName: string, message: string, extraCode?: number): void {
    if (!from.includes(this._state)) throw invalidOperation(extraCode, message, functionName);
  }

  /** Moves to `to`. */
  set(to: S): void {
    const from = this._state;
    if (from === to) return;
    this._state = to;
    this._onChange?.(from, to);
  }
}
