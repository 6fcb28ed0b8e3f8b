/**
 * An entity's observer, as mediasoup's `observer` emitter: the entity tells what happens to it, and whoever watches
 * (the metrics, a test) subscribes; the entity knows none of them (docs/architecture.md "Observers").
 */
export class Observer<Event> {
  readonly #listeners = new Set<(event: Event) => void>();
  readonly #onListenerError: (error: unknown, event: Event) => void;

  /**
   * `onListenerError` hears a listener's throw, after every listener had the event; the entity that emitted goes on.
   * Without one, the first such error is thrown to the emitter once every listener had the event.
   */
  constructor(onListenerError?: (error: unknown, event: Event) => void) {
    this.#onListenerError = onListenerError ?? ((error) => { throw error; });
  }

  /** Adds a listener; returns its removal. */
  on(listener: (event: Event) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener. */
  emit(event: Event): void {
    const failures: unknown[] = [];
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        failures.push(error);
      }
    }
    for (const error of failures) this.#onListenerError(error, event);
  }
}
