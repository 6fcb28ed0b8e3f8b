/**
 * The uplink's video codec order: the server's default payload is H264 42e01f, which Chromium encodes with
 * OpenH264. The switch to the hardware encoder's profile (preferHW) is in hw-encoder.ts, loaded when needed.
 */

/** Profile-level-id of the default (software) H264 (Constrained Baseline 3.1). */
export const SW_H264_PROFILE = '42e01f';
/** docs/behaviour.md §9: hardware encode preferred for 921,600 pixels (1280×720) or more. */
export const HW_ENCODE_MIN_PIXELS = 921_600;

/** Codec entries as getCapabilities lists them. */
interface CodecLike {
  mimeType: string;
  sdpFmtpLine?: string;
}

/**
 * Orders video codecs for the uplink offer: H264 packetization-mode 1 with the default profile 42e01f
 * first (engines answer with the first H264 offered), other H264, VP8 (the fallback), then the rest.
 */
export function orderVideoCodecs<T extends CodecLike>(codecs: readonly T[]): T[] {
  const rank = (codec: T): number => {
    const mime = codec.mimeType.toLowerCase();
    if (mime === 'video/h264') {
      const fmtp = codec.sdpFmtpLine ?? '';
      return /packetization-mode=1/.test(fmtp) && fmtp.includes(`profile-level-id=${SW_H264_PROFILE}`) ? 0 : 1;
    }
    return mime === 'video/vp8' ? 2 : 3;
  };
  return [...codecs].sort((a, b) => rank(a) - rank(b));
}

/** Sets the uplink order (orderVideoCodecs) on a video transceiver, where the browser allows it. */
export function preferVideoCodecs(transceiver: RTCRtpTransceiver): void {
  const codecs = globalThis.RTCRtpSender?.getCapabilities?.('video')?.codecs;
  if (!codecs || typeof transceiver.setCodecPreferences !== 'function') return;
  try {
    transceiver.setCodecPreferences(orderVideoCodecs(codecs));
  } catch {
    // Some browsers refuse preferences they consider invalid; the default order still works.
  }
}
