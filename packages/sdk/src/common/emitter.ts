/** A listener as registered, with its `this` context. */
interface Entry {
  handler: (...args: never[]) => void;
  context: unknown;
  once: boolean;
}

/**
 * A typed event emitter. `emit` calls each listener in a try/catch so an app's exception
 * never breaks the SDK; the error is reported through `onListenerError`.
 */
export class Emitter<Events extends { [K in keyof Events]: (...args: never[]) => void }> {
  private readonly _listeners = new Map<keyof Events, Entry[]>();
  onListenerError: (error: unknown, event: keyof Events) => void = (error) => {
    console.error(error);
  };

  on<E extends keyof Events>(event: E, handler: Events[E], context?: unknown): void {
    const list = this._listeners.get(event) ?? [];
    list.push({ handler, context, once: false });
    this._listeners.set(event, list);
  }

  once<E extends keyof Events>(event: E, handler: Events[E], context?: unknown): void {
    const list = this._listeners.get(event) ?? [];
    list.push({ handler, context, once: true });
    this._listeners.set(event, list);
  }

  /** Removes a listener; with event '*' removes every listener of every event. */
  off<E extends keyof Events>(event: E | '*', handler?: Events[E], context?: unknown): void {
    if (event === '*') {
      this._listeners.clear();
      return;
    }
    const list = this._listeners.get(event);
    if (!list) return;
    const kept = list.filter((e) => !(e.handler === handler && (context === undefined || e.context === context)));
    this._listeners.set(event, handler ? kept : []);
  }

  /** Sees every emitted event first, whatever listeners the app keeps (the SDK's own observers). */
  tap: ((event: keyof Events, args: unknown[]) => void) | undefined;

  emit<E extends keyof Events>(event: E, ...args: Parameters<Events[E]>): void {
    this.tap?.(event, args);
    const list = this._listeners.get(event);
    if (!list || list.length === 0) return;
    for (const entry of [...list]) {
      if (entry.once) this.off(event, entry.handler as Events[E], entry.context);
      try {
        (entry.handler as (...a: Parameters<Events[E]>) => void).apply(entry.context, args);
      } catch (error) {
        this.onListenerError(error, event);
      }
    }
  }
}
