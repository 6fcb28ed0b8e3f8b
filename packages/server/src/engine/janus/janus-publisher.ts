import { UPLINK_SLOTS } from '@conclave/protocol/media';
import type { SourceSlot } from '../media-engine.js';
import type { HandleEvent, JanusClient } from './janus-client.js';

/** The VideoRoom plugin's package name. */
export const VIDEOROOM = 'janus.plugin.videoroom';

/** Uplink m-line index → slot (0 audio, 1 big video, 2 small video, 3 auxiliary). */

interface StreamInfo {
  mindex?: number;
  mid?: string;
  /** The codec Janus negotiated on the m-line ('opus', 'h264', 'vp8'). */
  codec?: string;
}

/**
 * A feed a downlink subscribes to: a publisher of the subscriber's own VideoRoom room, or the remote
 * publisher that carries a publisher of another room into it (a cross-room share, janus-cross-room.ts).
 */
export type JanusFeed = Pick<JanusPublisher, 'feedId' | 'mids' | 'receiving' | 'requestKeyframe'>;

/**
 * A key-frame request is sent again this long after it (ms). Chrome's encoder ignores a request that comes within
 * ~300 ms of the last one it acted on, and every request here (a publisher `configure` with `keyframe`) reaches all
 * of the source's video encoders. So a request made for one switch (to the small stream, say: the big encoder makes
 * a key frame nobody needs) made the big encoder ignore the next switch's own request if it came soon after: the
 * viewer's H264 decoder then decodes the new stream's delta frames on the old one's parameters without an error, so
 * it never asks for a key frame itself and stays at the old size (issue 28: a big→small switch across rooms that
 * stayed 640 wide for 20 s; the demo's small→big switch that stayed 160 wide, one run in six under load). A repeat
 * after the throttle always yields a key frame after the switch.
 */
const KEYFRAME_REPEATS_MS = [400, 1200];

/**
 * One publisher in a VideoRoom: a plugin handle joined as publisher with the client's offer (its feed id
 * is ours), the mid of each slot as Janus reports it, and which slots are receiving media (Janus's
 * 'media' events), so a subscription knows whether the small video flows.
 */
export class JanusPublisher {
  readonly mids: Partial<Record<SourceSlot, string>> = {};
  /** The codec Janus negotiated per slot, when it said (media jobs take only H264 and opus). */
  readonly codecs: Partial<Record<SourceSlot, string>> = {};
  readonly #receiving = new Set<string>();
  #onMediaChange: (() => void) | undefined;
  #onHangup: ((reason: string) => void) | undefined;
  #up = false;
  #closed = false;
  /** A newer publish of the same participant took this one's place, or it closed: it is no longer waited for. */
  #retired = false;
  readonly #upWaiters: { untilRetired: boolean; settle: (up: boolean) => void }[] = [];
  /** The pending repeats of the last key-frame request (see KEYFRAME_REPEATS_MS). */
  #repeats: ReturnType<typeof setTimeout>[] = [];

  private constructor(readonly client: JanusClient, readonly room: number, readonly handleId: number, readonly feedId: number) {}

  /** Joins `room` as publisher `feedId` with the client's offer; resolves to the publisher and the answer SDP. */
  static async join(client: JanusClient, room: number, feedId: number, offerSdp: string): Promise<{ publisher: JanusPublisher; answer: string }> {
    const events: { target?: JanusPublisher } = {};
    const handleId = await client.attach(VIDEOROOM, (event) => events.target?.handleEvent(event));
    const publisher = new JanusPublisher(client, room, handleId, feedId);
    events.target = publisher;
    try {
      const reply = await client.message(handleId, { request: 'joinandconfigure', ptype: 'publisher', room, id: feedId, audio: true, video: true },
        { type: 'offer', sdp: offerSdp });
      if (!reply.jsep || reply.jsep.type !== 'answer') throw new Error('Janus gave no answer to the publisher offer');
      publisher.#readStreams(reply.data.streams);
      for (const [index, slot] of UPLINK_SLOTS.entries()) publisher.mids[slot] ??= String(index);
      return { publisher, answer: reply.jsep.sdp };
    } catch (error) {
      client.detach(handleId);
      throw error;
    }
  }

  /** True while Janus receives media on the slot's m-line. */
  receiving(slot: SourceSlot): boolean {
    const mid = this.mids[slot];
    return mid !== undefined && this.#receiving.has(mid);
  }

  /** True while the peer connection is up and Janus receives media on one of its m-lines (the engine's uplinkMedia). */
  get carriesMedia(): boolean {
    return this.#up && !this.closed && this.#receiving.size > 0;
  }

  /**
   * Resolves to true once the publisher's peer connection is up (Janus's 'webrtcup'): Janus 1.1 refuses to
   * subscribe to a feed before that ("No such feed"). With `untilRetired`, resolves to false as soon as the
   * publisher is retired (a newer publish took its place, or it closed): a subscription then looks for the
   * current one instead of waiting for a feed the client abandoned. Rejects after `timeoutMs`.
   */
  whenUp(timeoutMs: number, untilRetired = false): Promise<boolean> {
    if (this.#up) return Promise.resolve(true);
    if (untilRetired && this.#retired) return Promise.resolve(false);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#upWaiters.splice(this.#upWaiters.indexOf(waiter), 1);
        reject(new Error('the source\'s uplink did not connect in time'));
      }, timeoutMs);
      const waiter = {
        untilRetired,
        settle: (up: boolean) => {
          clearTimeout(timer);
          resolve(up);
        },
      };
      this.#upWaiters.push(waiter);
    });
  }

  /** A newer publish of the same participant took this one's place (it still closes only once that one is up). */
  retire(): void {
    this.#retired = true;
    for (const waiter of this.#upWaiters.filter((w) => w.untilRetired)) {
      this.#upWaiters.splice(this.#upWaiters.indexOf(waiter), 1);
      waiter.settle(false);
    }
  }

  /** Called when Janus hangs up the client's peer connection (it closed it, or ICE / DTLS failed), with why. */
  onHangup(listener: (reason: string) => void): void {
    this.#onHangup = listener;
  }

  /** Called when a slot starts or stops receiving media. */
  onMediaChange(listener: () => void): void {
    this.#onMediaChange = listener;
  }

  /**
   * Asks the browser for a key frame on every video stream: a publisher `configure` with `keyframe: true`
   * (Janus sends a PLI), now and again after each of KEYFRAME_REPEATS_MS (a new request restarts the repeats).
   */
  requestKeyframe(): void {
    for (const timer of this.#repeats.splice(0)) clearTimeout(timer);
    this.#sendKeyframeRequest();
    this.#repeats = KEYFRAME_REPEATS_MS.map((delay) => {
      const timer = setTimeout(() => {
        if (!this.closed) this.#sendKeyframeRequest();
      }, delay);
      timer.unref();
      return timer;
    });
  }

  #sendKeyframeRequest(): void {
    this.client.message(this.handleId, { request: 'configure', keyframe: true }).catch(() => undefined); // the handle may be gone: its feed has no subscriber left to need the frame
  }

  /** Leaves the room (its subscribers' streams go idle) and closes the handle. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#repeats.splice(0)) clearTimeout(timer);
    this.retire();
    this.client.detach(this.handleId);
  }

  /** True once closed (its handle and its forwarders are gone). */
  get closed(): boolean {
    return this.#closed || this.client.closed;
  }

  #readStreams(streams: unknown): void {
    if (!Array.isArray(streams)) return;
    for (const stream of streams as StreamInfo[]) {
      const slot = stream.mindex !== undefined ? UPLINK_SLOTS[stream.mindex] : undefined;
      if (slot && stream.mid !== undefined) this.mids[slot] = stream.mid;
      if (slot && typeof stream.codec === 'string') this.codecs[slot] = stream.codec.toLowerCase();
    }
  }

  /** A core or plugin event of this handle. */
  handleEvent(event: HandleEvent): void {
    if (event.janus === 'webrtcup') {
      this.#up = true;
      for (const waiter of this.#upWaiters.splice(0)) waiter.settle(true);
      return;
    }
    if (event.janus === 'hangup') {
      // The client's uplink is gone (it will publish again): subscriptions wait for the new one.
      this.#up = false;
      if (!this.#closed) this.#onHangup?.(event.reason ?? 'hangup');
      return;
    }
    if (event.janus !== 'media') return;
    const media = event;
    if (media.mid === undefined) return;
    const before = this.#receiving.has(media.mid);
    if (media.receiving) this.#receiving.add(media.mid);
    else this.#receiving.delete(media.mid);
    if (before !== !!media.receiving) this.#onMediaChange?.();
  }
}
