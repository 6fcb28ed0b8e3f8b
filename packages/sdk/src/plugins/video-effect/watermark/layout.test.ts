import { describe, expect, it } from 'vitest';
import { watermarkRect } from './layout.js';

const frame = { width: 640, height: 480 };

describe('watermarkRect (the original\'s placement)', () => {
  it('an explicit {width, height} is used as is, at (x, y)', () => {
    expect(watermarkRect({ width: 200, height: 100 }, frame, 10, 20, { width: 80, height: 40 })).toEqual({ x: 10, y: 20, width: 80, height: 40 });
  });
  it('a number scales the image', () => {
    expect(watermarkRect({ width: 200, height: 100 }, frame, 0, 0, 0.5)).toEqual({ x: 0, y: 0, width: 100, height: 50 });
  });
  it("'contain' fits the whole image in the frame", () => {
    expect(watermarkRect({ width: 200, height: 100 }, frame, 0, 0, 'contain')).toEqual({ x: 0, y: 0, width: 640, height: 320 });
    expect(watermarkRect({ width: 100, height: 200 }, frame, 0, 0, 'contain')).toEqual({ x: 0, y: 0, width: 240, height: 480 });
  });
  it("'cover' (the default) fills the frame with the image's aspect", () => {
    expect(watermarkRect({ width: 200, height: 100 }, frame, 5, 5)).toEqual({ x: 5, y: 5, width: 960, height: 480 });
    expect(watermarkRect({ width: 100, height: 200 }, frame, 0, 0, 'cover')).toEqual({ x: 0, y: 0, width: 640, height: 1280 });
  });
});
