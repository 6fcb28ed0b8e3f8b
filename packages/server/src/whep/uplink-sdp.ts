import { SERVER_CODE } from '@conclave/protocol';
import { HttpError } from '../http/respond.js';

/**
 * A WHIP client's offer as an uplink of the engine contract, and the engine's answer back as the client's.
 *
 * An uplink has four m-lines in a fixed order (UPLINK_SLOTS: audio, main video, small video, auxiliary video);
 * the SDK always offers all four. A WHIP client offers what it sends, in its own order (OBS and GStreamer may
 * put video first) and nothing more. So the engine is given the client's audio and video m-sections in slot
 * order followed by two trackless video m-sections (small, auxiliary: `sendonly` without SSRCs, as a browser offers a
 * transceiver with no track; Janus drops `inactive` ones from its feed, and subscriptions ask for all four), and the client gets back only its own
 * m-sections, in its order, with the BUNDLE group and the candidates set for them. The client's mids are kept
 * (its RTP names them in the mid header extension).
 */

/** How an offer was rearranged, to put the answer back. */
export interface UplinkPlan {
  /** The client's mids in its m-line order. */
  clientMids: string[];
}

const EOL = '\r\n';
/** Lines of a media section that describe a sending track or the transport (not copied to a placeholder). */
const TRACK_LINE = /^a=(ssrc|ssrc-group|msid|candidate|end-of-candidates|sendrecv|sendonly|recvonly|inactive|mid|rid|simulcast)\b/;

/** Splits an SDP into its session part and its media sections (each as lines). */
function split(sdp: string): { session: string[]; sections: string[][] } {
  const lines = sdp.split(/\r?\n/).filter((line) => line !== '');
  const first = lines.findIndex((line) => line.startsWith('m='));
  if (first < 0) return { session: lines, sections: [] };
  const sections: string[][] = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith('m=')) sections.push([line]);
    else sections.at(-1)!.push(line);
  }
  return { session: lines.slice(0, first), sections };
}

const kindOf = (section: string[]) => /^m=(\w+)/.exec(section[0])?.[1];
const midOf = (section: string[]) => section.find((line) => line.startsWith('a=mid:'))?.slice(6);
const join = (session: string[], sections: string[][]) => [...session, ...sections.flat()].join(EOL) + EOL;

/** A trackless copy of `section` (its codecs and transport, no track) under `mid`. */
function placeholder(section: string[], mid: string): string[] {
  return [...section.filter((line) => !TRACK_LINE.test(line)), `a=mid:${mid}`, 'a=sendonly'];
}

/** Codec lines of a fabricated trackless section of `kind` (the client offered no m-line of that kind). */
const FABRICATED = {
  audio: ['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'c=IN IP4 0.0.0.0', 'a=rtcp-mux', 'a=rtpmap:111 opus/48000/2'],
  video: ['m=video 9 UDP/TLS/RTP/SAVPF 96', 'c=IN IP4 0.0.0.0', 'a=rtcp-mux', 'a=rtpmap:96 H264/90000',
    'a=fmtp:96 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f'],
} as const;

/** A trackless section of `kind` with `template`'s transport (ICE credentials, fingerprint, setup role). */
function fabricated(kind: 'audio' | 'video', template: string[], mid: string): string[] {
  const transport = template.filter((line) => /^a=(ice-ufrag|ice-pwd|ice-options|fingerprint|setup):/.test(line));
  return [...FABRICATED[kind], ...transport, `a=mid:${mid}`, 'a=sendonly'];
}

/**
 * `section` with a port the engine takes: a BUNDLE client (GStreamer's webrtcbin) may offer the m-lines after the
 * first with port 0 and `a=bundle-only` (RFC 9143), which an engine would read as rejected.
 */
function unbundleOnly(section: string[]): string[] {
  if (!section.includes('a=bundle-only')) return section;
  return section.filter((line) => line !== 'a=bundle-only').map((line, i) => (i === 0 ? line.replace(/^(m=\w+) 0 /, '$1 9 ') : line));
}

/** The engine's offer for a WHIP client's offer; 400 when it has no audio or video m-line or no mids. */
export function toUplinkOffer(offerSdp: string): { offer: string; plan: UplinkPlan } {
  const parsed = split(offerSdp);
  const { session } = parsed;
  const sections = parsed.sections.map(unbundleOnly);
  const clientMids = sections.map(midOf);
  if (sections.length === 0 || clientMids.some((mid) => mid === undefined)) {
    throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'the offer must have media sections, each with a mid (a=mid)');
  }
  const audio = sections.filter((s) => kindOf(s) === 'audio');
  const video = sections.filter((s) => kindOf(s) === 'video');
  if (audio.length > 1 || video.length > 1 || audio.length + video.length !== sections.length) {
    throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'a WHIP offer carries at most one audio and one video m-line');
  }
  const mids = clientMids as string[];
  const unique = (base: string) => {
    let mid = base;
    while (mids.includes(mid)) mid += '_';
    return mid;
  };
  // Slot order: audio, main video, then small and auxiliary placeholders. A missing audio or video slot is a
  // trackless section too, with the client's transport.
  const template = video[0] ?? audio[0];
  const videoTemplate = video[0] ?? fabricated('video', template, unique('video'));
  const ordered = [
    audio[0] ?? fabricated('audio', template, unique('audio')),
    videoTemplate,
    placeholder(videoTemplate, unique('small')),
    placeholder(videoTemplate, unique('aux')),
  ];
  const allMids = ordered.map((s) => midOf(s)!);
  const bundled = session.map((line) => (line.startsWith('a=group:BUNDLE') ? `a=group:BUNDLE ${allMids.join(' ')}` : line));
  return { offer: join(bundled, ordered), plan: { clientMids: mids } };
}

/** The client's answer from the engine's: its own m-sections in its order, bundled, each with every candidate. */
export function toClientAnswer(answerSdp: string, plan: UplinkPlan): string {
  const { session, sections } = split(answerSdp);
  const byMid = new Map(sections.map((s) => [midOf(s), s]));
  const candidates = [...new Set(sections.flatMap((s) => s.filter((line) => line.startsWith('a=candidate:'))))];
  const kept = plan.clientMids.map((mid) => {
    const section = byMid.get(mid);
    if (!section) throw new Error(`the engine's answer has no m-line for mid ${mid}`);
    const own = section.filter((line) => !line.startsWith('a=candidate:') && line !== 'a=end-of-candidates');
    return [...own, ...candidates, ...(candidates.length > 0 ? ['a=end-of-candidates'] : [])];
  });
  const bundled = session.map((line) => (line.startsWith('a=group:BUNDLE') ? `a=group:BUNDLE ${plan.clientMids.join(' ')}` : line));
  return join(bundled, kept);
}
