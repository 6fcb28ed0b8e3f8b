/**
 * RFC 2198 redundant audio (RED) toward subscribers whose answer negotiated `red/48000/2` (issue 43): each packet
 * carries the Opus frame it forwards (the primary) after the previous one or two frames, so a receiver that lost a
 * packet on its downlink recovers its frame from the next one. Built by the server from the Opus packets it
 * forwards, in the downlink sender's timestamp space (after its continuity offsets).
 */

/** Previous frames carried besides the primary (LiveKit and Chromium's own RED send two at most). */
export const RED_DISTANCE = 2;
/** A redundant block's timestamp offset has 14 bits, its length 10 (RFC 2198 §3). */
const MAX_OFFSET = 0x3fff;
const MAX_BLOCK = 0x3ff;
/** Redundancy is left out rather than let a packet grow past this (a typical path MTU less headers and SRTP). */
const MAX_PACKET = 1100;

/** One block of a RED payload. */
export interface RedBlock {
  payloadType: number;
  /** How many RTP clock ticks before the packet's own timestamp the block's frame began (0 for the primary). */
  timestampOffset: number;
  payload: Buffer;
}

/** A frame sent earlier, in the sender's timestamp space. */
interface Sent {
  timestamp: number;
  payload: Buffer;
}

/**
 * The RED payload of `primary` (timestamp `timestamp`) with the frames of `history` (oldest first) that fit: a
 * 4-byte header per redundant block (F=1, PT, 14-bit offset, 10-bit length), a 1-byte one for the primary (F=0,
 * PT), then the blocks in the same order.
 */
export function encodeRed(payloadType: number, primary: Buffer, timestamp: number, history: readonly Sent[]): Buffer {
  const redundant = history.filter((frame) => {
    const offset = (timestamp - frame.timestamp) >>> 0;
    return offset > 0 && offset <= MAX_OFFSET && frame.payload.length <= MAX_BLOCK && frame.payload.length > 0;
  });
  let size = 1 + primary.length + redundant.reduce((n, f) => n + 4 + f.payload.length, 0);
  while (redundant.length > 0 && size > MAX_PACKET) size -= 4 + (redundant.shift() as Sent).payload.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const frame of redundant) {
    const offset = (timestamp - frame.timestamp) >>> 0;
    out[at] = 0x80 | (payloadType & 0x7f);
    // 14-bit offset, then 10-bit length: 24 bits after the first byte.
    out.writeUIntBE((offset << 10) | frame.payload.length, at + 1, 3);
    at += 4;
  }
  out[at++] = payloadType & 0x7f;
  for (const frame of redundant) at += frame.payload.copy(out, at);
  primary.copy(out, at);
  return out;
}

/** The blocks of a RED payload, oldest first (the primary last); undefined if it does not parse. */
export function decodeRed(payload: Buffer): RedBlock[] | undefined {
  const headers: { payloadType: number; timestampOffset: number; length: number | undefined }[] = [];
  let at = 0;
  for (;;) {
    if (at >= payload.length) return undefined;
    const first = payload[at];
    if ((first & 0x80) === 0) {
      headers.push({ payloadType: first & 0x7f, timestampOffset: 0, length: undefined });
      at += 1;
      break;
    }
    if (at + 4 > payload.length) return undefined;
    const rest = payload.readUIntBE(at + 1, 3);
    headers.push({ payloadType: first & 0x7f, timestampOffset: rest >>> 10, length: rest & MAX_BLOCK });
    at += 4;
  }
  const blocks: RedBlock[] = [];
  for (const header of headers) {
    const length = header.length ?? payload.length - at;
    if (length < 0 || at + length > payload.length) return undefined;
    blocks.push({ payloadType: header.payloadType, timestampOffset: header.timestampOffset, payload: payload.subarray(at, at + length) });
    at += length;
  }
  return blocks;
}

/** The frames one sender sent last (its RED redundancy), oldest first. */
export class RedHistory {
  #frames: Sent[] = [];

  /** The RED payload of `primary` at `timestamp`, which then joins the history. */
  wrap(payloadType: number, primary: Buffer, timestamp: number): Buffer {
    const out = encodeRed(payloadType, primary, timestamp, this.#frames);
    this.#frames.push({ timestamp, payload: primary });
    if (this.#frames.length > RED_DISTANCE) this.#frames.shift();
    return out;
  }

  /** A new source starts on the sender: its earlier frames are not this stream's. */
  clear(): void {
    this.#frames = [];
  }
}
