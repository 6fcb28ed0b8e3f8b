import type { Logger } from 'pino';
import { chooseLayer, type Layer } from '../../webrtc/index.js';
import { EngineError, type DownlinkMids, type DownlinkNegotiator, type SubscriptionWants } from '../media-engine.js';
import { JanusError, type HandleEvent, type JanusClient, type PluginReply } from './janus-client.js';
import { VIDEOROOM, type JanusFeed } from './janus-publisher.js';
import { negotiationFailure } from '../subscriber-downlinks.js';

/** Tries of a group update that Janus refuses, and the pause between them. */
const APPLY_TRIES = 4;
const APPLY_RETRY_MS = 500;

/** VideoRoom's error code for a feed that is not (or no longer) in the room. */
const JANUS_NO_SUCH_FEED = 428;

/** How long Janus may take to send a deferred offer. */
const OFFER_TIMEOUT_MS = 10_000;

const NOTHING: SubscriptionWants = { audio: false, bigVideo: false, smallVideo: false, auxVideo: false };

interface SubStream {
  mid?: string;
  feed_id?: number;
  feed_mid?: string;
}

/** What one group's three m-lines carry now, as Janus was told. */
interface Sent {
  audio: boolean;
  video: boolean;
  aux: boolean;
  layer: Layer;
  feedId: number;
}

/** Three m-lines of the downlink (audio, main video, auxiliary video) and the source they carry. */
interface Group {
  mids: DownlinkMids;
  sourceId: string | undefined;
  publisher: JanusFeed;
  wants: SubscriptionWants;
  sent: Sent;
}

/**
 * A subscriber's one downlink in a VideoRoom: one multistream subscriber handle whose streams come in
 * groups of three (audio, the big or small camera video, auxiliary video), one group per subscribed
 * source. A new subscription adds three streams with `subscribe` (Janus recycles m-lines whose feed left),
 * for which Janus offers and the client answers (sent back with `start`); a republished source is
 * `switch`ed to its new feed. What flows is set with `configure` (send on/off per stream), the
 * camera layer with `switch` (Janus asks the new layer for a key frame). `autoupdate` is off: when a
 * publisher leaves, its streams idle instead of Janus renegotiating on its own. Janus still offers on its
 * own in one case: a `switch` onto streams whose feed has left (a republishing client closed its old
 * uplink before the new one was up) makes those m-lines new for Janus, which then forwards nothing on
 * them until the client answered that offer; every such offer is negotiated with the client. Every
 * request on the handle is serialised.
 */
export class JanusDownlink {
  readonly #client: JanusClient;
  readonly #room: number;
  readonly #logger: Logger;
  #handleId: number | undefined;
  /** The client's side of this downlink's negotiations (the last one a subscription handed over). */
  #negotiate: DownlinkNegotiator | undefined;
  readonly #groups: Group[] = [];
  readonly #bySource = new Map<string, Group>();
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #failed = false;
  /** The subscriber's peer connection is up (Janus's 'webrtcup'). */
  #webrtcUp = false;
  /** Waits for an offer Janus sends as an event (a renegotiation it deferred until the link was up). */
  #offerWaiter: ((sdp: string) => void) | undefined;

  readonly #onFailed: (detail: string) => void;

  /** `onFailed` is told once when the downlink fails (Janus hung it up, a negotiation failed); the owner drops it. */
  constructor(client: JanusClient, room: number, logger: Logger, onFailed: (detail: string) => void) {
    this.#client = client;
    this.#room = room;
    this.#logger = logger;
    this.#onFailed = onFailed;
  }

  #fail(detail: string): void {
    if (this.#failed || this.#closed) return;
    this.#failed = true;
    this.#onFailed(detail);
  }

  /** Subscriptions carried now. */
  get sources(): number {
    return this.#bySource.size;
  }

  /** Carries `publisher`'s feed as `sourceId`; resolves with the group's mids once they are usable. */
  subscribe(sourceId: string, publisher: JanusFeed, wants: SubscriptionWants, clientNegotiate: DownlinkNegotiator): Promise<DownlinkMids> {
    // Every offer of this link reaches the client with Janus as the DTLS client (janusLeadsDtls).
    const negotiate: DownlinkNegotiator = (offer) => clientNegotiate(janusLeadsDtls(offer));
    this.#negotiate = negotiate;
    const existing = this.#bySource.get(sourceId);
    if (existing) {
      existing.publisher = publisher;
      existing.wants = wants;
      return this.#applyRetrying(existing).then(() => existing.mids);
    }
    // A free group (its source left) is not `switch`ed to the new feed: on Janus 1.1.2 paused streams whose
    // feed has left forward nothing after a switch (seen in the kick-and-rejoin e2e test). `subscribe` instead:
    // Janus itself recycles m-lines that lost their feed, so the m-line count still does not grow with churn.
    const group: Group = { mids: { audio: '', video: '', aux: '' }, sourceId, publisher, wants, sent: { audio: true, video: true, aux: true, layer: 'video', feedId: publisher.feedId } };
    this.#bySource.set(sourceId, group);
    return new Promise<DownlinkMids>((resolve, reject) => {
      /** Set when Janus refused to add the streams to a working downlink, before anything was offered to the client. */
      let refused: EngineError | undefined;
      this.#enqueue(async () => {
        group.sent.layer = this.#layer(group);
        const { mids } = publisher;
        const streams = [mids.audio, mids[group.sent.layer], mids.aux].map((mid) => ({ feed: publisher.feedId, mid }));
        const deferred = this.#nextOffer();
        const joined = this.#handleId !== undefined;
        let reply: PluginReply;
        try {
          reply = await this.#request(streams);
        } catch (error) {
          deferred.cancel();
          // Churn: the source left between its subscription and this request ("No such feed"), or Janus refused
          // for another reason. Nothing reached the client: the downlink and its other subscriptions stay.
          if (joined && error instanceof JanusError) refused = EngineError.from(error, error.code === JANUS_NO_SUCH_FEED ? 'not-published' : 'refused');
          throw error;
        }
        // Janus 1.1 defers a renegotiation asked for before the link is up and offers later, as an event.
        const offer = reply.jsep?.type === 'offer' ? reply.jsep.sdp : await deferred.offer.catch((error: unknown) => {
          throw new Error(`${(error as Error).message} (Janus replied ${JSON.stringify(reply.data).slice(0, 300)})`);
        });
        deferred.cancel();
        this.#readMids(group, reply.data.streams, streams.map((s) => s.mid));
        this.#groups.push(group);
        const answer = negotiate(offer);
        // Awaited after the pause below: a client that fails at once must not be an unhandled rejection meanwhile.
        answer.catch(() => undefined);
        resolve(group.mids);
        // Streams not wanted (autoReceiveVideo false, say) are paused before `start`: with the link up first,
        // Janus forwarded a few kilobytes of them before the pause arrived.
        await this.#apply(group);
        await this.#client.message(this.#handleId!, { request: 'start' }, { type: 'answer', sdp: await answer });
      }).catch((error: unknown) => {
        if (this.#bySource.get(sourceId) === group) this.#bySource.delete(sourceId);
        if (refused && !this.#closed) {
          reject(refused);
          return;
        }
        const failure = negotiationFailure(error, this.#closed);
        reject(failure.error);
        this.#fail(failure.detail);
      });
    });
  }

  /** Changes what flows of a subscribed source (queued). */
  update(sourceId: string, wants: SubscriptionWants): Promise<void> {
    const group = this.#bySource.get(sourceId);
    if (!group) return Promise.reject(new EngineError('not-subscribed', `no subscription to ${sourceId} on this downlink`));
    group.wants = wants;
    return this.#applyRetrying(group);
  }

  /** Ends a subscription: its streams stop and wait for the next source. */
  unsubscribe(sourceId: string): Promise<void> {
    const group = this.#bySource.get(sourceId);
    if (!group) return Promise.resolve();
    this.#bySource.delete(sourceId);
    group.sourceId = undefined;
    group.wants = NOTHING;
    return this.#applyRetrying(group);
  }

  /** The source republished or its small video started/stopped: re-point and re-choose the layer. */
  refresh(sourceId: string, publisher: JanusFeed): Promise<void> {
    const group = this.#bySource.get(sourceId);
    if (!group) return Promise.resolve();
    group.publisher = publisher;
    return this.#applyRetrying(group);
  }

  /**
   * Applies a group's state, again after a short pause when Janus refused a request (a feed between two
   * states, a busy Janus): a lost `switch` or `configure` would otherwise leave the group as it was until
   * the next change. The last error is passed on after the tries; a downlink closed meanwhile has nothing to apply.
   */
  async #applyRetrying(group: Group): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (this.#closed) return; // reset meanwhile: its subscriptions are gone with it
      try {
        await this.#enqueue(() => this.#apply(group));
        return;
      } catch (error) {
        if (this.#closed) return;
        if (attempt >= APPLY_TRIES) throw EngineError.from(error, 'refused');
        await new Promise((resolve) => setTimeout(resolve, APPLY_RETRY_MS));
      }
    }
  }

  close(): void {
    this.#closed = true;
    this.#bySource.clear();
    if (this.#handleId !== undefined) this.#client.detach(this.#handleId);
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = () => {
      if (this.#closed) throw new Error('downlink closed');
      return task();
    };
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined); // only orders the next task: the caller gets `result`
    return result;
  }

  /** The next offer Janus pushes as an event (bounded wait), and a way to stop waiting. */
  #nextOffer(): { offer: Promise<string>; cancel: () => void } {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const offer = new Promise<string>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('Janus sent no offer for the new streams')), OFFER_TIMEOUT_MS);
      this.#offerWaiter = (sdp) => {
        clearTimeout(timer);
        resolve(sdp);
      };
    });
    offer.catch(() => undefined); // the caller awaits `offer` later, or cancels it: no unhandled rejection meanwhile
    return {
      offer,
      cancel: () => {
        clearTimeout(timer);
        this.#offerWaiter = undefined;
      },
    };
  }

  #onEvent(event: HandleEvent): void {
    if (event.jsep?.type === 'offer') {
      const offer = event.jsep.sdp;
      if (this.#offerWaiter) this.#offerWaiter(offer);
      else this.#enqueue(() => this.#answerJanus(offer)).catch(() => undefined); // #answerJanus logs its failure
    }
    if (event.janus === 'webrtcup') this.#webrtcUp = true;
    if (event.janus === 'hangup') {
      this.#webrtcUp = false;
      this.#fail(`Janus hung up the downlink${event.reason ? `: ${event.reason}` : ''}`);
    }
  }

  /**
   * Negotiates an offer Janus made on its own with the client and sends the answer (`start`). A failure is
   * logged and marks the downlink failed (its streams forward nothing until answered): the next
   * subscription rebuilds it.
   */
  async #answerJanus(offer: string): Promise<void> {
    try {
      if (!this.#negotiate) throw new Error('no negotiation with the client yet');
      const answer = await this.#negotiate(offer);
      await this.#client.message(this.#handleId!, { request: 'start' }, { type: 'answer', sdp: answer });
      this.#logger.info({ handle: this.#handleId }, 'janus: downlink renegotiated (Janus offered after a switch)');
    } catch (error) {
      this.#logger.error({ err: error, handle: this.#handleId }, 'janus: renegotiating a downlink failed; it is dropped and the client told');
      this.#fail(`renegotiation failed: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  }

  /** The first streams join the room as a subscriber; later ones are added with `subscribe`. */
  async #request(streams: { feed: number; mid: string | undefined }[]): Promise<PluginReply> {
    if (this.#handleId === undefined) {
      this.#handleId = await this.#client.attach(VIDEOROOM, (event) => this.#onEvent(event));
      return this.#client.message(this.#handleId, { request: 'join', ptype: 'subscriber', room: this.#room, autoupdate: false, use_msid: false, streams });
    }
    return this.#client.message(this.#handleId, { request: 'subscribe', streams });
  }

  /**
   * The new group's mids: the streams Janus lists for the feed mids asked for. Janus may recycle m-lines of
   * free groups (their feed left); such a group is dropped, its m-lines now belong to the new one.
   */
  #readMids(group: Group, streams: unknown, asked: (string | undefined)[]): void {
    const list = (Array.isArray(streams) ? streams as SubStream[] : [])
      .filter((s) => s.mid !== undefined && s.feed_id === group.publisher.feedId);
    const mids = asked.map((feedMid) => list.filter((s) => s.feed_mid === feedMid).at(-1)?.mid);
    if (mids.some((mid) => mid === undefined)) throw new Error(`Janus listed ${mids.filter(Boolean).length} of the 3 streams asked for`);
    group.mids = { audio: mids[0]!, video: mids[1]!, aux: mids[2]! };
    const taken = new Set(mids);
    for (let i = this.#groups.length - 1; i >= 0; i--) {
      const old = this.#groups[i];
      if ([old.mids.audio, old.mids.video, old.mids.aux].some((mid) => taken.has(mid))) this.#groups.splice(i, 1);
    }
  }

  #layer(group: Group): Layer {
    return chooseLayer(group.wants, group.publisher.receiving('small'));
  }

  /** Brings Janus in line with the group: feed and layer (switch), then what is sent (configure). */
  async #apply(group: Group): Promise<void> {
    const { sent, publisher } = group;
    if (!this.#groups.includes(group)) return; // its m-lines are not negotiated yet: applied once they are
    const { mids, feedId } = publisher;
    const layer = this.#layer(group);
    const active = group.sourceId !== undefined;
    const switches: Record<string, unknown>[] = [];
    if (active && sent.feedId !== feedId) {
      switches.push({ feed: feedId, mid: mids.audio, sub_mid: group.mids.audio }, { feed: feedId, mid: mids.aux, sub_mid: group.mids.aux });
    }
    if (active && (sent.feedId !== feedId || sent.layer !== layer)) switches.push({ feed: feedId, mid: mids[layer], sub_mid: group.mids.video });
    if (switches.length > 0) {
      const reply = await this.#client.message(this.#handleId!, { request: 'switch', streams: switches });
      sent.feedId = feedId;
      sent.layer = layer;
      // Streams whose feed had left are renegotiated: Janus's offer comes under the switch's transaction
      // (videoroom 'updated'), and the 'switched' event follows on its own.
      if (reply.jsep?.type === 'offer') await this.#answerJanus(reply.jsep.sdp);
      // Janus asks the feed for a key frame when it switches; asking the publisher handle as well covers a request
      // the encoder ignored (it throttles them); the publisher repeats it after the throttle (janus-publisher.ts,
      // KEYFRAME_REPEATS_MS).
      if (this.#webrtcUp) publisher.requestKeyframe();
    }
    const want = { audio: group.wants.audio, video: group.wants.bigVideo || group.wants.smallVideo, aux: group.wants.auxVideo };
    const changes: { mid: string; send: boolean }[] = [];
    if (sent.audio !== want.audio) changes.push({ mid: group.mids.audio, send: want.audio });
    if (sent.video !== want.video) changes.push({ mid: group.mids.video, send: want.video });
    if (sent.aux !== want.aux) changes.push({ mid: group.mids.aux, send: want.aux });
    if (changes.length > 0) {
      const resumed = (want.video && !sent.video) || (want.aux && !sent.aux);
      await this.#client.message(this.#handleId!, { request: 'configure', streams: changes });
      Object.assign(sent, want);
      // Janus 1.1 asks for a key frame when it switches a stream or the link comes up, not when sending
      // resumes. Only once the link is up: a key frame sent before is lost, and the encoder then throttles
      // the next requests (the first frame then comes ~500 ms after subscribing instead of ~200).
      if (resumed && active && this.#webrtcUp) publisher.requestKeyframe();
    }
  }
}

/**
 * Makes Janus the DTLS client of a subscriber link (its offer says `active` instead of `actpass`, so the
 * browser answers `passive`). With the browser as client, its first ClientHello often reached Janus before
 * Janus had the pair up and was dropped, costing one or two of the browser's 50/100 ms retransmission
 * timeouts before the first frame; Janus sends its ClientHello when its side is up (right after its
 * nominating check), and the browser keeps a ClientHello that comes early. Every offer of the link is rewritten, so the roles never change.
 */
export function janusLeadsDtls(offerSdp: string): string {
  return offerSdp.replace(/a=setup:actpass/g, 'a=setup:active');
}
