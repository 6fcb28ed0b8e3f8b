import { closePeer, createSendPeer, DownlinkGroup, localSdp, watchSendLink, type ForwardCounter, type PeerNetworkOptions, type PublisherSources, type RTCPeerConnection, type RTCRtpTransceiver, type SendLinkWatch } from '../../webrtc/index.js';
import { EngineError, type DownlinkMids, type DownlinkNegotiator, type SubscriptionWants, type LinkState } from '../media-engine.js';
import { negotiationFailure } from '../subscriber-downlinks.js';

/**
 * A subscriber's one downlink: a send-only werift peer connection whose m-lines come in groups of
 * three (audio, main video, auxiliary video), one group per subscribed source. Subscribing takes a
 * free group when there is one (no renegotiation) or adds a group and renegotiates: the server
 * offers, the client answers. Negotiations are serialised; groups of ended subscriptions are reused.
 */
export class SubscriberDownlink {
  readonly #pc: RTCPeerConnection;
  readonly #net: PeerNetworkOptions;
  readonly #counter: ForwardCounter;
  readonly #groups: DownlinkGroup[] = [];
  readonly #bySource = new Map<string, DownlinkGroup>();
  /** Subscriptions waiting for new m-lines, by source: one ended meanwhile is gone from here (its group stays free). */
  readonly #adding = new Map<string, object>();
  #negotiate: DownlinkNegotiator;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #link: SendLinkWatch;
  #closed = false;
  #failed = false;
  readonly #onFailed: (detail: string) => void;

  /** `onFailed` is told once when the link fails (transport or negotiation); the owner drops it. */
  constructor(net: PeerNetworkOptions, counter: ForwardCounter, negotiate: DownlinkNegotiator, onFailed: (detail: string) => void, videoMimeType?: string) {
    this.#net = net;
    this.#counter = counter;
    this.#negotiate = negotiate;
    this.#onFailed = onFailed;
    this.#pc = createSendPeer(net, videoMimeType);
    this.#link = watchSendLink(this.#pc, (state) => {
      if (state === 'connected') for (const group of this.#groups) group.linkUp();
      if (state === 'failed') this.#fail('the downlink peer connection failed');
    });
  }

  #fail(detail: string): void {
    if (this.#failed || this.#closed) return;
    this.#failed = true;
    this.#onFailed(detail);
  }

  /**
   * Carries `sources` (of source `sourceId`) to the subscriber; resolves with the group's mids once
   * they are usable: at once for a reused group, after the offer adding it was sent otherwise (the
   * answer comes later; the next negotiation waits for it).
   */
  subscribe(sourceId: string, sources: PublisherSources, wants: SubscriptionWants, negotiate: DownlinkNegotiator): Promise<DownlinkMids> {
    this.#negotiate = negotiate;
    this.#adding.delete(sourceId); // a later subscription to the same source supersedes one still waiting
    const existing = this.#bySource.get(sourceId);
    if (existing) {
      existing.assign(sources, wants);
      return Promise.resolve(existing.mids);
    }
    const free = this.#groups.find((group) => group.free);
    if (free) {
      free.assign(sources, wants);
      this.#bySource.set(sourceId, free);
      return Promise.resolve(free.mids);
    }
    const adding = {};
    this.#adding.set(sourceId, adding);
    return new Promise((resolve, reject) => {
      this.#queue = this.#queue.then(async () => {
        const current = this.#adding.get(sourceId) === adding;
        if (current) this.#adding.delete(sourceId);
        if (this.#closed) throw new EngineError('closed', 'downlink closed');
        const { group, transceivers } = this.#addGroup();
        // Ended while waiting (the source left, the subscriber changed its mind): the m-lines are added all
        // the same (the answer is on its way) and wait free for the next source.
        if (current) {
          group.assign(sources, wants);
          this.#bySource.set(sourceId, group);
        }
        await this.#pc.setLocalDescription(await this.#pc.createOffer());
        this.#link.guard();
        // werift gives the new m-lines their mids when the offer is created.
        const [audio, video, aux] = transceivers.map((t) => t.mid ?? '');
        Object.assign(group.mids, { audio, video, aux });
        const answer = this.#negotiate(localSdp(this.#pc, this.#net));
        resolve(group.mids);
        await this.#pc.setRemoteDescription({ type: 'answer', sdp: await answer });
      }).catch((error: unknown) => {
        const failure = negotiationFailure(error, this.#closed);
        reject(failure.error);
        this.#fail(failure.detail);
      });
    });
  }

  /** Changes what flows of a subscribed source; false when it is not subscribed. */
  update(sourceId: string, wants: SubscriptionWants): boolean {
    const group = this.#bySource.get(sourceId);
    group?.update(wants);
    return group !== undefined;
  }

  /** Ends a subscription; its group stays for the next one. */
  unsubscribe(sourceId: string): void {
    this.#adding.delete(sourceId);
    this.#bySource.get(sourceId)?.release();
    this.#bySource.delete(sourceId);
  }

  /** Sources subscribed now. */
  get sources(): number {
    return this.#bySource.size;
  }

  /** The camera layer forwarded of a source (tests). */
  layerOf(sourceId: string): string | undefined {
    return this.#bySource.get(sourceId)?.layer;
  }

  get state(): LinkState {
    return this.#link.state;
  }

  close(): void {
    this.#closed = true;
    this.#link.stop();
    for (const group of this.#groups) group.release();
    this.#bySource.clear();
    closePeer(this.#pc);
  }

  #addGroup(): { group: DownlinkGroup; transceivers: RTCRtpTransceiver[] } {
    const add = (kind: 'audio' | 'video') => this.#pc.addTransceiver(kind, { direction: 'sendonly' });
    const transceivers = [add('audio'), add('video'), add('video')];
    const [audio, video, aux] = transceivers;
    const group = new DownlinkGroup({ audio: audio.sender, video: video.sender, aux: aux.sender },
      { audio: '', video: '', aux: '' }, this.#counter, () => this.#link.state === 'connected');
    this.#groups.push(group);
    return { group, transceivers };
  }
}
