/**
 * Which bytes of an encoded frame stay clear ('webrtc' mode, as the original's): the server and the receiving
 * browser still read them, the rest is sealed.
 * - H264 (Annex B): every NAL unit but the coded slices (1: non-IDR, 5: IDR) stays clear — SPS, PPS, SEI, AUD —
 *   and of a slice the start code, the NAL header and the next byte (first_mb / slice type) stay clear, so the
 *   media plane still sees key frames and the packetizer still finds the NAL units. The sealed rest is escaped
 *   like H264 payload (0x03 after two zero bytes) and ends with 0x80: a start code can never appear inside it,
 *   and the packetizer / depacketizer (which may turn 3-byte start codes into 4-byte ones) cannot change it.
 * - VP8 (and any other video): the payload header stays clear (10 bytes of a key frame, 3 of a delta frame).
 * - Audio: the whole frame is sealed (the original keeps no Opus byte clear).
 * 'udt3' mode seals whole frames (the original's mode for its own transport).
 */

/** Seals / opens one region; open returns undefined when it does not open (wrong key, damaged). */
export interface RegionCipher {
  seal(clear: Uint8Array): Uint8Array | Promise<Uint8Array>;
  open(sealed: Uint8Array): Uint8Array | undefined | Promise<Uint8Array | undefined>;
}

/** How a frame's bytes are split. */
export type Layout = 'h264' | 'vp8' | 'whole';

const SLICE_TYPES = new Set([1, 5]);
/** Start code + NAL header + one byte of slice header. */
const H264_CLEAR_AFTER_START = 2;
const VP8_KEY_CLEAR = 10;
const VP8_DELTA_CLEAR = 3;
/** Ends every sealed H264 region (an rbsp_stop_one_bit-like byte): never zero, so no trailing zero is lost. */
const H264_TRAILER = 0x80;

/** The layout of a frame of `kind`, from its MIME type when the browser gives it, else from an Annex B start code. */
export function layoutOf(kind: 'audio' | 'video', data: Uint8Array, mimeType?: string, mode: 'webrtc' | 'udt3' = 'webrtc'): Layout {
  if (kind === 'audio' || mode === 'udt3') return 'whole';
  if (mimeType) return mimeType.toLowerCase() === 'video/h264' ? 'h264' : 'vp8';
  const annexB = data.length > 3 && data[0] === 0 && data[1] === 0 && (data[2] === 1 || (data[2] === 0 && data[3] === 1));
  return annexB ? 'h264' : 'vp8';
}

/** A NAL unit in an Annex B buffer: `start` of its start code, `header` (first byte after it), `end` (exclusive). */
export interface NalUnit {
  start: number;
  header: number;
  end: number;
}

/** Splits an Annex B buffer at its 3- and 4-byte start codes; bytes before the first start code are not returned. */
export function splitNalUnits(data: Uint8Array): NalUnit[] {
  const units: NalUnit[] = [];
  for (let i = 2; i < data.length; i++) {
    if (data[i] !== 1 || data[i - 1] !== 0 || data[i - 2] !== 0) continue;
    const start = i >= 3 && data[i - 3] === 0 ? i - 3 : i - 2;
    const last = units[units.length - 1];
    if (last) last.end = start;
    units.push({ start, header: i + 1, end: data.length });
  }
  return units;
}

/** H264 emulation prevention: a 0x03 after two zero bytes followed by 0..3, then the trailer. */
export function escapeRegion(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + Math.ceil(data.length / 2) + 1);
  let n = 0;
  let zeros = 0;
  for (const byte of data) {
    if (zeros >= 2 && byte <= 3) {
      out[n++] = 3;
      zeros = 0;
    }
    out[n++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  out[n++] = H264_TRAILER;
  return out.subarray(0, n);
}

/** Undoes escapeRegion; undefined when the trailer is missing (not a sealed region). */
export function unescapeRegion(data: Uint8Array): Uint8Array | undefined {
  if (data.length === 0 || data[data.length - 1] !== H264_TRAILER) return undefined;
  const out = new Uint8Array(data.length - 1);
  let n = 0;
  let zeros = 0;
  for (let i = 0; i < data.length - 1; i++) {
    const byte = data[i];
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out[n++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, n);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The clear prefix of a VP8 frame. */
function vp8Clear(data: Uint8Array, key: boolean): number {
  return Math.min(data.length, key ? VP8_KEY_CLEAR : VP8_DELTA_CLEAR);
}

/**
 * An H264 frame with the part of each coded slice after its clear prefix (start code, NAL header and one more
 * byte) replaced by `map` of it; every other NAL unit stays whole. Undefined when `map` gives undefined for any
 * region (sealFrame's and openFrame's walk, one in each direction).
 */
function mapSliceRegions(data: Uint8Array, map: (region: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array>;
function mapSliceRegions(data: Uint8Array, map: (region: Uint8Array) => Promise<Uint8Array | undefined>): Promise<Uint8Array | undefined>;
async function mapSliceRegions(data: Uint8Array, map: (region: Uint8Array) => Promise<Uint8Array | undefined>): Promise<Uint8Array | undefined> {
  const units = splitNalUnits(data);
  const parts: Uint8Array[] = [data.subarray(0, units[0]?.start ?? data.length)];
  for (const unit of units) {
    const clearEnd = Math.min(unit.end, unit.header + H264_CLEAR_AFTER_START);
    if (!SLICE_TYPES.has(data[unit.header] & 0x1f) || clearEnd >= unit.end) {
      parts.push(data.subarray(unit.start, unit.end));
      continue;
    }
    const mapped = await map(data.subarray(clearEnd, unit.end));
    if (!mapped) return undefined;
    parts.push(data.subarray(unit.start, clearEnd), mapped);
  }
  return concat(parts);
}

/** Seals a frame's payload per its layout. `key`: the frame is a key frame (VP8's longer header). */
export async function sealFrame(data: Uint8Array, layout: Layout, key: boolean, cipher: RegionCipher): Promise<Uint8Array> {
  if (layout === 'whole') return cipher.seal(data);
  if (layout === 'vp8') {
    const clear = vp8Clear(data, key);
    return concat([data.subarray(0, clear), await cipher.seal(data.subarray(clear))]);
  }
  return mapSliceRegions(data, async (region) => escapeRegion(await cipher.seal(region)));
}

/** Opens a frame sealed by sealFrame; undefined when any sealed region does not open. */
export async function openFrame(data: Uint8Array, layout: Layout, key: boolean, cipher: RegionCipher): Promise<Uint8Array | undefined> {
  if (layout === 'whole') return cipher.open(data);
  if (layout === 'vp8') {
    const clear = vp8Clear(data, key);
    const opened = await cipher.open(data.subarray(clear));
    return opened && concat([data.subarray(0, clear), opened]);
  }
  return mapSliceRegions(data, async (region) => {
    const sealed = unescapeRegion(region);
    return sealed && cipher.open(sealed);
  });
}
