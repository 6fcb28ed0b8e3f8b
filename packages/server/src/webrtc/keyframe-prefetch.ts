import { H264RtpPayload, NalUnitType, Vp8RtpPayload, type RtpPacket } from 'werift';

/** H264 NAL unit type 9: an access unit delimiter, first in its access unit when sent. */
const H264_ACCESS_UNIT_DELIMITER = 9;

/** At most this many packets are held for a link that is not up yet (a 640×480 key frame is ~5–30). */
const MAX_PACKETS = 400;
/** …and at most one second of video (90 kHz clock): older frames would show a moment long gone. */
const MAX_SPAN_TICKS = 90_000;

/** What a packet tells of the frame it belongs to. */
export interface FramePart {
  /** It carries a part of a key frame (H264 IDR slice, VP8 key frame head). */
  keyframe: boolean;
  /** It is a frame's first packet (H264 parameter sets or access-unit delimiter first; VP8 first partition head). */
  first: boolean;
}

const NONE: FramePart = { keyframe: false, first: false };

/** Parses the payload header of a video packet (H264 or VP8; other codecs are never held). */
export function framePart(codecMimeType: string | undefined, rtp: RtpPacket): FramePart {
  try {
    switch (codecMimeType?.toLowerCase()) {
      case 'video/h264': {
        const p = H264RtpPayload.deSerialize(rtp.payload);
        const firstNal = p.nalUnitType === NalUnitType.stap_a ? p.aggregatedNalUnitTypes[0] : p.nalUnitType;
        return { keyframe: p.isKeyframe, first: firstNal === NalUnitType.sps || firstNal === H264_ACCESS_UNIT_DELIMITER };
      }
      case 'video/vp8': {
        const p = Vp8RtpPayload.deSerialize(rtp.payload);
        return { keyframe: p.isKeyframe, first: p.payloadHeaderExist };
      }
      default: return NONE;
    }
  } catch {
    return NONE; // a payload that does not parse starts nothing
  }
}

/**
 * The video a subscriber will want once its link is up, kept from a key frame on, so its first frame comes
 * as early as it can.
 * The key frame is asked for when the subscription starts, so it arrives while ICE and DTLS are still
 * running (~100 ms on loopback); when the link connects, the held frames go out at once and the
 * subscriber decodes without waiting for a key frame asked for then (PLI, next capture, encode: 40–70 ms).
 * Held packets are the source's shared copies (read-only); the sender clones before rewriting.
 */
export class KeyframePrefetch {
  #packets: RtpPacket[] = [];
  /** True once the held packets begin with a whole key frame (its every packet of that timestamp). */
  #fromKeyframe = false;
  /** Whether the first packet of the held packets' first frame is held. */
  #wholeFrame = false;
  /** The marker bit of the last packet seen (a frame's last packet); undefined before the first. */
  #lastMarker: boolean | undefined;

  /** Holds `rtp` if it belongs to a key frame or follows one. `restarted`: a new track or layer begins. */
  hold(rtp: RtpPacket, codecMimeType: string | undefined, restarted: boolean): void {
    if (restarted) {
      this.clear();
      this.#lastMarker = undefined;
    }
    const afterFrameEnd = this.#lastMarker === true;
    this.#lastMarker = rtp.header.marker;
    if (!this.#fromKeyframe) {
      // Packets of the frame being received are kept until we know whether it is a key frame
      // (H264 sends SPS and PPS before the IDR slice, under the same timestamp). A frame whose
      // first packet came before holding began is incomplete: it cannot start the stream.
      const part = framePart(codecMimeType, rtp);
      if (this.#packets.length === 0 || this.#packets[0].header.timestamp !== rtp.header.timestamp) {
        this.#packets = [];
        this.#wholeFrame = afterFrameEnd || part.first;
      }
      this.#fromKeyframe = this.#wholeFrame && part.keyframe;
    }
    this.#packets.push(rtp);
    if (this.#packets.length > MAX_PACKETS || this.#spanTicks() > MAX_SPAN_TICKS) this.clear();
  }

  /** RTP ticks (90 kHz) from the first held packet to the last (wrap-safe); 0 when nothing is held. */
  #spanTicks(): number {
    const packets = this.#packets;
    return packets.length === 0 ? 0 : (packets[packets.length - 1].header.timestamp - packets[0].header.timestamp) >>> 0;
  }

  /**
   * The held packets if they start with a key frame and span at most `maxSpanTicks` (90 kHz), without
   * forgetting them; undefined otherwise.
   */
  peek(maxSpanTicks: number): RtpPacket[] | undefined {
    return this.#fromKeyframe && this.#spanTicks() <= maxSpanTicks ? [...this.#packets] : undefined;
  }

  /** The held packets if they start with a key frame (and forgets them); undefined otherwise. */
  take(): RtpPacket[] | undefined {
    const packets = this.#fromKeyframe ? this.#packets : undefined;
    this.clear();
    return packets;
  }

  clear(): void {
    this.#packets = [];
    this.#fromKeyframe = false;
  }
}
