/**
 * Hostile RTCP from a connected peer, by category: compound packets with lying lengths and counts, reports with
 * absurd values, and feedback storms about the far end's own streams (NACKs for every sequence number, PLI and FIR
 * floods, REMB and transport-cc with impossible figures). Sent SRTCP-protected with the link's real keys
 * (media-peers.ts RawLink), so the server authenticates and parses every one.
 */
import type { Rng } from './prng.js';
import type { LinkTarget } from './rtp-attacks.js';

/** One RTCP packet: header (V=2, padding bit, count or FMT, type, length in words − 1, unless told to lie) and body. */
export function rtcpPacket(type: number, count: number, body: Buffer, options: { lengthField?: number; padding?: boolean; version?: number } = {}): Buffer {
  const padded = Buffer.alloc(Math.ceil(body.length / 4) * 4);
  body.copy(padded);
  const head = Buffer.alloc(4);
  head[0] = ((options.version ?? 2) << 6) | (options.padding ? 0x20 : 0) | (count & 0x1f);
  head[1] = type & 0xff;
  head.writeUInt16BE((options.lengthField ?? padded.length / 4) & 0xffff, 2);
  return Buffer.concat([head, padded]);
}

const u32 = (...values: number[]): Buffer => {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeUInt32BE(v >>> 0, i * 4));
  return out;
};

/** A report block (RFC 3550 §6.4.1) with the values given (any, even impossible ones). */
function reportBlock(rng: Rng, ssrc: number): Buffer {
  const block = Buffer.alloc(24);
  block.writeUInt32BE(ssrc >>> 0, 0);
  block[4] = rng.pick([0, 255, rng.int(256)]); // fraction lost
  block.writeUIntBE(rng.pick([0, 0xffffff, 0x800000, rng.int(0x1000000)]), 5, 3); // cumulative lost (24-bit signed)
  block.writeUInt32BE(rng.pick([0, 0xffffffff, rng.int(2 ** 32)]), 8); // extended highest sequence number
  block.writeUInt32BE(rng.pick([0, 0xffffffff, rng.int(2 ** 32)]), 12); // jitter
  block.writeUInt32BE(rng.pick([0, 0xffffffff, rng.int(2 ** 32)]), 16); // last SR
  block.writeUInt32BE(rng.pick([0, 0xffffffff, rng.int(2 ** 32)]), 20); // delay since last SR
  return block;
}

/** Generic NACKs (RTPFB FMT 1) for `media`: `fcis` (PID, BLP) pairs from `from`, covering 17 sequence numbers each. */
function nack(sender: number, media: number, from: number, fcis: number, blp = 0xffff): Buffer {
  const body = Buffer.alloc(8 + fcis * 4);
  body.writeUInt32BE(sender >>> 0, 0);
  body.writeUInt32BE(media >>> 0, 4);
  for (let i = 0; i < fcis; i++) {
    body.writeUInt16BE((from + i * 17) & 0xffff, 8 + i * 4);
    body.writeUInt16BE(blp, 10 + i * 4);
  }
  return rtcpPacket(205, 1, body);
}

/** A transport-cc feedback (RTPFB FMT 15) whose counts and chunks need not agree. */
function transportCc(rng: Rng, sender: number, media: number): Buffer {
  const statusCount = rng.pick([0, 1, 7, 0xffff, 0x8000, rng.int(65536)]);
  const head = Buffer.alloc(16);
  head.writeUInt32BE(sender >>> 0, 0);
  head.writeUInt32BE(media >>> 0, 4);
  head.writeUInt16BE(rng.int(65536), 8); // base sequence number
  head.writeUInt16BE(statusCount, 10);
  head.writeUIntBE(rng.pick([0, 0xffffff, rng.int(0x1000000)]), 12, 3); // reference time
  head[15] = rng.int(256); // feedback packet count
  const chunks = Array.from({ length: rng.int(20) }, () => rng.pick([
    0x1fff, // run length: 8191 "not received"
    0x3fff, // run length: 8191 "received, small delta"
    0x5fff, // run length: 8191 "received, large delta"
    0x7fff, // run length: 8191 with the reserved symbol
    0xffff, // two-bit vector, every symbol reserved
    0xbfff, // one-bit vector, all received
    rng.int(65536),
  ]));
  const deltas = rng.bytes(rng.int(60));
  return rtcpPacket(205, 15, Buffer.concat([head, Buffer.from(chunks.flatMap((c) => [c >> 8, c & 0xff])), deltas]));
}

/** Feedback about: the far end's own SSRCs mostly (where it does harm), else anyone's. */
function about(rng: Rng, t: LinkTarget): number {
  return rng.chance(0.8) && t.remoteSsrcs.length > 0 ? rng.pick(t.remoteSsrcs) : rng.pick([...t.spoofSsrcs, 0, 0xffffffff, rng.int(2 ** 32)]);
}

/** RTCP attack categories: each makes one compound packet's bytes (sent SRTCP-protected). */
export const RTCP_ATTACKS = {
  /** Random bytes after an RTCP-looking first two bytes (types 192–223 as the demultiplexer sees them). */
  'random-rtcp': (rng) => Buffer.concat([Buffer.from([0x80 | rng.int(64), 192 + rng.int(32)]), rng.bytes(6 + rng.int(200))]),
  /** Compounds whose length fields lie: zero, past the end, 0xffff, off by one; a second packet cut short. */
  'wrong-lengths': (rng, t) => {
    const first = rtcpPacket(201, 1, Buffer.concat([u32(t.ownSsrcs.video), reportBlock(rng, about(rng, t))]), { lengthField: rng.pick([0, 1, 6, 8, 0xffff, 100]) });
    const second = rtcpPacket(rng.pick([200, 201, 202, 203, 204, 205, 206]), rng.int(32), rng.bytes(rng.int(40)), { lengthField: rng.chance(0.5) ? rng.int(65536) : undefined });
    return Buffer.concat([first, second.subarray(0, rng.int(second.length + 1))]);
  },
  /** Sender and receiver reports with absurd figures, and counts of report blocks (up to 31) that are not there. */
  reports: (rng, t) => {
    const blocks = Array.from({ length: rng.int(4) }, () => reportBlock(rng, about(rng, t)));
    const count = rng.chance(0.3) ? 31 : blocks.length;
    if (rng.chance(0.5)) {
      const info = Buffer.concat([u32(t.ownSsrcs.video, rng.int(2 ** 32), rng.int(2 ** 32), rng.int(2 ** 32), rng.pick([0, 0xffffffff]), rng.pick([0, 0xffffffff]))]);
      return rtcpPacket(200, count, Buffer.concat([info, ...blocks]));
    }
    return rtcpPacket(201, count, Buffer.concat([u32(t.ownSsrcs.video), ...blocks]));
  },
  /** SDES with item lengths past the chunk, BYE with 31 SSRCs (other participants' among them) and a reason, APP. */
  'sdes-bye-app': (rng, t) => rng.pick([
    () => rtcpPacket(202, 1 + rng.int(31), Buffer.concat([u32(t.ownSsrcs.video), Buffer.from([1, 255, ...rng.bytes(10)])])),
    () => rtcpPacket(203, 31, Buffer.concat([u32(...Array.from({ length: 31 }, () => rng.pick([...t.spoofSsrcs, ...t.remoteSsrcs, rng.int(2 ** 32)]))), Buffer.from([200, 1, 2])])),
    () => rtcpPacket(204, rng.int(32), Buffer.concat([u32(t.ownSsrcs.video), Buffer.from('APP!'), rng.bytes(rng.int(100))])),
    () => rtcpPacket(rng.pick([192, 193, 195, 207, 210]), rng.int(32), rng.bytes(rng.int(60))),
  ])(),
  /** NACK storms: every sequence number of a stream asked for again, in packets of up to ~300 FCIs. */
  'nack-storm': (rng, t) => nack(t.ownSsrcs.video, about(rng, t), rng.int(65536), rng.pick([1, 50, 300])),
  /** PLI and FIR floods about the far end's streams (FIR sequence numbers and FCIs as given). */
  'pli-fir': (rng, t) => rng.chance(0.6)
    ? rtcpPacket(206, 1, u32(t.ownSsrcs.video, about(rng, t)))
    : rtcpPacket(206, 4, Buffer.concat([u32(t.ownSsrcs.video, 0), ...Array.from({ length: 1 + rng.int(8) }, () => u32(about(rng, t), rng.int(2 ** 32)))])),
  /** REMB with impossible bitrates (exponent 63, mantissa max, zero) and SSRC counts that lie. */
  remb: (rng, t) => {
    const ssrcs = Array.from({ length: rng.int(4) }, () => about(rng, t));
    const rate = Buffer.alloc(4);
    rate[0] = rng.pick([0, 1, 255, ssrcs.length]);
    const exp = rng.pick([0, 63, rng.int(64)]);
    const mantissa = rng.pick([0, 0x3ffff, rng.int(0x40000)]);
    rate.writeUIntBE((exp << 18) | mantissa, 1, 3);
    return rtcpPacket(206, 15, Buffer.concat([u32(t.ownSsrcs.video, 0), Buffer.from('REMB'), rate, u32(...ssrcs)]));
  },
  /** transport-cc feedback with huge status counts, run-length chunks of 8191, reserved symbols, missing deltas. */
  'transport-cc': (rng, t) => transportCc(rng, t.ownSsrcs.video, about(rng, t)),
  /** Feedback types and formats nobody defined, on RTPFB and PSFB. */
  'unknown-feedback': (rng, t) => rtcpPacket(rng.pick([205, 206]), rng.pick([0, 2, 3, 5, 6, 7, 8, 9, 10, 14, 16, 31]), Buffer.concat([u32(t.ownSsrcs.video, about(rng, t)), rng.bytes(rng.int(80))])),
} satisfies Record<string, (rng: Rng, target: LinkTarget) => Buffer>;

export type RtcpAttack = keyof typeof RTCP_ATTACKS;
