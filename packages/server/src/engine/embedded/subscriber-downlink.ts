import { closePeer, createDownlinkPeer, DownlinkFeedback, DownlinkGroup, localSdp, watchSendLink, type ForwardCounter, type PeerNetworkOptions, type PublisherSources, type RTCPeerConnection, type RTCRtpSender, type RTCRtpTransceiver, type SendLinkWatch } from '../../webrtc/index.js';
import { DownlinkAllocator } from './downlink-allocator.js';
import { budgetItem } from './downlink-budget.js';
import { EngineError, type DownlinkMids, type DownlinkNegotiator, type SubscriptionWants, type LinkState } from '../media-engine.js';
import { negotiationFailure } from '../subscriber-downlinks.js';

/** How often the allocator sizes a downlink's video to its link. */
const ALLOCATE_MS = 300;

/**
 * A subscriber's one downlink: a send-only werift peer connection whose m-lines come in groups of
 * three (audio, main video, auxiliary video), one group per subscribed source. Subscribing takes a
 * free group when there is one (no renegotiation) or adds a group and renegotiates: the server
 * offers, the client answers. Negotiations are serialised; groups of ended subscriptions are reused.
 * Every ALLOCATE_MS its allocator (issue 43) sizes what the video subscriptions carry to what the subscriber's
 * feedback says the link takes, and caps the retransmissions NACKs ask for to a share of it.
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
  readonly #feedback = new DownlinkFeedback();
  readonly #allocator = new DownlinkAllocator();
  /** Each group's audio sender (its cost doubles with RED). */
  readonly #audioSenders = new Map<DownlinkGroup, RTCRtpSender>();
  readonly #timer: ReturnType<typeof setInterval> | undefined;

  /** `onFailed` is told once when the link fails (transport or negotiation); the owner drops it. */
  /** `allocate` false: no allocator (every subscription gets what it asked; the embedded engine's downlinkAllocator option). */
  /** `red` false: no RED offered for audio (a subscriber that transforms what it receives: SubscribeOptions.opaque). */
  constructor(net: PeerNetworkOptions, counter: ForwardCounter, negotiate: DownlinkNegotiator, onFailed: (detail: string) => void, videoMimeType?: string,
    allocate = true, red = true) {
    this.#net = net;
    this.#counter = counter;
    this.#negotiate = negotiate;
    this.#onFailed = onFailed;
    this.#pc = createDownlinkPeer(net, videoMimeType, red);
    this.#timer = allocate ? setInterval(() => this.allocate(), ALLOCATE_MS) : undefined;
    this.#timer?.unref?.();
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
  subscribe(sourceId: string, sources: PublisherSources, wants: SubscriptionWants, negotiate: DownlinkNegotiator, opaque = false): Promise<DownlinkMids> {
    this.#negotiate = negotiate;
    this.#adding.delete(sourceId); // a later subscription to the same source supersedes one still waiting
    const existing = this.#bySource.get(sourceId);
    if (existing) {
      existing.assign(sources, wants, opaque);
      return Promise.resolve(existing.mids);
    }
    const free = this.#groups.find((group) => group.free);
    if (free) {
      free.assign(sources, wants, opaque);
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
          group.assign(sources, wants, opaque);
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

  /** Sizes the video subscriptions to the link now (run every ALLOCATE_MS; tests call it too). */
  allocate(now = performance.now()): void {
    if (this.#closed) return;
    this.#feedback.watchTransports(this.#pc.dtlsTransports);
    const groups = [...this.#bySource.values()];
    const items = groups.map((group) => budgetItem(String(this.#groups.indexOf(group)), group, !group.opaque && this.#audioSenders.get(group)?.redRedundantPayloadType !== undefined));
    const caps = this.#allocator.tick(now, this.#feedback.estimate(), items);
    for (const group of groups) group.setCap(caps.get(String(this.#groups.indexOf(group))) ?? 'big');
    this.#feedback.retransmitBudgetBps = this.#allocator.retransmitBudgetBps;
  }

  /** The allocator's capacity (bits per second; Infinity until the link showed congestion) and the retransmissions it refused (tests, stats). */
  get allocation(): { capacityBps: number; refusedRetransmissions: number } {
    return { capacityBps: this.#allocator.capacity, refusedRetransmissions: this.#feedback.refusedRetransmissions };
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#feedback.close();
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
    for (const transceiver of transceivers) this.#feedback.watchSender(transceiver.sender);
    this.#audioSenders.set(group, audio.sender);
    return { group, transceivers };
  }
}
