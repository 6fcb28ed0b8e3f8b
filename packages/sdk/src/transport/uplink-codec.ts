/**
 * Which H264 payload a video m-line of the uplink sends (SPEC §4, §9): the server's default (its answer as
 * negotiated, H264 42e01f, which Chromium encodes with OpenH264) or the hardware-friendly profile 42001f,
 * for which Chromium picks a hardware encoder where one exists. The switch is local, as the original's
 * useHWEncoder: the remote description is re-applied with the profile changed (the payload type stays the
 * one the server negotiated, so both engines keep forwarding it to subscribers negotiated for H264).
 */

/** Profile-level-id of the hardware encoder's H264 (Baseline 3.1). */
export const HW_H264_PROFILE = '42001f';
/** Profile-level-id of the default (software) H264 (Constrained Baseline 3.1). */
export const SW_H264_PROFILE = '42e01f';
/** SPEC §9: hardware encode preferred for 921,600 pixels (1280×720) or more. */
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

/**
 * The answer with the H264 payloads of the m-lines at `mLines` (indexes, 0 = audio) set to profile
 * `profile`; other m-lines and codecs untouched. An m-line without H264 (VP8 negotiated) is left as is.
 */
export function answerWithH264Profile(sdp: string, mLines: ReadonlySet<number>, profile: string): string {
  if (mLines.size === 0) return sdp;
  const sections = sdp.split(/\r\n(?=m=)/);
  // sections[0] is the session part; m-line i is sections[i + 1].
  return sections.map((section, index) => {
    if (index === 0 || !mLines.has(index - 1)) return section;
    const h264 = new Set<string>();
    for (const match of section.matchAll(/^a=rtpmap:(\d+) H264\//gim)) h264.add(match[1]);
    return section.split('\r\n').map((line) => {
      const fmtp = /^a=fmtp:(\d+) (.*)$/.exec(line);
      if (!fmtp || !h264.has(fmtp[1])) return line;
      return `a=fmtp:${fmtp[1]} ${fmtp[2].replace(/profile-level-id=[0-9a-f]{6}/i, `profile-level-id=${profile}`)}`;
    }).join('\r\n');
  }).join('\r\n');
}

/** The profile-level-id of the first H264 payload of m-line `mLine`, if it has one. */
export function h264ProfileOf(sdp: string, mLine: number): string | undefined {
  const section = sdp.split(/\r\n(?=m=)/)[mLine + 1];
  const pt = section && /^a=rtpmap:(\d+) H264\//im.exec(section)?.[1];
  if (!pt) return undefined;
  return new RegExp(`^a=fmtp:${pt} .*profile-level-id=([0-9a-f]{6})`, 'im').exec(section)?.[1]?.toLowerCase();
}
