import { RTCRtpCodecParameters, useH264, useOPUS, useVP8, useSdesMid, useAbsSendTime, useTransportWideCC, useTWCC } from 'werift';

/** Codecs the embedded SFU negotiates: opus audio; H264 by default with VP8 as the fallback. */
export function audioCodecs(): RTCRtpCodecParameters[] {
  return [useOPUS()];
}

/**
 * A publisher's uplink codecs: the same, each with transport-cc feedback, answered from the server's own
 * `TransportCcFeedback` (transport-cc.ts) so the browser's bandwidth estimate follows the link.
 */
export function uplinkCodecs(): { audio: RTCRtpCodecParameters[]; video: RTCRtpCodecParameters[] } {
  return { audio: audioCodecs().map(withTransportCc), video: videoCodecs().map(withTransportCc) };
}

function withTransportCc(codec: RTCRtpCodecParameters): RTCRtpCodecParameters {
  codec.rtcpFeedback = [...(codec.rtcpFeedback ?? []), useTWCC()];
  return codec;
}

/**
 * A downlink's codecs (issue 43): RED for audio offered first (RFC 2198 over Opus; werift numbers it 63 with the
 * Opus after it as its blocks' type), so a browser that answers it gets each frame again in the next two packets
 * (red.ts); and transport-cc feedback on every codec, from which the server reads what the subscriber's link
 * carries (downlink-feedback.ts).
 */
export function downlinkCodecs(preferredVideoMimeType?: string, withRed = true): { audio: RTCRtpCodecParameters[]; video: RTCRtpCodecParameters[] } {
  const red = new RTCRtpCodecParameters({ mimeType: 'audio/red', clockRate: 48000, channels: 2 });
  return { audio: [...(withRed ? [red] : []), ...audioCodecs()].map(withTransportCc), video: videoCodecs(preferredVideoMimeType).map(withTransportCc) };
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

/**
 * A downlink's header extensions: mid and the transport-wide sequence number on every m-line, abs-send-time on
 * video. The same objects in both lists: werift numbers audio's then video's in turn, so a shared one ends with
 * one id for both kinds, as BUNDLE needs (Chromium reads one map per transport: with transport-cc numbered 2 on
 * audio and 5 on video, it acknowledged the audio and reported the video lost).
 */
export function downlinkHeaderExtensions(): ReturnType<typeof headerExtensions> {
  const mid = useSdesMid();
  const transportCc = useTransportWideCC();
  return { audio: [mid, transportCc], video: [mid, useAbsSendTime(), transportCc] };
}
