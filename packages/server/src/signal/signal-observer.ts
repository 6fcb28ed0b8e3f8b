import type { Observer } from '../lifecycle/observer.js';

/** What happens on the signalling connections, as their observer tells it (the metrics count it). */
export type SignalEvent =
  /** A client message arrived. */
  | { type: 'message' }
  /** A request or a custom message was refused: a reply with a non-zero code, or a message dropped with one. */
  | { type: 'refused'; code: number }
  /** A new connection was refused (`reason`: which limit), answered with `code`. */
  | { type: 'connection-refused'; reason: string; code: number }
  /** The server closed a connection for misbehaving ('too many failed joins', 'send buffer full', …). */
  | { type: 'connection-closed'; reason: string };

/** The signalling's observer: the root makes it, signalling tells it, the metrics subscribe. */
export type SignalObserver = Observer<SignalEvent>;
