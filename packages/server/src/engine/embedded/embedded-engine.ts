import type { EngineStats, ForwardWants, MediaEngine, RtpForward, RtpForwardTargets, SourceSlot } from '../media-engine.js';
import { DataLink } from './data-link.js';
import { Downlink, type ForwardCounter } from './downlink.js';
import { ForwardSource } from './forward-source.js';
import type { PeerNetworkOptions } from './peer-factory.js';
import { Uplink, type PublisherSources } from './uplink.js';
import { forwardRtp } from './rtp-forwarder.js';

export type EmbeddedEngineOptions = PeerNetworkOptions;

/** Key of a downlink: subscriber and source. */
const linkKey = (subscriberId: string, sourceId: string) => `${subscriberId}\u0000${sourceId}`;

/**
 * The default media engine: an in-process SFU on werift. It forwards RTP without decoding;
 * werift's senders rewrite SSRC, payload type and sequence numbers, answer NACKs from their
 * retransmission cache, and PLIs from subscribers are relayed to the publisher.
 */
export class EmbeddedEngine implements MediaEngine {
  readonly #net: PeerNetworkOptions;
  readonly #sources = new Map<string, PublisherSources>();
  readonly #uplinks = new Map<string, Uplink>();
  readonly #downlinks = new Map<string, Downlink>();
  readonly #dataLinks = new Map<string, DataLink>();
  readonly #counter: ForwardCounter = { packets: 0, bytes: 0 };
  readonly #received: Record<SourceSlot, number> = { audio: 0, video: 0, small: 0, aux: 0 };

  constructor(options: EmbeddedEngineOptions = {}) {
    this.#net = options;
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

  async subscribe(subscriberId: string, sourceId: string, wants: ForwardWants): Promise<string> {
    this.unsubscribe(subscriberId, sourceId);
    const downlink = new Downlink(this.#net, this.#sourcesOf(sourceId), wants, this.#counter);
    this.#downlinks.set(linkKey(subscriberId, sourceId), downlink);
    try {
      return await downlink.createOffer();
    } catch (error) {
      this.unsubscribe(subscriberId, sourceId);
      throw error;
    }
  }

  async answerSubscription(subscriberId: string, sourceId: string, answerSdp: string): Promise<void> {
    const downlink = this.#downlinks.get(linkKey(subscriberId, sourceId));
    if (!downlink) throw new Error(`no subscription of ${subscriberId} to ${sourceId}`);
    await downlink.applyAnswer(answerSdp);
  }

  updateSubscription(subscriberId: string, sourceId: string, wants: ForwardWants): void {
    this.#downlinks.get(linkKey(subscriberId, sourceId))?.update(wants);
  }

  unsubscribe(subscriberId: string, sourceId: string): void {
    const key = linkKey(subscriberId, sourceId);
    this.#downlinks.get(key)?.close();
    this.#downlinks.delete(key);
  }

  async openDataLink(participantId: string, offerSdp: string, onData: (data: Uint8Array) => void): Promise<string> {
    this.#dataLinks.get(participantId)?.close();
    this.#dataLinks.delete(participantId);
    const { link, answer } = await DataLink.negotiate(this.#net, offerSdp, onData);
    this.#dataLinks.get(participantId)?.close(); // a concurrent open: the last one wins
    this.#dataLinks.set(participantId, link);
    return answer;
  }

  sendData(participantId: string, data: Uint8Array): boolean {
    return this.#dataLinks.get(participantId)?.send(data) ?? false;
  }

  removeParticipant(participantId: string): void {
    this.unpublish(participantId);
    this.#dataLinks.get(participantId)?.close();
    this.#dataLinks.delete(participantId);
    for (const [key, downlink] of this.#downlinks) {
      const [subscriber, source] = key.split('\u0000');
      if (subscriber === participantId || source === participantId) {
        downlink.close();
        this.#downlinks.delete(key);
      }
    }
    this.#sources.delete(participantId);
  }

  forwardRtp(participantId: string, targets: RtpForwardTargets): RtpForward {
    return forwardRtp(this.#sourcesOf(participantId), targets);
  }

  stats(): EngineStats {
    return {
      uplinks: this.#uplinks.size,
      downlinks: this.#downlinks.size,
      forwardedPackets: this.#counter.packets,
      forwardedBytes: this.#counter.bytes,
      receivedPackets: { ...this.#received },
    };
  }

  async close(): Promise<void> {
    for (const id of [...this.#sources.keys()]) this.removeParticipant(id);
  }
}
