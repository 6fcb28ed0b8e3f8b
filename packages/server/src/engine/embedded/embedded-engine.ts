import {
  DEFAULT_SOURCE_WAIT_MS, EngineError,
  type DownlinkNegotiator, type EngineListener, type EngineStats, type SubscriptionWants, type MediaEngine,
  type RtpForward, type RtpForwardTargets, type SourceSlot, type SubscriptionHandle, type UplinkHandle, type UplinkMedia,
  type RelayConnector, type RelayCredential, type RelayExportHandle, type RelayImportHandle, type RelayOffer, type SubscribeOptions,
} from '../media-engine.js';
import { playbackWants, type ClientOfferPlayback, type PlaybackStream, type PlaybackWants } from '../client-offer.js';
import { ForwardSource, PeerCensus, PlaybackLink, type ForwardCounter, type PeerNetworkOptions, type PublisherSources } from '../../webrtc/index.js';
import { EngineEvents } from '../engine-events.js';
import { EngineMembership } from '../engine-membership.js';
import { SubscriberDownlinks } from '../subscriber-downlinks.js';
import { SubscriberDownlink } from './subscriber-downlink.js';
import { forwardRtp } from './rtp-forwarder.js';
import { Uplink } from './uplink.js';
import { EmbeddedRelay } from './embedded-relay.js';

export interface EmbeddedEngineOptions extends PeerNetworkOptions {
  /** How long a subscription waits for its source to publish (default DEFAULT_SOURCE_WAIT_MS). */
  sourceWaitMs?: number;
  /** The cluster secret node-to-node relay credentials are checked with (exportSource); without it nothing is exported. */
  relaySecret?: string;
  /**
   * Whether each subscriber's downlink allocator sizes its video to its link (default true; issue 43). Off, every
   * subscription gets what it asked, as before the allocator (CONCLAVE_DOWNLINK_ALLOCATOR=off).
   */
  downlinkAllocator?: boolean;
}

/**
 * The default media engine: an in-process SFU on werift. It forwards RTP without decoding;
 * werift's senders rewrite SSRC, payload type and sequence numbers, answer NACKs from their
 * retransmission cache, and PLIs from subscribers are relayed to the publisher.
 */
export class EmbeddedEngine implements MediaEngine, ClientOfferPlayback {
  readonly #net: PeerNetworkOptions;
  readonly #sourceWaitMs: number;
  readonly #allocate: boolean;
  readonly #events = new EngineEvents();
  readonly #members = new EngineMembership((detail) => this.#events.emit({ type: 'cleanup-failed', operation: 'handle-close', detail }));
  readonly #sources = new Map<string, PublisherSources>();
  readonly #uplinks = new Map<string, Uplink>();
  /** Each subscriber's one downlink. */
  readonly #downlinks = new SubscriberDownlinks<SubscriberDownlink>(this.#events, this.#members);
  /** Client-offered playback links (WHEP), by viewer. */
  readonly #playbacks = new Map<string, { link: PlaybackLink; sourceId: string }>();
  readonly #counter: ForwardCounter = { packets: 0, bytes: 0 };
  readonly #received: Record<SourceSlot, number> = { audio: 0, video: 0, small: 0, aux: 0 };
  /** This engine's peer connections (uplinks and downlinks), until their sockets are closed. */
  readonly #census = new PeerCensus();
  #closed = false;
  /** Node-to-node relay: exports and imports of sources. */
  readonly #relay: EmbeddedRelay;

  constructor(options: EmbeddedEngineOptions = {}) {
    const { sourceWaitMs, relaySecret, downlinkAllocator, ...net } = options;
    this.#net = { ...net, census: this.#census };
    this.#sourceWaitMs = sourceWaitMs ?? DEFAULT_SOURCE_WAIT_MS;
    this.#allocate = downlinkAllocator ?? true;
    this.#relay = new EmbeddedRelay({
      net: this.#net, counter: this.#counter, secret: relaySecret, sourceWaitMs: this.#sourceWaitMs, members: this.#members,
      report: (detail) => this.#events.emit({ type: 'cleanup-failed', operation: 'relay-release', detail }),
      assertOpen: () => this.#open(), sourcesOf: (id) => this.#sourcesOf(id), removeImported: (id) => this.#remove(id, 'left'),
    });
  }

  #open(): void {
    if (this.#closed) throw new EngineError('closed', 'media engine closed');
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

  joinRoom(participantId: string, roomId: string): void {
    this.#members.join(participantId, roomId);
  }

  async publish(participantId: string, offerSdp: string): Promise<UplinkHandle> {
    this.#open();
    const { adopt } = this.#members.beginPublish(participantId);
    void this.#members.uplinkOf(participantId)?.release('replaced');
    let negotiated: { uplink: Uplink; answer: string };
    try {
      // Only the uplink in use is told of (one a later publish replaced closes silently).
      const made: { uplink?: Uplink } = {};
      const lost = (detail: string) => {
        if (this.#uplinks.get(participantId) === made.uplink) this.#events.emit({ type: 'uplink-lost', participantId, detail });
      };
      negotiated = await Uplink.negotiate(this.#net, this.#sourcesOf(participantId), offerSdp, () => this.#events.emit({ type: 'feed-up', participantId }), lost);
      made.uplink = negotiated.uplink;
    } catch (error) {
      throw EngineError.from(error, 'negotiation-failed');
    }
    const { uplink } = negotiated;
    // Left or unpublished meanwhile: the handle comes back closed, and the uplink with it.
    const handle = adopt(negotiated.answer, () => this.#closeUplink(participantId, uplink));
    if (handle.closed) return handle;
    this.#uplinks.get(participantId)?.close(); // a concurrent publish: the last one wins
    this.#uplinks.set(participantId, uplink);
    this.#members.published(participantId);
    return handle;
  }

  #closeUplink(participantId: string, uplink: Uplink): void {
    uplink.close();
    if (this.#uplinks.get(participantId) !== uplink) return;
    this.#uplinks.delete(participantId);
    this.#members.unpublished(participantId);
  }

  async unpublish(participantId: string): Promise<void> {
    await this.#members.unpublish(participantId);
  }

  uplinkMedia(participantId: string): UplinkMedia {
    if (!this.#uplinks.has(participantId)) return 'none';
    const sources = this.#sources.get(participantId);
    return sources && Object.values(sources).some((source) => source.carried) ? 'flowing' : 'idle';
  }

  async subscribe(subscriberId: string, sourceId: string, wants: SubscriptionWants, negotiate: DownlinkNegotiator, options: SubscribeOptions = {}): Promise<SubscriptionHandle> {
    this.#open();
    const adopt = this.#members.beginSubscribe(subscriberId, sourceId);
    await this.#members.whenPublished(sourceId, this.#sourceWaitMs);
    this.#open();
    // Either side may have left while the source was waited for (churn): no downlink made for a participant gone.
    this.#members.assertSameRoom(subscriberId, sourceId);
    const sources = this.#sourcesOf(sourceId);
    const downlink = this.#downlinks.getOrMake(subscriberId, (onFailed) =>
      new SubscriberDownlink(this.#net, this.#counter, negotiate, onFailed, sources.video.codecMimeType ?? sources.aux.codecMimeType, this.#allocate, options.opaque !== true));
    const mids = await downlink.subscribe(sourceId, sources, wants, negotiate, options.opaque === true);
    // Either side left while the m-lines were added: the handle comes back closed, its group freed.
    const handle = adopt(mids, () => { if (this.#downlinks.get(subscriberId) === downlink) downlink.unsubscribe(sourceId); });
    this.#relay.subscribed(handle, wants); // an imported source sends what its subscribers want
    return handle;
  }

  async answerPlayback(viewerId: string, sourceId: string, stream: PlaybackStream, offerSdp: string, wants?: PlaybackWants): Promise<string> {
    this.#open();
    this.#members.assertSameRoom(viewerId, sourceId);
    await this.#members.whenPublished(sourceId, this.#sourceWaitMs);
    this.#open();
    this.#closePlayback(viewerId);
    let made: { link: PlaybackLink; answer: string };
    try {
      made = await PlaybackLink.answer(this.#net, this.#counter, this.#sourcesOf(sourceId), playbackWants(stream, wants), offerSdp, (detail) => {
        if (this.#playbacks.get(viewerId)?.sourceId !== sourceId) return;
        this.#closePlayback(viewerId);
        this.#events.emit({ type: 'downlink-failed', subscriberId: viewerId, detail });
      });
    } catch (error) {
      throw EngineError.from(error, 'negotiation-failed');
    }
    this.#playbacks.set(viewerId, { link: made.link, sourceId });
    return made.answer;
  }

  #closePlayback(viewerId: string): void {
    this.#playbacks.get(viewerId)?.link.close();
    this.#playbacks.delete(viewerId);
  }

  async updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void> {
    this.#open();
    if (!this.#downlinks.get(subscriberId)?.update(sourceId, wants)) {
      throw new EngineError('not-subscribed', `${subscriberId} has no subscription to ${sourceId}`);
    }
    this.#relay.updated(subscriberId, sourceId, wants);
  }

  async unsubscribe(subscriberId: string, sourceId: string): Promise<void> {
    this.#members.endSubscription(subscriberId, sourceId, 'unsubscribed');
    this.#downlinks.get(subscriberId)?.unsubscribe(sourceId);
  }

  async resetDownlink(subscriberId: string): Promise<void> {
    this.#downlinks.close(subscriberId);
  }

  async removeParticipant(participantId: string): Promise<void> {
    await this.#remove(participantId, 'left');
  }

  /** The leave's cascade (EngineMembership.leave) closes its handles: its uplink, its subscriptions, those to it. */
  async #remove(participantId: string, reason: 'left' | 'room-ended' | 'engine-closed'): Promise<void> {
    const released = this.#members.leave(participantId, reason);
    const relayed = this.#relay.left(participantId, reason);
    const reset = this.resetDownlink(participantId);
    // Subscriptions to it still adding their m-lines (no handle yet) are dropped too.
    for (const downlink of this.#downlinks.values()) downlink.unsubscribe(participantId);
    this.#closePlayback(participantId);
    for (const [viewerId, playback] of this.#playbacks) if (playback.sourceId === participantId) this.#closePlayback(viewerId);
    this.#sources.delete(participantId);
    await Promise.all([released, reset, relayed]);
  }

  endRoom(roomId: string): Promise<void> {
    return this.#members.endRoom(roomId, (sourceId) => this.unshareSource(sourceId, roomId), (id) => this.#remove(id, 'room-ended'));
  }

  forwardRtp(participantId: string, targets: RtpForwardTargets): RtpForward {
    return forwardRtp(this.#sourcesOf(participantId), targets);
  }

  /** Cross-room: the source's ForwardSources simply feed downlinks of the other room too. */
  async shareSource(sourceId: string, roomId: string): Promise<void> {
    this.#open();
    this.#members.share(sourceId, roomId);
  }

  async unshareSource(sourceId: string, roomId: string): Promise<void> {
    if (!this.#members.unshare(sourceId, roomId)) return;
    for (const id of this.#members.membersOf(roomId)) {
      this.#members.endSubscription(id, sourceId, 'unshared');
      this.#downlinks.get(id)?.unsubscribe(sourceId);
    }
  }

  exportSource(offer: RelayOffer): Promise<RelayExportHandle> {
    return this.#relay.exportSource(offer);
  }

  importSource(roomId: string, sourceId: string, credential: RelayCredential, connect: RelayConnector): Promise<RelayImportHandle> {
    return this.#relay.importSource(roomId, sourceId, credential, connect);
  }

  onEvent(listener: EngineListener): () => void {
    return this.#events.on(listener);
  }

  stats(): EngineStats {
    return {
      uplinks: this.#uplinks.size,
      downlinks: this.#downlinks.size + this.#playbacks.size,
      subscriptions: this.#downlinks.subscriptions,
      forwardedPackets: this.#counter.packets,
      forwardedBytes: this.#counter.bytes,
      receivedPackets: { ...this.#received },
      peerConnections: this.#census.peerConnections,
      handles: this.#census.transports,
      // In the server's own process: its memory is the server's.
      mediaServerMemoryBytes: undefined,
      relayExports: this.#relay.exports,
      relayImports: this.#relay.imports,
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const ids = new Set([...this.#sources.keys(), ...this.#downlinks.ids(), ...this.#members.participants()]);
    await Promise.all([...ids].map((id) => this.#remove(id, 'engine-closed')));
  }
}
