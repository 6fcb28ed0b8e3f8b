import { useH264, useOPUS, useVP8, useSdesMid, useAbsSendTime, type RTCRtpCodecParameters } from 'werift';

/** Codecs the embedded SFU negotiates: opus audio; H264 by default with VP8 as the fallback. */
export function audioCodecs(): RTCRtpCodecParameters[] {
  return [useOPUS()];
}

/**
 * Video codecs in preference order. A downlink must carry the codec its source was published
 * with, so the source's codec goes first when it is known.
 */
export function videoCodecs(preferredMimeType?: string): RTCRtpCodecParameters[] {
  const codecs = [useH264(), useVP8()];
  if (preferredMimeType) {
    codecs.sort((a, b) => Number(b.mimeType.toLowerCase() === preferredMimeType.toLowerCase()) -
      Number(a.mimeType.toLowerCase() === preferredMimeType.toLowerCase()));
  }
  return codecs;
}

/** RTP header extensions negotiated on every link. */
export function headerExtensions() {
  return { audio: [useSdesMid()], video: [useSdesMid(), useAbsSendTime()] };
}
