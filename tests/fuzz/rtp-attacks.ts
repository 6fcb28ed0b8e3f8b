/**
 * Hostile RTP from a connected peer, by category: bytes an attacker's own client can put on its uplink once SRTP is
 * up (media-peers.ts RawLink protects them with the link's real keys, so the server authenticates and parses them).
 * Payloads never carry an honest sender's mark (media-peers.ts markedPayload), so a packet of the fuzz that reaches
 * another participant's m-line shows.
 */
import type { Rng } from './prng.js';
import type { VideoCodec } from './media-peers.js';

/** What an attack knows of the link it is sent on and of the others. */
export interface LinkTarget {
  /** The attacker's own SSRCs (negotiated in its offer) and payload types. */
  ownSsrcs: { audio: number; video: number };
  payloadTypes: { audio: number; video: number };
  /** Negotiated header extension ids (a=extmap of the answer). */
  extensionIds: { mid?: number; absSendTime?: number; transportCc?: number };
  /** Other participants' SSRCs (an honest publisher of the room, a bystander of another room). */
  spoofSsrcs: number[];
  /** SSRCs the far end sends with on this link (what feedback is about). */
  remoteSsrcs: number[];
  codec: VideoCodec;
}

export interface RtpFields {
  version?: number;
  padding?: boolean;
  marker?: boolean;
  payloadType: number;
  seq: number;
  timestamp: number;
  ssrc: number;
  csrcs?: number[];
  /** The CC field when it is to lie about the CSRCs that follow. */
  csrcCount?: number;
  /** A header extension block: its profile, its body, and the length field when it is to lie. */
  extension?: { profile: number; body: Buffer; words?: number };
  payload: Buffer;
}

/** An RTP packet's bytes, exactly as given (lies included). */
export function rtpBytes(f: RtpFields): Buffer {
  const csrcs = f.csrcs ?? [];
  const head = Buffer.alloc(12 + csrcs.length * 4);
  head[0] = ((f.version ?? 2) << 6) | (f.padding ? 0x20 : 0) | (f.extension ? 0x10 : 0) | ((f.csrcCount ?? csrcs.length) & 0x0f);
  head[1] = (f.marker ? 0x80 : 0) | (f.payloadType & 0x7f);
  head.writeUInt16BE(f.seq & 0xffff, 2);
  head.writeUInt32BE(f.timestamp >>> 0, 4);
  head.writeUInt32BE(f.ssrc >>> 0, 8);
  csrcs.forEach((c, i) => head.writeUInt32BE(c >>> 0, 12 + i * 4));
  const parts: Buffer[] = [head];
  if (f.extension) {
    const ext = Buffer.alloc(4);
    ext.writeUInt16BE(f.extension.profile & 0xffff, 0);
    ext.writeUInt16BE((f.extension.words ?? Math.ceil(f.extension.body.length / 4)) & 0xffff, 2);
    const body = Buffer.alloc(Math.ceil(f.extension.body.length / 4) * 4);
    f.extension.body.copy(body);
    parts.push(ext, body);
  }
  parts.push(f.payload);
  return Buffer.concat(parts);
}

/** One-byte header extension elements (RFC 8285 §4.2): id 1–14, 1–16 bytes each; id and length as given. */
export function oneByteExtensions(elements: { id: number; data: Buffer; lengthField?: number }[]): Buffer {
  return Buffer.concat(elements.map((e) => Buffer.concat([Buffer.from([((e.id & 0x0f) << 4) | ((e.lengthField ?? e.data.length - 1) & 0x0f)]), e.data])));
}

/** The attacker's stream state: sequence numbers and timestamps go on per SSRC, as a sender's would, unless an attack jumps them. */
export class StreamState {
  readonly #seq = new Map<number, number>();

  next(ssrc: number, rng: Rng): { seq: number; timestamp: number } {
    const seq = ((this.#seq.get(ssrc) ?? rng.int(65536)) + 1) & 0xffff;
    this.#seq.set(ssrc, seq);
    return { seq, timestamp: seq * 3000 };
  }

  jump(ssrc: number, seq: number): void {
    this.#seq.set(ssrc, seq & 0xffff);
  }
}

/** A payload that is never an honest one: its bytes 1–4 are not a mark (marks are printable ASCII). */
function payload(rng: Rng, length: number, first?: number): Buffer {
  const bytes = rng.bytes(Math.max(length, 1));
  if (first !== undefined) bytes[0] = first;
  if (bytes.length > 1) bytes[1] = 0xff;
  return bytes;
}

/** Hostile H264 (or VP8) payloads: aggregation and fragmentation headers that lie, reserved NAL types, empty ones. */
function hostileVideoPayload(rng: Rng, codec: VideoCodec): Buffer {
  if (codec === 'VP8') {
    // X/R/N/S/PID bits, extension bytes (I/L/T/K, long picture ids) present or claimed, truncated key frame heads.
    return payload(rng, rng.pick([1, 2, 3, 4, 6, 10, 30]), rng.pick([0x90, 0x80, 0x10, 0x00, 0xff, 0x9f]));
  }
  switch (rng.int(6)) {
    case 0: return Buffer.from([0x78, 0xff, 0xff, 0x67]); // STAP-A claiming a 65535-byte unit
    case 1: return Buffer.from([0x78, 0x00, 0x00, 0x00, 0x00]); // STAP-A of empty units
    case 2: return Buffer.from([0x7c, rng.pick([0xc5, 0x85, 0x45, 0x05, 0xff, 0x00])]); // FU-A start+end, no body
    case 3: return Buffer.from([rng.pick([0x00, 0x1f, 0x1e, 0x19, 0x1a, 0x1b, 0x1d, 0x7d])]); // reserved and unsupported NAL types
    case 4: return Buffer.alloc(0);
    default: return payload(rng, 1 + rng.int(40), 0x65); // an IDR head over random bytes
  }
}

/** RTP attack categories: each makes one packet's bytes (sent protected unless the category says bare). */
export const RTP_ATTACKS = {
  /** Random bytes, bare (not SRTP: refused before authentication, or taken for STUN / DTLS by the demultiplexer). */
  'random-bytes': (rng) => ({ bytes: rng.bytes(rng.int(1500)), bare: true }),
  /** Random bytes after a plausible header, protected: the payload is garbage for the codec. */
  'random-payload': (rng, t, s) => ({ bytes: rtpBytes({ payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), payload: payload(rng, rng.int(1400)) }) }),
  /** A header cut short (fewer than 12 bytes, or CSRCs and extensions that run past the end). */
  truncated: (rng, t) => {
    const whole = rtpBytes({ payloadType: t.payloadTypes.video, seq: 1, timestamp: 1, ssrc: t.ownSsrcs.video, csrcs: [1, 2, 3], extension: { profile: 0xbede, body: Buffer.alloc(8) }, payload: Buffer.alloc(0) });
    return { bytes: whole.subarray(0, rng.int(whole.length)) };
  },
  /** RTP versions 0, 1 and 3 (the first byte leaves the media range: STUN, DTLS, or nothing, to the demultiplexer). */
  'bad-version': (rng, t, s) => ({ bytes: rtpBytes({ version: rng.pick([0, 1, 3]), payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), payload: payload(rng, 50) }) }),
  /** CC = 15, with the CSRCs present, absent, or naming other participants. */
  'csrc-count': (rng, t, s) => ({
    bytes: rtpBytes({
      payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), marker: true,
      csrcs: rng.chance(0.5) ? Array.from({ length: 15 }, () => rng.pick([...t.spoofSsrcs, rng.int(2 ** 32)])) : [],
      csrcCount: 15, payload: payload(rng, rng.int(100)),
    }),
  }),
  /** Header extensions that lie: reserved ids 0 and 15, negotiated ids with wrong lengths, two-byte and unknown profiles, a length field past the packet. */
  'header-extensions': (rng, t, s) => {
    const id = rng.pick([0, 15, t.extensionIds.mid ?? 1, t.extensionIds.absSendTime ?? 2, t.extensionIds.transportCc ?? 3, 14, 5]);
    const data = rng.bytes(1 + rng.int(16));
    const profile = rng.pick([0xbede, 0xbede, 0x1000, 0x1001, 0x0000, 0xffff]);
    const body = profile === 0xbede
      ? oneByteExtensions(Array.from({ length: 1 + rng.int(6) }, () => ({ id: rng.chance(0.7) ? id : rng.int(16), data: rng.bytes(1 + rng.int(16)), lengthField: rng.chance(0.2) ? 15 : undefined })))
      : Buffer.concat([Buffer.from([id, rng.pick([0, 1, 255, data.length])]), data]);
    const words = rng.chance(0.2) ? rng.pick([0, 0xffff, 1000]) : undefined;
    return { bytes: rtpBytes({ payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), extension: { profile, body, words }, payload: payload(rng, 20) }) };
  },
  /** The padding bit with a padding count of 0, past the payload, equal to it, or 255. */
  padding: (rng, t, s) => {
    const body = payload(rng, 1 + rng.int(60));
    body[body.length - 1] = rng.pick([0, body.length, body.length + 1, 255, 1]);
    return { bytes: rtpBytes({ padding: true, payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), payload: body }) };
  },
  /** Payload types not negotiated, or the other kind's on an SSRC (audio on video and back). */
  'payload-types': (rng, t, s) => {
    const ssrc = rng.pick([t.ownSsrcs.audio, t.ownSsrcs.video]);
    return { bytes: rtpBytes({ payloadType: rng.pick([0, 1, 35, 72, 73, 76, 77, 95, 96, 127, t.payloadTypes.audio, t.payloadTypes.video]), ssrc, ...s.next(ssrc, rng), payload: payload(rng, 30) }) };
  },
  /** SSRCs that are not the attacker's: another participant's (spoofing), the server's own senders', 0, 2^32−1, fresh ones. */
  ssrc: (rng, t, s) => {
    const ssrc = rng.pick([...t.spoofSsrcs, ...t.remoteSsrcs, 0, 0xffffffff, rng.int(2 ** 32)]);
    return { bytes: rtpBytes({ payloadType: t.payloadTypes.video, ssrc, ...s.next(ssrc, rng), marker: true, payload: hostileVideoPayload(rng, t.codec) }) };
  },
  /** Sequence numbers that jump (half the space, backwards, across the wrap) and timestamps that jump with them. */
  sequence: (rng, t, s) => {
    const ssrc = t.ownSsrcs.video;
    s.jump(ssrc, rng.pick([0, 1, 32767, 32768, 65534, 65535, rng.int(65536)]));
    const { seq } = s.next(ssrc, rng);
    return { bytes: rtpBytes({ payloadType: t.payloadTypes.video, ssrc, seq, timestamp: rng.pick([0, 0xffffffff, 0x80000000, rng.int(2 ** 32)]), marker: rng.chance(0.5), payload: hostileVideoPayload(rng, t.codec) }) };
  },
  /** Codec payload headers that lie (H264 aggregation and fragmentation, reserved NAL types; VP8 descriptors). */
  'codec-payload': (rng, t, s) => ({ bytes: rtpBytes({ payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), marker: rng.chance(0.5), payload: hostileVideoPayload(rng, t.codec) }) }),
  /** Packets far past the MTU (loopback UDP carries them). */
  oversized: (rng, t, s) => ({ bytes: rtpBytes({ payloadType: t.payloadTypes.video, ssrc: t.ownSsrcs.video, ...s.next(t.ownSsrcs.video, rng), payload: payload(rng, rng.pick([1500, 4000, 9000, 30_000]), 0x65) }) }),
} satisfies Record<string, (rng: Rng, target: LinkTarget, state: StreamState) => { bytes: Buffer; bare?: boolean }>;

export type RtpAttack = keyof typeof RTP_ATTACKS;
