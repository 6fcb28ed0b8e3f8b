import { describe, expect, it } from 'vitest';
import { validateWatermarkOptions } from './index.js';

const fails = (options: unknown) => {
  try {
    validateWatermarkOptions(options, 'startPlugin');
  } catch (error) {
    return error as { code: number; extraCode: number; message: string; functionName: string };
  }
  throw new Error('accepted');
};

describe('Watermark options (as the original validates them)', () => {
  it('accepts the original\'s shapes', () => {
    for (const size of [undefined, 0.5, 1, 'contain', 'cover', { width: 10, height: 20 }]) {
      expect(() => validateWatermarkOptions({ imageUrl: 'a.png', x: 1, y: 2, size }, 'startPlugin')).not.toThrow();
    }
  });
  it('rejects a missing imageUrl, bad x/y and bad sizes with INVALID_PARAMETER', () => {
    expect(fails(undefined)).toMatchObject({ code: 5000, extraCode: 5002 });
    expect(fails({})).toMatchObject({ code: 5000, extraCode: 5001, functionName: 'startPlugin' });
    expect(fails({ imageUrl: 'a.png', x: '1' })).toMatchObject({ code: 5000, extraCode: 5002 });
    expect(fails({ imageUrl: 'a.png', size: 'fill' }).message).toContain("must be 'contain' or 'cover'");
    expect(fails({ imageUrl: 'a.png', size: 0 })).toMatchObject({ extraCode: 5005 });
    expect(fails({ imageUrl: 'a.png', size: 1.5 })).toMatchObject({ extraCode: 5005 });
    expect(fails({ imageUrl: 'a.png', size: { width: 10 } }).message).toContain('width and height');
    expect(fails({ imageUrl: 'a.png', size: { width: -1, height: 2 } })).toMatchObject({ extraCode: 5005 });
  });
});
