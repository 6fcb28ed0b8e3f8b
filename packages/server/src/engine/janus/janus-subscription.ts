import { chooseLayer, type Layer } from '../layers.js';
import type { ForwardWants } from '../media-engine.js';
import type { JanusClient } from './janus-client.js';
import { VIDEOROOM, type JanusPublisher } from './janus-publisher.js';

const NOTHING: ForwardWants = { audio: false, bigVideo: false, smallVideo: false, auxVideo: false };

interface SubStream {
  mindex?: number;
  mid?: string;
}

/** What flows on each of the three m-lines. */
interface Sent {
  audio: boolean;
  video: boolean;
  aux: boolean;
  layer: Layer;
  feedId: number;
}

/**
 * One subscriber's downlink for one source in a VideoRoom: a subscriber handle with three streams of
 * the source's feed (audio, the big or small camera video, the auxiliary video), in the m-line order
 * the SDK expects. Janus offers; what flows changes with `configure` (send on/off per stream) and the
 * camera layer with `switch` (Janus asks the new layer for a key frame), never with renegotiation.
 * `autoupdate` is off: when the publisher leaves, the streams go idle instead of Janus sending a new
 * offer the client could not take; a republish is `switch`ed in. Changes are serialised.
 */
export class JanusSubscription {
  #publisher: JanusPublisher;
  #wants: ForwardWants;
  #sent: Sent | undefined;
  readonly #subMids: string[] = ['0', '1', '2'];
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  private constructor(readonly client: JanusClient, readonly handleId: number, publisher: JanusPublisher, wants: ForwardWants) {
    this.#publisher = publisher;
    this.#wants = wants;
  }

  /** Joins `room` as a subscriber of `publisher`'s feed; resolves to the subscription and Janus's offer. */
  static async create(client: JanusClient, room: number, publisher: JanusPublisher, wants: ForwardWants): Promise<{ subscription: JanusSubscription; offer: string }> {
    const handleId = await client.attach(VIDEOROOM, () => undefined);
    const subscription = new JanusSubscription(client, handleId, publisher, wants);
    const layer = subscription.#layer;
    const { mids } = publisher;
    try {
      const reply = await client.message(handleId, {
        request: 'join', ptype: 'subscriber', room, autoupdate: false, use_msid: false,
        streams: [mids.audio, mids[layer], mids.aux].map((mid) => ({ feed: publisher.feedId, mid })),
      });
      if (!reply.jsep || reply.jsep.type !== 'offer') throw new Error('Janus gave no offer for the subscription');
      const streams = Array.isArray(reply.data.streams) ? reply.data.streams as SubStream[] : [];
      for (const stream of streams) {
        if (stream.mindex !== undefined && stream.mindex < 3 && stream.mid !== undefined) subscription.#subMids[stream.mindex] = stream.mid;
      }
      // Everything flows from the join on; the first update turns off what is not wanted.
      subscription.#sent = { audio: true, video: true, aux: true, layer, feedId: publisher.feedId };
      return { subscription, offer: reply.jsep.sdp };
    } catch (error) {
      client.detach(handleId);
      throw error;
    }
  }

  /** Applies the client's answer and then what is wanted. */
  async start(answerSdp: string): Promise<void> {
    await this.client.message(this.handleId, { request: 'start' }, { type: 'answer', sdp: answerSdp, trickle: false });
    await this.#enqueue();
  }

  /** The source of this subscription. */
  get publisher(): JanusPublisher {
    return this.#publisher;
  }

  /** Changes what flows (queued). */
  update(wants: ForwardWants): Promise<void> {
    this.#wants = wants;
    return this.#enqueue();
  }

  /** The source republished: feed the same m-lines from its new feed (queued). */
  repoint(publisher: JanusPublisher): Promise<void> {
    this.#publisher = publisher;
    return this.#enqueue();
  }

  /** Re-evaluates the layer (the small video started or stopped). */
  refresh(): Promise<void> {
    return this.#enqueue();
  }

  close(): void {
    this.#closed = true;
    this.#wants = NOTHING;
    this.client.detach(this.handleId);
  }

  get #layer(): Layer {
    return chooseLayer(this.#wants, this.#publisher.receiving('small'));
  }

  #enqueue(): Promise<void> {
    const run = () => this.#apply();
    this.#queue = this.#queue.then(run, run);
    return this.#queue;
  }

  async #apply(): Promise<void> {
    const sent = this.#sent;
    if (this.#closed || !sent) return;
    const publisher = this.#publisher;
    const { mids, feedId } = publisher;
    const layer = this.#layer;
    const want = { audio: this.#wants.audio, video: this.#wants.bigVideo || this.#wants.smallVideo, aux: this.#wants.auxVideo };
    const switches: Record<string, unknown>[] = [];
    if (sent.feedId !== feedId) {
      switches.push({ feed: feedId, mid: mids.audio, sub_mid: this.#subMids[0] }, { feed: feedId, mid: mids.aux, sub_mid: this.#subMids[2] });
    }
    if (sent.feedId !== feedId || sent.layer !== layer) switches.push({ feed: feedId, mid: mids[layer], sub_mid: this.#subMids[1] });
    if (switches.length > 0) {
      await this.client.message(this.handleId, { request: 'switch', streams: switches });
      sent.feedId = feedId;
      sent.layer = layer;
    }
    const changes: { mid: string; send: boolean }[] = [];
    if (sent.audio !== want.audio) changes.push({ mid: this.#subMids[0], send: want.audio });
    if (sent.video !== want.video) changes.push({ mid: this.#subMids[1], send: want.video });
    if (sent.aux !== want.aux) changes.push({ mid: this.#subMids[2], send: want.aux });
    if (changes.length > 0) {
      await this.client.message(this.handleId, { request: 'configure', streams: changes });
      Object.assign(sent, want);
    }
  }
}
