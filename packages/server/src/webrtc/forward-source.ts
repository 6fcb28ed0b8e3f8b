import type { MediaStreamTrack, RTCRtpReceiver, RtpPacket } from 'werift';
import { PACKET_OVERHEAD_BYTES } from './downlink-feedback.js';
import { framePart, KeyframePrefetch } from './keyframe-prefetch.js';

/** Minimum spacing of key-frame requests sent to one publisher. */
const KEYFRAME_INTERVAL_MS = 300;
/**
 * A key-frame request not answered by a key frame within this long is sent again: a PLI sent before the uplink
 * was up (DTLS not done), lost on the way, or ignored by a busy encoder would otherwise leave every
 * subscriber waiting for the publisher's next natural key frame (minutes with some encoders).
 */
const KEYFRAME_RETRY_MS = 500;
/** …for at most this long after the first request (a publisher that sends no video answers none). */
const KEYFRAME_RETRY_FOR_MS = 10_000;
/** A request is repeated only while the stream is live: a video packet came at most this long ago (a layer the publisher does not send gets no PLIs). */
const RETRY_LIVE_MS = 1000;
/** A new subscriber is handed the video since the last key frame when it began at most this long ago (90 kHz). */
const REPLAY_MAX_SPAN_TICKS = 45_000;
/** …and the stream is live: its last packet came at most this long ago. */
const REPLAY_LIVE_MS = 200;
/** Video is kept for replay this long after a key-frame request only (the key frames that matter follow one). */
const KEEP_AFTER_REQUEST_MS = 1000;

/**
 * Receives each packet a source forwards (shared by every sink: read-only, header extensions removed);
 * `restarted` is true on the first packet after the source track changed.
 */
export type PacketSink = (rtp: RtpPacket, restarted: boolean) => void;

/**
 * One stream of a publisher (its audio, big video, small video or auxiliary video) as subscribers see it:
 * a stable fan-out point that outlives the publisher's peer connections, so a republish
 * re-attaches a new track without touching the subscribers' downlinks.
 */
export class ForwardSource {
  #track: MediaStreamTrack | undefined;
  #receiver: RTCRtpReceiver | undefined;
  #unsubscribe: (() => void) | undefined;
  #sinks = new Set<PacketSink>();
  #restartPending = new WeakSet<PacketSink>();
  /** mimeType of the codec the publisher negotiated, e.g. 'video/H264'. */
  codecMimeType: string | undefined;
  #lastKeyframeRequest = 0;
  readonly #onReceive: (() => void) | undefined;
  /**
   * The video since the last key frame asked for (bounded to 1 s by KeyframePrefetch): a subscriber that
   * comes shortly after another is handed it instead of asking for a key frame of its own, which would
   * wait for the 300 ms spacing of requests (a second subscriber soon after the first would see its first
   * frame up to 300 ms later).
   * Kept only for a second after a request, so a steady stream costs nothing here.
   */
  readonly #recent = new KeyframePrefetch();
  #recentRestart = true;
  #lastPacketAt = 0;
  /** When the oldest key-frame request not answered yet by a key frame was made; undefined when none is. */
  #keyframeWantedSince: number | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last video packet came (0 before the first of this track). */
  #lastVideoAt = 0;
  /** RTP packets of the current track (0 until its first). */
  #packets = 0;

  /** @param onReceive called for every RTP packet the publisher sends (for counters). */
  constructor(onReceive?: () => void) {
    this.#onReceive = onReceive;
  }
  #keyframeTimer: ReturnType<typeof setTimeout> | undefined;

  /** Starts forwarding a new publisher track (replacing the previous one). */
  attach(track: MediaStreamTrack, receiver: RTCRtpReceiver, codecMimeType: string | undefined): void {
    this.detach();
    this.#track = track;
    this.#receiver = receiver;
    this.codecMimeType = codecMimeType;
    for (const sink of this.#sinks) this.#restartPending.add(sink);
    this.#recentRestart = true;
    const video = codecMimeType?.toLowerCase().startsWith('video/') ?? false;
    this.#packets = 0;
    const { unSubscribe } = track.onReceiveRtp.subscribe((received) => {
      this.#packets++;
      this.#meterBytes += received.payload.length + PACKET_OVERHEAD_BYTES;
      this.#onReceive?.();
      if (this.#keyframeWantedSince !== undefined && framePart(codecMimeType, received).keyframe) this.#keyframeArrived();
      const now = video ? Date.now() : 0; // read once per packet (hot path), and for video only
      if (video) this.#lastVideoAt = now;
      const keep = video && now - this.#lastKeyframeRequest < KEEP_AFTER_REQUEST_MS;
      if (this.#sinks.size === 0 && !keep) return;
      // One copy per packet for every sink, without the publisher's header extensions (their ids mean
      // nothing downstream; senders write their own). Sinks must not change it: senders clone before
      // rewriting a header. (A copy per subscriber was measurable in the 2×6 profile.)
      const rtp = received.clone();
      rtp.header.extensions = [];
      if (keep) {
        this.#recent.hold(rtp, codecMimeType, this.#recentRestart);
        this.#recentRestart = false;
        this.#lastPacketAt = now;
      }
      for (const sink of this.#sinks) {
        const restarted = this.#restartPending.has(sink);
        if (restarted) this.#restartPending.delete(sink);
        sink(rtp, restarted);
      }
    });
    this.#unsubscribe = unSubscribe;
  }

  /**
   * Stops forwarding the current track; with `track`, only if that is still the one forwarded (an uplink
   * closed after another replaced it must not stop the new one's).
   */
  detach(track?: MediaStreamTrack): void {
    if (track !== undefined && track !== this.#track) return;
    clearTimeout(this.#keyframeTimer);
    this.#keyframeTimer = undefined;
    this.#keyframeArrived();
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#recent.clear();
    this.#lastVideoAt = 0;
    this.#track = undefined;
    this.#receiver = undefined;
  }

  #meterBytes = 0;
  #meterSince = 0;
  #rateBps = 0;

  /**
   * What the stream costs on a link now (bits per second, payload and per-packet overhead), over the last second or
   * more (read by each subscriber's downlink allocator; read more often, it gives the last second's figure).
   */
  get bitrate(): number {
    const now = Date.now();
    const elapsed = now - this.#meterSince;
    if (elapsed >= 1000) {
      this.#rateBps = this.#meterSince === 0 ? 0 : (this.#meterBytes * 8 * 1000) / elapsed;
      this.#meterBytes = 0;
      this.#meterSince = now;
    }
    return this.#track ? this.#rateBps : 0;
  }

  /** True while a publisher track is attached. */
  get active(): boolean {
    return this.#track !== undefined;
  }

  /** True when the attached track has carried RTP (the engine's uplinkMedia). */
  get carried(): boolean {
    return this.#track !== undefined && this.#packets > 0;
  }

  /**
   * Hands `sink` (added already) the video since the last key frame, as if it had just arrived, when
   * that key frame is recent (≤ 500 ms of video) and the stream live; true if it did (no key frame needs
   * asking for then).
   */
  replay(sink: PacketSink): boolean {
    if (!this.#sinks.has(sink) || Date.now() - this.#lastPacketAt > REPLAY_LIVE_MS) return false;
    const packets = this.#recent.peek(REPLAY_MAX_SPAN_TICKS);
    if (!packets) return false;
    this.#restartPending.delete(sink);
    packets.forEach((rtp, i) => sink(rtp, i === 0));
    return true;
  }

  /** Adds a subscriber's sink; returns its removal. */
  addSink(sink: PacketSink): () => void {
    this.#sinks.add(sink);
    this.#restartPending.add(sink);
    return () => this.#sinks.delete(sink);
  }

  /**
   * Asks the publisher for a key frame (PLI), e.g. when a subscriber joins or loses a picture.
   * Requests are coalesced to one per KEYFRAME_INTERVAL_MS, the last one deferred rather than
   * dropped: a browser encoder ignores requests that come too close together, and a subscriber
   * whose request was swallowed would wait for the next natural key frame.
   */
  requestKeyframe(): void {
    this.#keyframeWantedSince ??= Date.now();
    const wait = this.#lastKeyframeRequest + KEYFRAME_INTERVAL_MS - Date.now();
    if (wait > 0) {
      this.#keyframeTimer ??= setTimeout(() => {
        this.#keyframeTimer = undefined;
        this.requestKeyframe();
      }, wait);
      return;
    }
    const ssrc = this.#track?.ssrc;
    if (this.#receiver && ssrc !== undefined) {
      // What is kept from an earlier request is too old to replay: start afresh.
      if (Date.now() - this.#lastKeyframeRequest >= KEEP_AFTER_REQUEST_MS) this.#recentRestart = true;
      this.#lastKeyframeRequest = Date.now();
      this.#receiver.sendRtcpPLI(ssrc).catch(() => undefined); // the uplink is closing; the retry below asks again if not
      this.#scheduleRetry();
    }
  }

  /**
   * The publisher's link just connected: a key-frame request made before (while DTLS was not done, so its PLI
   * could not be sent) goes out now rather than at its next retry.
   */
  linkUp(): void {
    if (this.#keyframeWantedSince === undefined) return;
    this.#lastKeyframeRequest = 0;
    this.requestKeyframe();
  }

  /**
   * Asks again after KEYFRAME_RETRY_MS unless a key frame came meanwhile, while the stream is live (bounded by
   * KEYFRAME_RETRY_FOR_MS).
   */
  #scheduleRetry(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      const since = this.#keyframeWantedSince;
      if (since === undefined) return;
      const now = Date.now();
      if (now - since > KEYFRAME_RETRY_FOR_MS) this.#keyframeArrived(); // give up; a subscriber's PLI starts anew
      else if (now - this.#lastVideoAt > RETRY_LIVE_MS) this.#scheduleRetry(); // nothing comes (yet): no PLI
      else this.requestKeyframe();
    }, KEYFRAME_RETRY_MS);
    this.#retryTimer.unref?.();
  }

  /** A key frame came (or the track went): no request is pending any more. */
  #keyframeArrived(): void {
    this.#keyframeWantedSince = undefined;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }
}

/** The four slots of a publisher, in uplink m-line order (0 audio, 1 big video, 2 small video, 3 auxiliary). */
export interface PublisherSources {
  audio: ForwardSource;
  video: ForwardSource;
  small: ForwardSource;
  aux: ForwardSource;
}
