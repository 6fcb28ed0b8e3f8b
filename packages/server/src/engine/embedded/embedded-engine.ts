import type { DownlinkMids, DownlinkNegotiator, EngineStats, ForwardWants, MediaEngine, RtpForward, RtpForwardTargets, SourceSlot } from '../media-engine.js';
import { DataLinks } from '../data-links.js';
import type { ForwardCounter } from './downlink-group.js';
import { SubscriberDownlink } from './subscriber-downlink.js';
import { forwardRtp } from './rtp-forwarder.js';
import { ForwardSource } from './forward-source.js';
import type { PeerNetworkOptions } from './peer-factory.js';
import { Uplink, type PublisherSources } from './uplink.js';

export type EmbeddedEngineOptions = PeerNetworkOptions;

/**
 * The default media engine: an in-process SFU on werift. It forwards RTP without decoding;
 * werift's senders rewrite SSRC, payload type and sequence numbers, answer NACKs from their
 * retransmission cache, and PLIs from subscribers are relayed to the publisher.
 */
export class EmbeddedEngine implements MediaEngine {
  readonly #net: PeerNetworkOptions;
  readonly #sources = new Map<string, PublisherSources>();
  readonly #uplinks = new Map<string, Uplink>();
  /** Each subscriber's one downlink. */
  readonly #downlinks = new Map<string, SubscriberDownlink>();
  readonly #dataLinks: DataLinks;
  readonly #counter: ForwardCounter = { packets: 0, bytes: 0 };
  readonly #received: Record<SourceSlot, number> = { audio: 0, video: 0, small: 0, aux: 0 };

  constructor(options: EmbeddedEngineOptions = {}) {
    this.#net = options;
    this.#dataLinks = new DataLinks(options);
  }

  #sourcesOf(participantId: string): PublisherSources {
    let sources = this.#sources.get(participantId);
    if (!sources) {
      const counted = (slot: SourceSlot) => new ForwardSource(() => { this.#received[slot]++; });
      sources = { audio: counted('audio'), video: counted('video'), small: counted('small'), aux: counted('aux') };
      this.#sources.set(participantId, sources);
    }
    return sources;
  }

  async publish(participantId: string, offerSdp: string): Promise<string> {
    this.#uplinks.get(participantId)?.close();
    this.#uplinks.delete(participantId);
    const { uplink, answer } = await Uplink.negotiate(this.#net, this.#sourcesOf(participantId), offerSdp);
    this.#uplinks.set(participantId, uplink);
    return answer;
  }

  unpublish(participantId: string): void {
    this.#uplinks.get(participantId)?.close();
    this.#uplinks.delete(participantId);
  }

  async subscribe(subscriberId: string, sourceId: string, wants: ForwardWants, negotiate: DownlinkNegotiator): Promise<DownlinkMids> {
    let downlink = this.#downlinks.get(subscriberId);
    if (downlink?.failed) {
      downlink.close();
      downlink = undefined;
    }
    if (!downlink) {
      const sources = this.#sourcesOf(sourceId);
      downlink = new SubscriberDownlink(this.#net, this.#counter, negotiate, sources.video.codecMimeType ?? sources.aux.codecMimeType);
      this.#downlinks.set(subscriberId, downlink);
    }
    return downlink.subscribe(sourceId, this.#sourcesOf(sourceId), wants, negotiate);
  }

  updateSubscription(subscriberId: string, sourceId: string, wants: ForwardWants): void {
    this.#downlinks.get(subscriberId)?.update(sourceId, wants);
  }

  unsubscribe(subscriberId: string, sourceId: string): void {
    this.#downlinks.get(subscriberId)?.unsubscribe(sourceId);
  }

  resetDownlink(subscriberId: string): void {
    this.#downlinks.get(subscriberId)?.close();
    this.#downlinks.delete(subscriberId);
  }

  openDataLink(participantId: string, offerSdp: string, onData: (data: Uint8Array) => void): Promise<string> {
    return this.#dataLinks.open(participantId, offerSdp, onData);
  }

  sendData(participantId: string, data: Uint8Array): boolean {
    return this.#dataLinks.send(participantId, data);
  }

  removeParticipant(participantId: string): void {
    this.unpublish(participantId);
    this.#dataLinks.close(participantId);
    this.resetDownlink(participantId);
    for (const downlink of this.#downlinks.values()) downlink.unsubscribe(participantId);
    this.#sources.delete(participantId);
  }

  forwardRtp(participantId: string, targets: RtpForwardTargets): RtpForward {
    return forwardRtp(this.#sourcesOf(participantId), targets);
  }

  stats(): EngineStats {
    return {
      uplinks: this.#uplinks.size,
      downlinks: this.#downlinks.size,
      subscriptions: [...this.#downlinks.values()].reduce((sum, d) => sum + d.sources, 0),
      forwardedPackets: this.#counter.packets,
      forwardedBytes: this.#counter.bytes,
      receivedPackets: { ...this.#received },
    };
  }

  async close(): Promise<void> {
    for (const id of [...this.#sources.keys(), ...this.#downlinks.keys()]) this.removeParticipant(id);
    this.#dataLinks.closeAll();
  }
}
