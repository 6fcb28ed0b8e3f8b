/**
 * Runtime patches of werift's parsers of what a peer sends (docs/architecture.md "Patched dependencies"), found by
 * the media fuzz (tests/fuzz/media-fuzz.ts): inputs whose cost to werift grew with a number the sender wrote, not
 * with the bytes it sent. Each guard refuses such an input (the parser throws: werift drops the packet as
 * unauthenticated or malformed) before werift's own code reads it; well-formed input is handled exactly as before
 * (werift-input-guards.test.ts). The parser guards apply once, on import (peer-factory.ts imports this for every
 * peer connection of the server); boundNackGaps is applied per uplink receiver (uplink.ts).
 * - RTP header: werift walks a header extension block as far as its length field says, past the packet's end,
 *   and copies its list of elements for every element — quadratic. It parses every datagram's header before it
 *   checks the SRTP tag, so one unauthenticated 40-byte packet claiming 65,535 words blocked the node's event loop
 *   for ~10 minutes. Refused: a CSRC list or extension block past the packet (RFC 3550 §5.1, §5.3.1), more
 *   extension elements than there are ids (255, RFC 8285).
 * - transport-cc feedback (RTPFB FMT 15): werift makes an object per packet status the chunks describe, a 2-byte
 *   run-length chunk standing for up to 8,192: a 44-byte feedback claiming 65,535 received packets took ~24 ms.
 *   Refused: more than MAX_TRANSPORT_CC_STATUSES statuses, chunks that describe more than the count (or run past
 *   the packet), received packets without their receive delta bytes.
 * - NACK bookkeeping of an uplink: werift marks every sequence number of a forward gap lost and then keeps the
 *   last 150; a publisher alternating its sequence number between 0 and 65,534 cost ~9 ms a packet. A gap is marked
 *   from its last 150 numbers only (what werift kept of it anyway).
 */
import { RtpHeader, TransportWideCC, type RTCRtpReceiver, type RtpPacket } from 'werift';

/** More elements than RFC 8285 has ids (one-byte 1–14, two-byte 1–255): the block is not a real one. */
const MAX_EXTENSION_ELEMENTS = 255;
const ONE_BYTE_PROFILE = 0xbede;
/** RFC 8285 §4.3's two-byte profile (werift reads 0x1000 only; other "appbits" values are one opaque element to it). */
const TWO_BYTE_PROFILE = 0x1000;

/** Why werift must not parse this RTP header, or undefined when it may. */
export function malformedRtpHeader(packet: Buffer): string | undefined {
  if (packet.length < 12) return 'an RTP header is 12 bytes at least';
  let offset = 12 + (packet[0] & 0x0f) * 4;
  if (offset > packet.length) return 'the CSRC list runs past the packet';
  if ((packet[0] & 0x10) === 0) return undefined;
  if (offset + 4 > packet.length) return 'the header extension runs past the packet';
  const profile = packet.readUInt16BE(offset);
  const end = offset + 4 + packet.readUInt16BE(offset + 2) * 4;
  if (end > packet.length) return 'the header extension runs past the packet';
  offset += 4;
  if (profile !== ONE_BYTE_PROFILE && profile !== TWO_BYTE_PROFILE) return undefined;
  // The elements werift's loop would make (zero bytes are padding; a one-byte id 15 ends the block).
  let elements = 0;
  while (offset < end) {
    const byte = packet[offset];
    if (byte === 0) {
      offset++;
      continue;
    }
    if (profile === ONE_BYTE_PROFILE) {
      if (byte >> 4 === 0x0f) break;
      offset += 1 + (byte & 0x0f) + 1;
    } else {
      offset += 2 + (packet[offset + 1] ?? 0);
    }
    if (++elements > MAX_EXTENSION_ELEMENTS) return `the header extension holds more than ${MAX_EXTENSION_ELEMENTS} elements`;
  }
  return undefined;
}

/**
 * Statuses one transport-cc feedback may report. The server's own feedback reports at most 600 (transport-cc.ts);
 * a browser's covers the ~100 ms since its last, a few hundred packets (libwebrtc's limit is 32,767).
 */
export const MAX_TRANSPORT_CC_STATUSES = 8192;

/**
 * Why werift must not parse this transport-cc feedback (`body`: the RTCP packet after its 4-byte header, as werift
 * gets it), or undefined when it may. Reads the chunks as werift does, in time linear in the chunks.
 */
export function malformedTransportCc(body: Buffer): string | undefined {
  if (body.length < 16) return 'a transport-cc feedback is 20 bytes at least';
  const count = body.readUInt16BE(10);
  if (count > MAX_TRANSPORT_CC_STATUSES) return `more than ${MAX_TRANSPORT_CC_STATUSES} packet statuses`;
  let offset = 16;
  let described = 0;
  let deltaBytes = 0;
  while (described < count) {
    if (offset + 2 > body.length) return 'the packet status chunks run past the packet';
    const chunk = body.readUInt16BE(offset);
    offset += 2;
    if ((chunk & 0x8000) === 0) {
      // Run length: 2-bit status, 13-bit length (werift makes runLength + 1 results of it).
      const status = (chunk >> 13) & 0x03;
      const run = chunk & 0x1fff;
      if (run > count - described) return 'a run-length chunk describes more packets than the feedback reports';
      if (status === 1) deltaBytes += run;
      if (status === 2) deltaBytes += 2 * run;
      described += run;
    } else if ((chunk & 0x4000) === 0) {
      // Status vector of 14 one-bit symbols: 1 is received (small delta).
      for (let i = 0; i < 14; i++) deltaBytes += (chunk >> (13 - i)) & 1;
      described += 14;
    } else {
      // Status vector of 7 two-bit symbols: 1 small delta, 2 large delta.
      for (let i = 0; i < 7; i++) {
        const symbol = (chunk >> (12 - 2 * i)) & 0x03;
        deltaBytes += symbol === 1 ? 1 : symbol === 2 ? 2 : 0;
      }
      described += 7;
    }
  }
  if (offset + deltaBytes > body.length) return 'received packets without their receive deltas';
  return undefined;
}

/** Inputs the guards refused since the process started, by kind (`/metrics`: conclave_media_inputs_refused_total). */
export const REFUSED_MEDIA_INPUTS: Record<'rtp-header' | 'transport-cc', number> = { 'rtp-header': 0, 'transport-cc': 0 };

/** werift's own parsers (kept so tests can compare the guarded ones with them). */
export const originalRtpHeaderDeSerialize: (packet: Buffer) => RtpHeader = RtpHeader.deSerialize.bind(RtpHeader);
export const originalTransportCcDeSerialize: typeof TransportWideCC.deSerialize = TransportWideCC.deSerialize.bind(TransportWideCC);

RtpHeader.deSerialize = (packet: Buffer): RtpHeader => {
  const malformed = malformedRtpHeader(packet);
  if (malformed) {
    REFUSED_MEDIA_INPUTS['rtp-header']++;
    throw new RangeError(`malformed RTP header: ${malformed}`);
  }
  return originalRtpHeaderDeSerialize(packet);
};

TransportWideCC.deSerialize = (body: Buffer, header: Parameters<typeof TransportWideCC.deSerialize>[1]): TransportWideCC => {
  const malformed = malformedTransportCc(body);
  if (malformed) {
    REFUSED_MEDIA_INPUTS['transport-cc']++;
    throw new RangeError(`malformed transport-cc feedback: ${malformed}`);
  }
  return originalTransportCcDeSerialize(body, header);
};

/** werift keeps at most this many lost sequence numbers per receiver (its NackHandler's LOST_SIZE). */
const NACK_KEPT = 150;

/** The fields of werift's NackHandler (one per receiver, not exported) the bound reads and writes. */
interface NackHandlerFields {
  newEstSeqNum: number;
  getLost(seq: number): number | undefined;
  addPacket(packet: RtpPacket): void;
}

/** Bounds the work of a forward sequence-number gap in `receiver`'s NACK bookkeeping to the numbers werift keeps. */
export function boundNackGaps(receiver: RTCRtpReceiver): void {
  const nack = (receiver as unknown as { nack: NackHandlerFields }).nack;
  const addPacket = nack.addPacket.bind(nack);
  nack.addPacket = (packet) => {
    const seq = packet.header.sequenceNumber;
    const next = (nack.newEstSeqNum + 1) & 0xffff;
    // werift's own test of a gap (numeric, not wrap-aware); its loop then marks next … seq − 1 lost.
    if (nack.newEstSeqNum !== 0 && seq > next && seq - next > NACK_KEPT && nack.getLost(seq) === undefined) {
      nack.newEstSeqNum = seq - NACK_KEPT - 1;
    }
    addPacket(packet);
  };
}
