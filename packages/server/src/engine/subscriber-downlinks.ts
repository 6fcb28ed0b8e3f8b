import type { EngineEvents } from './engine-events.js';
import type { EngineMembership } from './engine-membership.js';
import { EngineError } from './media-engine.js';

/** What the engines' downlinks have in common. */
export interface EngineDownlink {
  /** Subscriptions carried now. */
  readonly sources: number;
  close(): void;
}

/**
 * Each subscriber's one downlink, whatever the engine: made on a first subscription, dropped on a reset, and
 * dropped and told (`downlink-failed`) when it fails, so the next subscription makes a new one. A downlink that
 * goes takes its subscriptions along: their handles close ('downlink-closed', or the engine's reason) first.
 */
export class SubscriberDownlinks<D extends EngineDownlink> {
  readonly #byId = new Map<string, D>();
  readonly #events: EngineEvents;
  readonly #members: EngineMembership;

  constructor(events: EngineEvents, members: EngineMembership) {
    this.#events = events;
    this.#members = members;
  }

  get(subscriberId: string): D | undefined {
    return this.#byId.get(subscriberId);
  }

  /** The subscriber's downlink, made by `make` (given its failure report) when it has none. */
  getOrMake(subscriberId: string, make: (onFailed: (detail: string) => void) => D): D {
    let downlink = this.#byId.get(subscriberId);
    if (!downlink) {
      const made = make((detail) => this.#failed(subscriberId, made, detail));
      downlink = made;
      this.#byId.set(subscriberId, downlink);
    }
    return downlink;
  }

  #failed(subscriberId: string, downlink: D, detail: string): void {
    if (this.#byId.get(subscriberId) !== downlink) return;
    this.#byId.delete(subscriberId);
    this.#members.endSubscriptions(subscriberId, 'downlink-closed');
    downlink.close();
    this.#events.emit({ type: 'downlink-failed', subscriberId, detail });
  }

  /** Closes and forgets the subscriber's downlink. */
  close(subscriberId: string): void {
    this.#members.endSubscriptions(subscriberId, 'downlink-closed');
    this.#byId.get(subscriberId)?.close();
    this.#byId.delete(subscriberId);
  }

  /** Forgets every downlink without closing it (their media server went away with them). */
  forgetAll(): void {
    this.#byId.clear();
  }

  entries(): IterableIterator<[string, D]> {
    return this.#byId.entries();
  }

  values(): IterableIterator<D> {
    return this.#byId.values();
  }

  ids(): IterableIterator<string> {
    return this.#byId.keys();
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Subscriptions carried on every downlink. */
  get subscriptions(): number {
    let sum = 0;
    for (const downlink of this.#byId.values()) sum += downlink.sources;
    return sum;
  }
}

/** A downlink negotiation that failed: the error its subscription rejects with, and the detail of the downlink's failure. */
export function negotiationFailure(error: unknown, closed: boolean): { error: EngineError; detail: string } {
  return {
    error: EngineError.from(error, closed ? 'closed' : 'negotiation-failed'),
    detail: `downlink negotiation failed: ${error instanceof Error ? error.message : String(error)}`,
  };
}
