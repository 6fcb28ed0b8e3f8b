import type { MediaStreamTrack, RTCRtpReceiver, RtpPacket } from 'werift';

/** Receives each packet a source forwards; `restarted` is true on the first packet after the source track changed. */
export type PacketSink = (rtp: RtpPacket, restarted: boolean) => void;

/**
 * One stream of a publisher (its audio, main video or auxiliary video) as subscribers see it:
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

  /** Starts forwarding a new publisher track (replacing the previous one). */
  attach(track: MediaStreamTrack, receiver: RTCRtpReceiver, codecMimeType: string | undefined): void {
    this.detach();
    this.#track = track;
    this.#receiver = receiver;
    this.codecMimeType = codecMimeType;
    for (const sink of this.#sinks) this.#restartPending.add(sink);
    const { unSubscribe } = track.onReceiveRtp.subscribe((rtp) => {
      for (const sink of this.#sinks) {
        const restarted = this.#restartPending.has(sink);
        if (restarted) this.#restartPending.delete(sink);
        sink(rtp, restarted);
      }
    });
    this.#unsubscribe = unSubscribe;
  }

  /** Stops forwarding the current track. */
  detach(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#track = undefined;
    this.#receiver = undefined;
  }

  /** True while a publisher track is attached. */
  get active(): boolean {
    return this.#track !== undefined;
  }

  /** Adds a subscriber's sink; returns its removal. */
  addSink(sink: PacketSink): () => void {
    this.#sinks.add(sink);
    this.#restartPending.add(sink);
    return () => this.#sinks.delete(sink);
  }

  /** Asks the publisher for a key frame (PLI), e.g. when a subscriber joins or loses a picture. */
  requestKeyframe(): void {
    const ssrc = this.#track?.ssrc;
    if (this.#receiver && ssrc !== undefined) {
      this.#receiver.sendRtcpPLI(ssrc).catch(() => undefined);
    }
  }
}
