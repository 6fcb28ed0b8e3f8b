import { randomInt } from 'node:crypto';
import type { RtpForward, RtpForwardTargets, SourceSlot } from '../media-engine.js';
import { RTP_FORWARD_PAYLOAD_TYPE } from '../media-engine.js';
import type { JanusPublisher } from './janus-publisher.js';

/** How long a forward waits for a (re)appearing publisher's peer connection before giving up on it. */
const UP_TIMEOUT_MS = 30_000;

/** What a forward needs to know of a publisher to build its request. */
export type ForwardedPublisher = Pick<JanusPublisher, 'room' | 'feedId' | 'mids' | 'codecs'>;

/** One stream of a VideoRoom `rtp_forward` request (Janus 1.x multistream form). */
export interface ForwardStream {
  mid: string;
  host: string;
  port: number;
  pt: number;
  ssrc: number;
}

/** The SSRCs a forward keeps for its life (the job's pipeline sees one stream each, whatever the publisher). */
export interface ForwardSsrcs {
  video: number;
  audio: number;
}

/** The codec each kind must have to be forwarded: jobs decode H264 and opus only. */
const WANTED_CODEC = { video: 'h264', audio: 'opus' } as const;

/** A random SSRC, never 0 (Janus takes 0 as "keep the publisher's"). */
export function randomSsrc(): number {
  return randomInt(1, 0xffffffff);
}

/**
 * The streams of `publisher` to forward for `targets`: its audio and its main or auxiliary video, each only
 * when it has a port and its codec is the one jobs decode (a VP8 publisher's video is not mixed, as on the
 * embedded engine; a codec Janus did not report is taken as negotiated from the room's list, i.e. forwarded).
 */
export function forwardStreams(publisher: ForwardedPublisher, targets: RtpForwardTargets, ssrcs: ForwardSsrcs): ForwardStream[] {
  const host = targets.host ?? '127.0.0.1';
  const wanted: [kind: 'video' | 'audio', slot: SourceSlot, port: number | undefined][] = [
    ['video', targets.stream === 'aux' ? 'aux' : 'video', targets.videoPort],
    ['audio', 'audio', targets.audioPort],
  ];
  const streams: ForwardStream[] = [];
  for (const [kind, slot, port] of wanted) {
    const mid = publisher.mids[slot];
    const codec = publisher.codecs[slot];
    if (port === undefined || mid === undefined) continue;
    if (codec !== undefined && codec !== WANTED_CODEC[kind]) continue;
    streams.push({ mid, host, port, pt: RTP_FORWARD_PAYLOAD_TYPE[kind], ssrc: ssrcs[kind] });
  }
  return streams;
}

/** The VideoRoom request that starts forwarding `streams` of a publisher (no admin_key: see janusVideoRoomConfig). */
export function rtpForwardRequest(publisher: ForwardedPublisher, streams: ForwardStream[]): Record<string, unknown> {
  return { request: 'rtp_forward', room: publisher.room, publisher_id: publisher.feedId, host: streams[0]?.host ?? '127.0.0.1', streams };
}

/** The VideoRoom request that stops one forwarder. */
export function stopRtpForwardRequest(publisher: ForwardedPublisher, streamId: number): Record<string, unknown> {
  return { request: 'stop_rtp_forward', room: publisher.room, publisher_id: publisher.feedId, stream_id: streamId };
}

/** The forwarder ids in an `rtp_forward` reply (`forwarders: [{ stream_id, type, … }]`). */
export function forwarderIds(reply: Record<string, unknown>): number[] {
  const forwarders = reply.forwarders;
  if (!Array.isArray(forwarders)) return [];
  return forwarders.flatMap((f: unknown) => {
    const id = (f as { stream_id?: unknown } | null)?.stream_id;
    return typeof id === 'number' ? [id] : [];
  });
}

/**
 * One feed to a media job on the Janus engine: VideoRoom forwarders (`rtp_forward`) on the participant's
 * current publisher, issued again whenever it publishes anew (a republish is a new publisher handle, whose
 * forwarders Janus creates afresh) with the same SSRCs and payload types. Janus passes the browser's sequence
 * numbers and timestamps through, so they jump at a republish (the job's depayloaders take that as a
 * discontinuity and resume at the next key frame, which is asked for at once). Requests run one at a time.
 */
export class JanusForward implements RtpForward {
  readonly #targets: RtpForwardTargets;
  readonly #ssrcs: ForwardSsrcs = { video: randomSsrc(), audio: randomSsrc() };
  readonly #onStop: (forward: JanusForward) => void;
  readonly #onStopFailed: (detail: string) => void;
  readonly #onStartFailed: (detail: string) => void;
  /** The publisher the forward should be on (the latest one). */
  #target: JanusPublisher | undefined;
  /** The publisher its forwarders are on, and their ids. */
  #active: { publisher: JanusPublisher; streamIds: number[] } | undefined;
  #queue: Promise<void> = Promise.resolve();
  #stopped = false;

  /**
   * `onStopFailed` hears of a forwarder Janus did not stop (it may keep sending to the job's port), `onStartFailed`
   * of one it did not start (the job gets no media from this publisher).
   */
  constructor(targets: RtpForwardTargets, onStop: (forward: JanusForward) => void, onStopFailed: (detail: string) => void,
    onStartFailed: (detail: string) => void) {
    this.#targets = targets;
    this.#onStop = onStop;
    this.#onStopFailed = onStopFailed;
    this.#onStartFailed = onStartFailed;
  }

  /** The SSRCs this forward uses (for tests and logs). */
  get ssrcs(): Readonly<ForwardSsrcs> {
    return this.#ssrcs;
  }

  /** Forwards from `publisher` once its peer connection is up; `undefined`: the publisher left (its forwarders with it). */
  setPublisher(publisher: JanusPublisher | undefined): void {
    if (this.#stopped) return;
    this.#target = publisher;
    if (!publisher) {
      this.#active = undefined;
      return;
    }
    // A publisher that never comes up has nothing to forward; its next publish calls this again.
    publisher.whenUp(UP_TIMEOUT_MS).then(() => this.#enqueue(() => this.#start(publisher)), () => undefined);
  }

  /** Janus went away with every forwarder: forget them without a request. */
  forget(): void {
    this.#target = undefined;
    this.#active = undefined;
  }

  requestKeyframe(): void {
    if (this.#stopped || this.#targets.videoPort === undefined) return;
    this.#active?.publisher.requestKeyframe();
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#target = undefined;
    this.#onStop(this);
    this.#enqueue(() => this.#stopActive());
  }

  #enqueue(step: () => Promise<void>): void {
    // #stopActive reports its own failures: what fails here is a start.
    this.#queue = this.#queue.then(step).catch((error: unknown) => {
      if (!this.#stopped) this.#onStartFailed(`rtp_forward to ports ${this.#targets.videoPort ?? '-'}/${this.#targets.audioPort ?? '-'}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async #start(publisher: JanusPublisher): Promise<void> {
    if (this.#stopped || this.#target !== publisher || this.#active?.publisher === publisher) return;
    await this.#stopActive();
    const streams = forwardStreams(publisher, this.#targets, this.#ssrcs);
    if (streams.length === 0) return;
    const reply = await publisher.client.message(publisher.handleId, rtpForwardRequest(publisher, streams));
    const streamIds = forwarderIds(reply.data);
    this.#active = { publisher, streamIds };
    // Stopped or superseded while the request ran: undo at once.
    if (this.#stopped || this.#target !== publisher) {
      await this.#stopActive();
      return;
    }
    if (streams.some((s) => s.pt === RTP_FORWARD_PAYLOAD_TYPE.video)) publisher.requestKeyframe();
  }

  async #stopActive(): Promise<void> {
    const active = this.#active;
    this.#active = undefined;
    if (!active || active.publisher.client.closed) return;
    // The publisher's handle may be gone already (republish, leave), and its forwarders with it: only a
    // refusal while the publisher is still open is a leak worth telling.
    await Promise.all(active.streamIds.map((id) =>
      active.publisher.client.message(active.publisher.handleId, stopRtpForwardRequest(active.publisher, id)).catch((error: unknown) => {
        if (!active.publisher.closed) this.#onStopFailed(`stop_rtp_forward ${id} of feed ${active.publisher.feedId}: ${error instanceof Error ? error.message : String(error)}`);
      })));
  }
}

/** Every feed to media jobs, by participant: what the engine calls when publishers come and go. */
export class JanusForwards {
  readonly #byParticipant = new Map<string, Set<JanusForward>>();
  readonly #onStopFailed: (detail: string) => void;
  readonly #onStartFailed: (detail: string) => void;

  constructor(onStopFailed: (detail: string) => void, onStartFailed: (detail: string) => void) {
    this.#onStopFailed = onStopFailed;
    this.#onStartFailed = onStartFailed;
  }

  /** A new feed of `participantId`, on `current` (its publisher, if it has one) and every later one. */
  add(participantId: string, targets: RtpForwardTargets, current: JanusPublisher | undefined): RtpForward {
    const forward = new JanusForward(targets, (stopped) => {
      const set = this.#byParticipant.get(participantId);
      set?.delete(stopped);
      if (set?.size === 0) this.#byParticipant.delete(participantId);
    }, this.#onStopFailed, this.#onStartFailed);
    const set = this.#byParticipant.get(participantId) ?? new Set();
    set.add(forward);
    this.#byParticipant.set(participantId, set);
    // The key frame is asked for once the forwarders exist (a job's decoder needs one to start).
    if (current) forward.setPublisher(current);
    return forward;
  }

  /** The participant's publisher changed (published anew, or left with `undefined`). */
  setPublisher(participantId: string, publisher: JanusPublisher | undefined): void {
    for (const forward of this.#byParticipant.get(participantId) ?? []) forward.setPublisher(publisher);
  }

  /** The participant left: its feeds end. */
  remove(participantId: string): void {
    for (const forward of [...this.#byParticipant.get(participantId) ?? []]) forward.stop();
  }

  /** Janus went away: every forwarder is gone; feeds resume when their participants publish again. */
  forgetAll(): void {
    for (const set of this.#byParticipant.values()) for (const forward of set) forward.forget();
  }

  /** Live feeds (for stats and tests). */
  get size(): number {
    let count = 0;
    for (const set of this.#byParticipant.values()) count += set.size;
    return count;
  }
}
