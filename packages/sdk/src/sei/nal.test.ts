import { describe, expect, it } from 'vitest';
import {
  addEmulationPrevention, buildSeiNal, extractSei, insertSei, MAX_SEI_PER_FRAME, NotH26xFrame, parseSeiBody,
  removeEmulationPrevention, splitNalUnits,
} from './nal.js';

/** A fake IDR frame: SPS, PPS, IDR slice, with 4-byte start codes. */
const frame = new Uint8Array([0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1f, 0, 0, 0, 1, 0x68, 0xce, 0x3c, 0x80, 0, 0, 0, 1, 0x65, 0x88, 0x84, 0x00, 0x21]);

describe('SEI NAL units', () => {
  it('emulation prevention escapes 00 00 0x (x ≤ 3) and round-trips', () => {
    const raw = new Uint8Array([0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0]);
    const escaped = addEmulationPrevention(raw);
    expect([...escaped]).toEqual([0, 0, 3, 0, 0, 3, 0, 1, 0, 0, 3, 2, 0, 0, 3, 3, 0, 0, 4, 0, 0]);
    expect([...removeEmulationPrevention(escaped)]).toEqual([...raw]);
  });

  it('a built SEI NAL has a start code, the SEI header and never a start code inside', () => {
    const payload = new Uint8Array(300).fill(0);
    const nal = buildSeiNal(payload, 243);
    expect([...nal.subarray(0, 5)]).toEqual([0, 0, 0, 1, 6]);
    // No 00 00 0x (x ≤ 2) after the start code.
    for (let i = 4; i + 2 < nal.length; i++) expect(nal[i] === 0 && nal[i + 1] === 0 && nal[i + 2] <= 2).toBe(false);
    // 243 is one byte; 300 is ff-coded as 255 + 45.
    expect(nal[5]).toBe(243);
    expect([nal[6], nal[7]]).toEqual([255, 45]);
    const [message] = parseSeiBody(nal.subarray(5));
    expect(message.payloadType).toBe(243);
    expect([...message.payload]).toEqual([...payload]);
  });

  it('inserts before the first slice and extracts identical bytes (type 243 and type 5 with UUID)', () => {
    const a = new Uint8Array([1, 2, 3, 0, 0, 0, 1, 0, 0, 3, 255]);
    const uuid = Array.from({ length: 16 }, (_, i) => i);
    const b = new Uint8Array([...uuid, 9, 8, 7]);
    const out = insertSei(frame, [buildSeiNal(a, 243), buildSeiNal(b, 5)]);
    const types = splitNalUnits(out).map((u) => u.type);
    expect(types).toEqual([7, 8, 6, 6, 5]);
    const found = extractSei(out);
    expect(found.map((m) => m.payloadType)).toEqual([243, 5]);
    expect([...found[0].payload]).toEqual([...a]);
    expect([...found[1].payload]).toEqual([...b]);
    // The original NAL units are intact.
    expect(out.subarray(out.length - 9)).toEqual(frame.subarray(frame.length - 9));
  });

  it('inserts at most 9 units per frame', () => {
    const nals = Array.from({ length: 12 }, (_, i) => buildSeiNal(new Uint8Array([i + 1]), 243));
    expect(extractSei(insertSei(frame, nals))).toHaveLength(MAX_SEI_PER_FRAME);
  });

  it("a frame without a 4-byte start code is 'not h26x frame'", () => {
    const vp8 = new Uint8Array([0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a]);
    expect(() => insertSei(vp8, [buildSeiNal(new Uint8Array([1]), 243)])).toThrow(NotH26xFrame);
    expect(() => extractSei(new Uint8Array([0, 0, 1, 0x65]))).toThrow('not h26x frame');
  });

  it('ignores other SEI payload types and a frame without SEI', () => {
    expect(extractSei(frame)).toEqual([]);
    const other = insertSei(frame, [buildSeiNal(new Uint8Array([5, 5]), 1)]);
    expect(extractSei(other)).toEqual([]);
  });

  it('finds a 3-byte start code inside a frame', () => {
    const mixed = new Uint8Array([0, 0, 0, 1, 0x67, 1, 0, 0, 1, 0x65, 2]);
    expect(splitNalUnits(mixed).map((u) => u.type)).toEqual([7, 5]);
  });
});
