import { DataLink } from './data-link.js';
import type { PeerNetworkOptions } from '../engine/embedded/peer-factory.js';

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

  constructor(net: PeerNetworkOptions) {
    this.#net = net;
  }

  /** Answers the participant's offer (replacing an earlier link); `onData` receives each binary message. */
  async open(participantId: string, offerSdp: string, onData: (data: Uint8Array) => void): Promise<string> {
    this.close(participantId);
    const { link, answer } = await DataLink.negotiate(this.#net, offerSdp, onData);
    this.#links.get(participantId)?.close(); // a concurrent open: the last one wins
    this.#links.set(participantId, link);
    return answer;
  }

  /** Sends on the participant's link; false when there is no open link. */
  send(participantId: string, data: Uint8Array): boolean {
    return this.#links.get(participantId)?.send(data) ?? false;
  }

  close(participantId: string): void {
    this.#links.get(participantId)?.close();
    this.#links.delete(participantId);
  }

  closeAll(): void {
    for (const id of [...this.#links.keys()]) this.close(id);
  }
}
