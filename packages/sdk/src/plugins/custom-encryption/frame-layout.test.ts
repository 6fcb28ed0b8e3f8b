import { describe, expect, it } from 'vitest';
import { builtinCipher, CipherOptionsError, customCipher } from './ciphers.js';
import { escapeRegion, layoutOf, openFrame, sealFrame, splitNalUnits, unescapeRegion, type RegionCipher } from './frame-layout.js';

const SPS = [0, 0, 0, 1, 0x67, 0x42, 0xc0, 0x1f, 0xda];
const PPS = [0, 0, 0, 1, 0x68, 0xce, 0x3c, 0x80];
const IDR = [0, 0, 1, 0x65, 0x88, ...Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff)];
const SLICE = [0, 0, 0, 1, 0x41, 0x9a, ...Array.from({ length: 120 }, (_, i) => (i % 5 === 0 ? 0 : i))];
const frameOf = (...units: number[][]) => new Uint8Array(units.flat());

/** A cipher that marks what it seals (XOR 0xff) and puts zeros and start codes in the sealed bytes. */
const xor: RegionCipher = {
  seal: (clear) => new Uint8Array([0, 0, 1, 0, 0, 0, 1, ...clear.map((b) => b ^ 0xff), 0, 0]),
  open: (sealed) => (sealed[0] === 0 && sealed[2] === 1 ? sealed.subarray(7, sealed.length - 2).map((b) => b ^ 0xff) : undefined),
};

describe('frame layout (which bytes stay clear)', () => {
  it('H264: SPS, PPS stay whole; of a slice the start code, NAL header and one byte stay clear; the rest is sealed without start codes', async () => {
    const frame = frameOf(SPS, PPS, IDR, SLICE);
    const sealed = await sealFrame(frame, 'h264', true, xor);
    const units = splitNalUnits(sealed);
    expect(units.map((u) => sealed[u.header] & 0x1f)).toEqual([7, 8, 5, 1]);
    expect([...sealed.subarray(0, SPS.length + PPS.length)]).toEqual([...SPS, ...PPS]);
    const idr = units[2];
    expect([...sealed.subarray(idr.start, idr.header + 2)]).toEqual([0, 0, 1, 0x65, 0x88]);
    expect([...sealed.subarray(idr.header + 2, idr.end)]).not.toEqual(IDR.slice(5));
    const slice = units[3];
    expect([...sealed.subarray(slice.start, slice.header + 2)]).toEqual([0, 0, 0, 1, 0x41, 0x9a]);
    expect(sealed[slice.end - 1]).toBe(0x80);
    expect([...(await openFrame(sealed, 'h264', true, xor)) ?? []]).toEqual([...frame]);
  });

  it('H264: a slice that does not open drops the whole frame', async () => {
    const sealed = await sealFrame(frameOf(SPS, IDR), 'h264', true, xor);
    expect(await openFrame(sealed, 'h264', true, { seal: xor.seal, open: () => undefined })).toBeUndefined();
    // A clear frame given to the decrypting side has no sealed regions' trailer: dropped.
    expect(await openFrame(frameOf(SPS, SLICE), 'h264', false, xor)).toBeUndefined();
  });

  it('escaping leaves no start code and round-trips zeros at the ends', () => {
    for (const data of [[0, 0, 1], [0, 0, 0, 0, 3, 0, 0], [1, 0, 0], [0], [], [0, 0, 2, 0, 0, 3, 0, 0, 0, 1]]) {
      const escaped = escapeRegion(new Uint8Array(data));
      const startCode = escaped.some((b, i) => i >= 2 && b <= 2 && escaped[i - 1] === 0 && escaped[i - 2] === 0);
      expect(startCode).toBe(false);
      expect(escaped[escaped.length - 1]).toBe(0x80);
      expect([...unescapeRegion(escaped) ?? [9]]).toEqual(data);
    }
    expect(unescapeRegion(new Uint8Array([1, 2]))).toBeUndefined();
  });

  it('VP8: 10 bytes of a key frame, 3 of a delta frame stay clear; audio is sealed whole', async () => {
    const vp8 = new Uint8Array(40).map((_, i) => i + 1);
    const key = await sealFrame(vp8, 'vp8', true, xor);
    expect([...key.subarray(0, 10)]).toEqual([...vp8.subarray(0, 10)]);
    const delta = await sealFrame(vp8, 'vp8', false, xor);
    expect([...delta.subarray(0, 3)]).toEqual([1, 2, 3]);
    expect(delta[3]).toBe(0);
    const opus = new Uint8Array([0x78, 1, 2, 3]);
    const sealed = await sealFrame(opus, 'whole', false, xor);
    expect(sealed[0]).not.toBe(0x78);
    expect([...(await openFrame(sealed, 'whole', false, xor)) ?? []]).toEqual([...opus]);
  });

  it('layoutOf: MIME type first, else an Annex B start code; udt3 and audio are whole', () => {
    expect(layoutOf('video', frameOf(SPS), 'video/H264')).toBe('h264');
    expect(layoutOf('video', frameOf(SPS), 'video/VP8')).toBe('vp8');
    expect(layoutOf('video', frameOf(IDR))).toBe('h264');
    expect(layoutOf('video', new Uint8Array([0x50, 0x2, 0, 0x9d]))).toBe('vp8');
    expect(layoutOf('video', frameOf(SPS), undefined, 'udt3')).toBe('whole');
    expect(layoutOf('audio', frameOf(SPS))).toBe('whole');
  });
});

describe('ciphers round trip', () => {
  const clear = new Uint8Array(1000).map((_, i) => (i * 7) & 0xff);
  for (const [algorithm, bytes] of [['AES-GCM', 16], ['AES-GCM', 32], ['AES-128-GCM', 16], ['AES-256-GCM', 32], ['SM4', 16]] as const) {
    it(`${algorithm} with a ${bytes}-byte key: seals with a fresh IV, opens with the key and salt, not with another key or salt`, async () => {
      const key = new Uint8Array(bytes).fill(3);
      const salt = new Uint8Array([1, 2, 3]);
      const cipher = await builtinCipher(algorithm, key, salt);
      const a = await cipher.seal(clear);
      const b = await cipher.seal(clear);
      expect(a.length).toBe(clear.length + 28);
      expect([...a]).not.toEqual([...b]);
      expect([...(await cipher.open(a)) ?? []]).toEqual([...clear]);
      const otherKey = await builtinCipher(algorithm, new Uint8Array(bytes).fill(4), salt);
      expect(await otherKey.open(a)).toBeUndefined();
      const otherSalt = await builtinCipher(algorithm, key, new Uint8Array([9]));
      expect(await otherSalt.open(a)).toBeUndefined();
      a[5] ^= 1;
      expect(await cipher.open(a)).toBeUndefined();
    });
  }

  it('a whole H264 frame round-trips through AES-GCM', async () => {
    const cipher = await builtinCipher('AES-GCM', new Uint8Array(16).fill(1));
    const frame = frameOf(SPS, PPS, IDR, SLICE);
    expect([...(await openFrame(await sealFrame(frame, 'h264', true, cipher), 'h264', true, cipher)) ?? []]).toEqual([...frame]);
  });

  it('refuses a wrong key length or algorithm', async () => {
    await expect(async () => builtinCipher('AES-256-GCM', new Uint8Array(16))).rejects.toThrow(CipherOptionsError);
    await expect(async () => builtinCipher('SM4', new Uint8Array(32))).rejects.toThrow(/16 bytes/);
    await expect(async () => builtinCipher('DES' as 'SM4', new Uint8Array(16))).rejects.toThrow(/algorithm/);
  });

  it('custom cryptors are called with the region; a throwing decryptor drops it', () => {
    const cipher = customCipher({ encryptor: (d) => d.map((b) => b ^ 0x5a), decryptor: (d) => d.map((b) => b ^ 0x5a) });
    const sealed = cipher.seal(clear) as Uint8Array;
    expect(sealed[1]).toBe(clear[1] ^ 0x5a);
    expect([...(cipher.open(sealed) as Uint8Array)]).toEqual([...clear]);
    const failing = customCipher({ encryptor: (d) => d, decryptor: () => { throw new Error('no'); } });
    expect(failing.open(sealed)).toBeUndefined();
  });
});
