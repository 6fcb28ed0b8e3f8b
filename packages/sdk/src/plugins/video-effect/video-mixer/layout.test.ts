import { describe, expect, it } from 'vitest';
import { fillTransform, layerRect, parseColor, validateMixerOptions } from './layout.js';

const container = { width: 640, height: 480 };

describe('VideoMixer layout', () => {
  it('given fields win; the screen defaults to the container, the camera over a screen to a bottom-right quarter', () => {
    expect(layerRect({ x: 10, y: 20, width: 100, height: 50 }, container, true)).toEqual({ x: 10, y: 20, width: 100, height: 50 });
    expect(layerRect(undefined, container, false)).toEqual({ x: 0, y: 0, width: 640, height: 480 });
    expect(layerRect(undefined, container, true)).toEqual({ x: 480, y: 360, width: 160, height: 120 });
  });
  it('fill modes map the layer uv to the source: cover crops, contain letterboxes, fill stretches', () => {
    expect(fillTransform({ width: 1280, height: 720 }, { width: 320, height: 320 }, 'fill')).toEqual([1, 1, 0, 0]);
    const [sx, sy, ox, oy] = fillTransform({ width: 1280, height: 720 }, { width: 320, height: 320 }, 'cover');
    expect([sx, sy, ox, oy].map((v) => +v.toFixed(4))).toEqual([0.5625, 1, 0.2188, 0]);
    const contain = fillTransform({ width: 1280, height: 720 }, { width: 320, height: 320 }, 'contain');
    // uv.y 0.21875 … 0.78125 of the rect shows source rows 0 … 1
    expect(0.21875 * contain[1] + contain[3]).toBeCloseTo(0);
    expect(0.78125 * contain[1] + contain[3]).toBeCloseTo(1);
  });
  it('validates like the original: container required at start, sizes at least 1', () => {
    expect(() => validateMixerOptions({ camera: {} }, true, 'startPlugin')).toThrow(/container is required/);
    expect(() => validateMixerOptions({ container: { width: 0, height: 10 } }, true, 'startPlugin')).toThrow(/at least 1/);
    expect(() => validateMixerOptions({ camera: { width: 0 } }, false, 'updatePlugin')).toThrow(/at least 1/);
    expect(() => validateMixerOptions({ images: [{}] }, false, 'updatePlugin')).toThrow(/needs a url/);
    expect(() => validateMixerOptions({ screen: { fillMode: 'stretch' } }, false, 'updatePlugin')).toThrow(/fillMode/);
    expect(validateMixerOptions({ container: { width: 640, height: 480 }, camera: { x: 1, zOrder: 3, mirror: true } }, true, 'startPlugin').camera).toEqual({ x: 1, zOrder: 3, mirror: true });
  });
  it('parses background colours', () => {
    expect(parseColor('#ff0000')).toEqual([1, 0, 0, 1]);
    expect(parseColor('#0f0')).toEqual([0, 1, 0, 1]);
    expect(parseColor(undefined)).toEqual([0, 0, 0, 1]);
  });
});
