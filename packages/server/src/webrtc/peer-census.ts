import type { RTCPeerConnection } from 'werift';

/**
 * Counts werift peer connections until they are really gone: a connection stays counted until its close has
 * finished (werift completes its events last) and every ICE transport of it is closed, so a link that was
 * never closed, or whose sockets outlived its close, shows as a leak instead of vanishing from the count.
 * Gone connections are let go when the census is read and whenever one is added: a census nobody reads (a server
 * whose /metrics is not scraped) held every peer connection the server ever made, ~200 KB each (found by the media
 * fuzz, tests/fuzz; peer-census.test.ts).
 */
export class PeerCensus {
  readonly #peers = new Set<RTCPeerConnection>();

  add(pc: RTCPeerConnection): void {
    this.#prune();
    this.#peers.add(pc);
  }

  /** Peer connections not fully closed. */
  get peerConnections(): number {
    this.#prune();
    return this.#peers.size;
  }

  /** ICE transports (each with its UDP sockets) not closed, over the counted peer connections. */
  get transports(): number {
    this.#prune();
    let open = 0;
    for (const pc of this.#peers) open += pc.iceTransports.filter((transport) => transport.state !== 'closed').length;
    return open;
  }

  #prune(): void {
    for (const pc of this.#peers) {
      if (pc.connectionStateChange.ended && pc.iceTransports.every((transport) => transport.state === 'closed')) this.#peers.delete(pc);
    }
  }
}

/** Every werift peer connection of this process: the embedded engine's links and every data link (any engine). */
export const PROCESS_PEERS = new PeerCensus();
