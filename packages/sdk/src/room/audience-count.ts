import type { Emitter } from '../common/emitter.js';
import type { TRTCEventTypes } from '../types.js';

/**
 * The room's audience count (a Conclave extension, docs/behaviour.md §3.5): a live room's audience is hidden from
 * the user lists as in the original, so the server tells the count instead (the join reply, then the
 * `audience-count` push, at most once a second). `audience-count-changed` is emitted when it changes, and once
 * per join with the first count (0 included).
 */
export class AudienceCount {
  private readonly _events: Emitter<TRTCEventTypes>;
  private _count: number | undefined;

  constructor(events: Emitter<TRTCEventTypes>) {
    this._events = events;
  }

  /** The last count the server told, if any (undefined before joining, or from a server that does not tell it). */
  get value(): number | undefined {
    return this._count;
  }

  /** A count from the server; undefined (a server that does not send it) changes nothing. */
  set(count: number | undefined): void {
    if (count === undefined || count === this._count) return;
    this._count = count;
    this._events.emit('audience-count-changed', { count });
  }

  /** The room is left: the next join announces its count afresh. */
  reset(): void {
    this._count = undefined;
  }
}
