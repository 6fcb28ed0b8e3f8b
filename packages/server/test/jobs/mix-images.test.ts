import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIX_IMAGE_LIMITS } from '@conclave/protocol';
import { cdnStartData } from '@conclave/protocol/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { imageInfo } from '../../src/jobs/image-info.js';
import { isMixImageName, MixImageError, MixImages } from '../../src/jobs/mix-images.js';

/** The header of a PNG of `w`×`h` (signature + IHDR): all imageInfo reads. */
function png(w: number, h: number): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(w, 16);
  b.writeUInt32BE(h, 20);
  return b;
}

/** A JPEG header: SOI, an APP0 segment, then a baseline SOF0 of `w`×`h`. */
function jpeg(w: number, h: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, h >> 8, h & 0xff, w >> 8, w & 0xff, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

describe('mix background image names', () => {
  it('accepts letters, digits, hyphens and underscores, 1 to 64', () => {
    for (const name of ['stage', 'Stage_2', 'a-b', '1', 'x'.repeat(64)]) expect(isMixImageName(name), name).toBe(true);
  });

  it('refuses path separators, dots, empty, too long and anything else', () => {
    for (const name of ['', '..', '../x', 'a/b', 'a\\b', 'bg.png', '.hidden', 'x'.repeat(65), 'a b', 'é', '%2e%2e', 'a\0b']) {
      expect(isMixImageName(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('the cdn-start schema refuses the same names (a bad mix parameter, before any file is looked at)', () => {
    const data = (backgroundImage: string) => ({ publishMode: 'PublishMixStreamToCDN', mix: { backgroundImage, videoLayoutList: [] } });
    expect(cdnStartData.safeParse(data('stage')).success).toBe(true);
    expect(cdnStartData.safeParse(data('../../etc/passwd')).success).toBe(false);
    expect(cdnStartData.safeParse(data('bg.png')).success).toBe(false);
  });
});

describe('image type and size from the bytes', () => {
  it('reads PNG and JPEG headers', () => {
    expect(imageInfo(png(64, 36))).toEqual({ type: 'png', width: 64, height: 36 });
    expect(imageInfo(jpeg(1280, 720))).toEqual({ type: 'jpeg', width: 1280, height: 720 });
  });

  it('refuses other files and truncated headers', () => {
    expect(imageInfo(Buffer.from('GIF89a........'))).toBeUndefined();
    expect(imageInfo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(imageInfo(png(64, 36).subarray(0, 20))).toBeUndefined();
    expect(imageInfo(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2]))).toBeUndefined(); // image data before any frame header
    expect(imageInfo(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('mix image store', () => {
  let root: string;
  let store: MixImages;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'conclave-mix-images-'));
    store = new MixImages(root);
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores, lists, resolves and deletes an app\'s images', () => {
    expect(store.put(1, 'stage', png(64, 36))).toMatchObject({ name: 'stage', type: 'png', width: 64, height: 36, bytes: 33 });
    store.put(1, 'logo', jpeg(100, 50));
    expect(store.list(1).map((i) => [i.name, i.type])).toEqual([['logo', 'jpeg'], ['stage', 'png']]);
    expect(store.path(1, 'stage')).toBe(join(root, '1', 'stage.png'));
    expect(store.path(1, 'logo')).toBe(join(root, '1', 'logo.jpg'));
    expect(store.delete(1, 'stage')).toBe(true);
    expect(store.delete(1, 'stage')).toBe(false);
    expect(store.path(1, 'stage')).toBeUndefined();
  });

  it('replacing an image with another type leaves one file of that name', () => {
    store.put(1, 'stage', png(64, 36));
    store.put(1, 'stage', jpeg(10, 10));
    expect(readdirSync(join(root, '1'))).toEqual(['stage.jpg']);
    expect(store.list(1)).toHaveLength(1);
  });

  it('one app cannot resolve, list or delete another app\'s image', () => {
    store.put(1, 'stage', png(64, 36));
    expect(store.path(2, 'stage')).toBeUndefined();
    expect(store.list(2)).toEqual([]);
    expect(store.delete(2, 'stage')).toBe(false);
    expect(store.path(1, 'stage')).toBeDefined();
  });

  it('bad names never reach the file system, even when such a file exists', () => {
    writeFileSync(join(root, 'secret.png'), png(1, 1));
    for (const name of ['../secret', '..', 'a/../../secret']) {
      expect(store.path(1, name)).toBeUndefined();
      expect(() => store.put(1, name, png(1, 1))).toThrow(MixImageError);
      expect(store.delete(1, name)).toBe(false);
    }
  });

  it('refuses what is not a PNG or JPEG, too large a file, too large a picture, and more than the images allowed', () => {
    expect(() => store.put(1, 'x', Buffer.from('not an image'))).toThrow(/not a PNG or JPEG/);
    expect(() => store.put(1, 'x', Buffer.concat([png(10, 10), Buffer.alloc(MIX_IMAGE_LIMITS.MAX_BYTES)]))).toThrow(/exceeds/);
    expect(() => store.put(1, 'x', png(MIX_IMAGE_LIMITS.MAX_SIDE + 1, 10))).toThrow(/each side/);
    expect(() => store.put(1, 'x', png(0, 10))).toThrow(/each side/);
    for (let i = 0; i < MIX_IMAGE_LIMITS.MAX_PER_APP; i++) store.put(1, `i${i}`, png(1, 1));
    let refused: unknown;
    try {
      store.put(1, 'one-more', png(1, 1));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(MixImageError);
    expect((refused as MixImageError).limit).toBe(true);
    // Replacing an existing one is still allowed at the limit.
    expect(store.put(1, 'i0', png(2, 2))).toMatchObject({ width: 2 });
    expect(readdirSync(join(root, '1')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
