import { useH264, useOPUS, useVP8, useSdesMid, useAbsSendTime, useTransportWideCC, useTWCC, type RTCRtpCodecParameters } from 'werift';

/** Codecs the embedded SFU negotiates: opus audio; H264 by default with VP8 as the fallback. */
export function audioCodecs(): RTCRtpCodecParameters[] {
  return [useOPUS()];
}

/**
 * A publisher's uplink codecs: the same, each with transport-cc feedback, answered from the server's own
 * `TransportCcFeedback` (transport-cc.ts) so the browser's bandwidth estimate follows the link.
 */
export function uplinkCodecs(): { audio: RTCRtpCodecParameters[]; video: RTCRtpCodecParameters[] } {
  const withTransportCc = (codec: RTCRtpCodecParameters): RTCRtpCodecParameters => {
    codec.rtcpFeedback = [...(codec.rtcpFeedback ?? []), useTWCC()];
    return codec;
  };
  return { audio: audioCodecs().map(withTransportCc), video: videoCodecs().map(withTransportCc) };
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

/** An uplink's header extensions: the transport-wide sequence number on every packet besides (transport-cc.ts). */
export function uplinkHeaderExtensions(): ReturnType<typeof headerExtensions> {
  const { audio, video } = headerExtensions();
  return { audio: [...audio, useTransportWideCC()], video: [...video, useTransportWideCC()] };
}
