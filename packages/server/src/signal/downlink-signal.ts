import type { DownlinkNegotiator } from '../engine/media-engine.js';
import type { Participant } from '../room/participant.js';

/** How long the client has to answer a downlink offer (docs/behaviour.md §9's subscribe time-out). */
export const DOWNLINK_ANSWER_TIMEOUT_MS = 10_000;

interface Pending {
  resolve: (sdp: string) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The signalling side of a participant's downlink renegotiations: pushes the engine's offer as
 * `downlink-offer` (numbered) and waits, bounded, for the client's `downlink-answer`. It belongs to
 * the participant, not the connection, so a session resumed on a new connection answers the same way.
 */
export class DownlinkSignal {
  readonly #participant: Participant;
  readonly #pending = new Map<number, Pending>();
  #seq = 0;

  constructor(participant: Participant) {
    this.#participant = participant;
  }

  /** The negotiator handed to the engine. */
  readonly negotiate: DownlinkNegotiator = (offerSdp) => new Promise((resolve, reject) => {
    const seq = ++this.#seq;
    const timer = setTimeout(() => {
      this.#pending.delete(seq);
      reject(new Error(`no answer to downlink offer ${seq} within ${DOWNLINK_ANSWER_TIMEOUT_MS} ms`));
    }, DOWNLINK_ANSWER_TIMEOUT_MS);
    this.#pending.set(seq, { resolve, reject, timer });
    this.#participant.push('downlink-offer', { seq, sdp: offerSdp });
  });

  /** The client's answer to offer `seq`; false when no such offer waits. */
  answer(seq: number, sdp: string): boolean {
    const pending = this.#pending.get(seq);
    if (!pending) return false;
    this.#pending.delete(seq);
    clearTimeout(pending.timer);
    pending.resolve(sdp);
    return true;
  }

  /** Fails every offer still waiting (the downlink was reset or the participant left). */
  cancel(): void {
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new Error('downlink reset'));
    }
    this.#pending.clear();
  }
}

const signals = new WeakMap<Participant, DownlinkSignal>();

/** The participant's downlink signal (created on first use). */
export function downlinkSignal(participant: Participant): DownlinkSignal {
  let signal = signals.get(participant);
  if (!signal) {
    signal = new DownlinkSignal(participant);
    signals.set(participant, signal);
  }
  return signal;
}
