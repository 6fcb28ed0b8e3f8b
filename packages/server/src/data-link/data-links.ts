import { DataLink } from './data-link.js';
import { EngineError } from '../engine/media-engine.js';
import type { PeerNetworkOptions } from '../webrtc/index.js';

/** What signalling uses of the data links (a test may stand in for it). */
export type DataLinkPort = Pick<DataLinks, 'open' | 'send' | 'close' | 'closeAll'>;

/**
 * Every participant's data link (custom messages), the same for every engine: a small werift peer
 * connection with one data channel, terminated in this process so the server can read, limit and
 * stamp each message before relaying it.
 */
export class DataLinks {
  readonly #net: PeerNetworkOptions;
  readonly #links = new Map<string, DataLink>();
  /**
   * The participant's latest open, from its start: an open that is no longer the latest when its answer is
   * made (the participant's link was closed — it left — or a newer offer came) closes its link at once.
   */
  readonly #latest = new Map<string, object>();

  constructor(net: PeerNetworkOptions) {
    this.#net = net;
  }

  /**
   * Answers the participant's offer (replacing an earlier link); `onData` receives each binary message.
   * Rejects with an EngineError 'not-joined' when the participant's link was closed (it left) or a newer offer
   * arrived while this one was being answered: that link is closed, never kept.
   */
  async open(participantId: string, offerSdp: string, onData: (data: Uint8Array) => void): Promise<string> {
    this.close(participantId);
    const ticket = {};
    this.#latest.set(participantId, ticket);
    let made: Awaited<ReturnType<typeof DataLink.negotiate>>;
    try {
      made = await DataLink.negotiate(this.#net, offerSdp, onData);
    } catch (error) {
      if (this.#latest.get(participantId) === ticket) this.#latest.delete(participantId);
      throw error;
    }
    if (this.#latest.get(participantId) !== ticket) {
      made.link.close();
      throw new EngineError('not-joined', 'the data link was closed (its user left) or replaced while its offer was answered');
    }
    this.#links.set(participantId, made.link);
    return made.answer;
  }

  /** Sends on the participant's link; false when there is no open link. */
  send(participantId: string, data: Uint8Array): boolean {
    return this.#links.get(participantId)?.send(data) ?? false;
  }

  /** Closes the participant's link, and the one being answered if any (it is closed once made). */
  close(participantId: string): void {
    this.#latest.delete(participantId);
    this.#links.get(participantId)?.close();
    this.#links.delete(participantId);
  }

  closeAll(): void {
    for (const id of new Set([...this.#links.keys(), ...this.#latest.keys()])) this.close(id);
  }
}
