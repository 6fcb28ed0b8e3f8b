/**
 * H264 SEI NAL units (pure functions): build with emulation prevention, find in an Annex B frame,
 * insert into a frame before its first slice, parse back. Frames are Annex B: NAL units each after a
 * start code; a frame must begin with the 4-byte start code 00 00 00 01 (else 'not h26x frame').
 */

/** NAL unit type of SEI. */
export const NAL_SEI = 6;
/** SEI payload types we carry: user data registered (5, with a 16-byte UUID first) and 243 (default). */
export const SEI_PAYLOAD_TYPES = Object.freeze([5, 243] as const);
/** At most this many SEI units are inserted in one frame (docs/behaviour.md §9). */
export const MAX_SEI_PER_FRAME = 9;

const START_CODE = new Uint8Array([0, 0, 0, 1]);

/** The error of a frame that does not begin with a 4-byte start code. */
export class NotH26xFrame extends Error {
  constructor() {
    super('not h26x frame');
    this.name = 'NotH26xFrame';
  }
}

/** True when the frame begins with the 4-byte start code. */
export function beginsWithStartCode(frame: Uint8Array): boolean {
  return frame.length >= 4 && frame[0] === 0 && frame[1] === 0 && frame[2] === 0 && frame[3] === 1;
}

/** Inserts emulation prevention bytes: 00 00 0x (x ≤ 3) becomes 00 00 03 0x. */
export function addEmulationPrevention(rbsp: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out.push(3);
      zeros = 0;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return new Uint8Array(out);
}

/** Removes emulation prevention bytes (the 03 of 00 00 03). */
export function removeEmulationPrevention(ebsp: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of ebsp) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return new Uint8Array(out);
}

/** A value coded as SEI does: 0xFF per 255, then the rest. */
function ffCoded(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 255) {
    out.push(255);
    rest -= 255;
  }
  out.push(rest);
  return out;
}

/**
 * One SEI NAL unit with its 4-byte start code: header 0x06, payload type, payload size, payload,
 * RBSP trailing bits, with emulation prevention.
 */
export function buildSeiNal(payload: Uint8Array, payloadType: number): Uint8Array {
  const rbsp = new Uint8Array([...ffCoded(payloadType), ...ffCoded(payload.length), ...payload, 0x80]);
  const body = addEmulationPrevention(rbsp);
  const nal = new Uint8Array(START_CODE.length + 1 + body.length);
  nal.set(START_CODE, 0);
  nal[4] = NAL_SEI;
  nal.set(body, 5);
  return nal;
}

/** A NAL unit's place in a frame: where its start code begins, where its header is, where it ends. */
export interface NalRange {
  codeStart: number;
  start: number;
  end: number;
  type: number;
}

/**
 * The NAL units of an Annex B frame (3- or 4-byte start codes). With `untilSlice` the scan stops at the
 * first slice (SEI always comes before it), which is then the last unit, reaching to the end.
 */
export function splitNalUnits(frame: Uint8Array, untilSlice = false): NalRange[] {
  const units: NalRange[] = [];
  let i = 0;
  let current: { codeStart: number; start: number } | undefined;
  while (i + 2 < frame.length) {
    if (frame[i] === 0 && frame[i + 1] === 0 && frame[i + 2] === 1) {
      const codeStart = i > 0 && frame[i - 1] === 0 ? i - 1 : i;
      if (current) units.push({ ...current, end: codeStart, type: frame[current.start] & 0x1f });
      current = { codeStart, start: i + 3 };
      const type = frame[i + 3] & 0x1f;
      if (untilSlice && type >= 1 && type <= 5) break;
      i += 3;
    } else {
      i++;
    }
  }
  if (current && current.start < frame.length) units.push({ ...current, end: frame.length, type: frame[current.start] & 0x1f });
  return units;
}

/** One SEI message. */
export interface SeiMessage {
  payloadType: number;
  payload: Uint8Array;
}

/** Parses an SEI NAL unit's body (after the header byte, still escaped) into its messages. */
export function parseSeiBody(escaped: Uint8Array): SeiMessage[] {
  const rbsp = removeEmulationPrevention(escaped);
  const messages: SeiMessage[] = [];
  let i = 0;
  // Stop at the trailing bits (0x80 as the last byte).
  while (i < rbsp.length && !(rbsp[i] === 0x80 && i === rbsp.length - 1)) {
    let type = 0;
    while (i < rbsp.length && rbsp[i] === 255) { type += 255; i++; }
    if (i >= rbsp.length) break;
    type += rbsp[i++];
    let size = 0;
    while (i < rbsp.length && rbsp[i] === 255) { size += 255; i++; }
    if (i >= rbsp.length) break;
    size += rbsp[i++];
    if (i + size > rbsp.length) break;
    messages.push({ payloadType: type, payload: rbsp.slice(i, i + size) });
    i += size;
  }
  return messages;
}

/**
 * Inserts SEI NAL units (each with its start code, from buildSeiNal) before the first slice of the
 * frame, at most MAX_SEI_PER_FRAME. Throws NotH26xFrame when the frame does not begin with a start code.
 */
export function insertSei(frame: Uint8Array, seiNals: readonly Uint8Array[]): Uint8Array {
  if (!beginsWithStartCode(frame)) throw new NotH26xFrame();
  const nals = seiNals.slice(0, MAX_SEI_PER_FRAME);
  if (nals.length === 0) return frame;
  const firstSlice = splitNalUnits(frame, true).find((unit) => unit.type >= 1 && unit.type <= 5);
  const at = firstSlice ? firstSlice.codeStart : 0;
  const extra = nals.reduce((sum, nal) => sum + nal.length, 0);
  const out = new Uint8Array(frame.length + extra);
  out.set(frame.subarray(0, at), 0);
  let offset = at;
  for (const nal of nals) {
    out.set(nal, offset);
    offset += nal.length;
  }
  out.set(frame.subarray(at), offset);
  return out;
}

/** The SEI messages of the given payload types in a frame. Throws NotH26xFrame when it does not begin with a start code. */
export function extractSei(frame: Uint8Array, payloadTypes: readonly number[] = SEI_PAYLOAD_TYPES): SeiMessage[] {
  if (!beginsWithStartCode(frame)) throw new NotH26xFrame();
  const found: SeiMessage[] = [];
  for (const unit of splitNalUnits(frame, true)) {
    if (unit.type !== NAL_SEI) continue;
    for (const message of parseSeiBody(frame.subarray(unit.start + 1, unit.end))) {
      if (payloadTypes.includes(message.payloadType)) found.push(message);
    }
  }
  return found;
}
