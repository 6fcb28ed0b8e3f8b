import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from './base64url.js';

describe('base64 helpers', () => {
  it('match Buffer for every length and byte value', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n * 11) & 0xff);
      const std = Buffer.from(bytes).toString('base64');
      expect(encodeBase64(bytes)).toBe(std);
      expect(encodeBase64Url(bytes)).toBe(std.replace(/\+/g, '*').replace(/\//g, '-').replace(/=/g, '_'));
      expect(decodeBase64(std)).toEqual(bytes);
      expect(decodeBase64Url(encodeBase64Url(bytes))).toEqual(bytes);
      expect(decodeBase64(std.replace(/=+$/, ''))).toEqual(bytes);
    }
    const big = Uint8Array.from({ length: 100_000 }, (_, i) => i & 0xff);
    expect(encodeBase64(big)).toBe(Buffer.from(big).toString('base64'));
  });

  it('reject characters outside the alphabet and impossible lengths', () => {
    for (const bad of ['ab cd', 'ab\ncd', 'a', 'abcde', 'ab==cd', 'ab===', '-_*']) {
      expect(() => decodeBase64(bad), bad).toThrow(/not valid base64/);
    }
    expect(() => decodeBase64Url('ab.c')).toThrow(/not valid base64/);
  });
});

describe('portability', () => {
  it('library sources import nothing from node:', () => {
    const dir = new URL('.', import.meta.url);
    const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    expect(sources.length).toBeGreaterThan(5);
    for (const f of sources) {
      expect(readFileSync(new URL(f, dir), 'utf8'), f).not.toMatch(/from ['"]node:|require\(/);
    }
  });
});
