import type { EngineEvent, EngineListener } from './media-engine.js';

/** The listeners of one engine: what both engines use to emit EngineEvents. */
export class EngineEvents {
  readonly #listeners = new Set<EngineListener>();

  /** Adds a listener; returns its removal. */
  on(listener: EngineListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener; a throwing listener does not stop the others. */
  emit(event: EngineEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // a listener's failure is its own; the engine goes on
      }
    }
  }
}
