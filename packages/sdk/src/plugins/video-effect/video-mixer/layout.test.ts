import { describe, expect, it } from 'vitest';
import { fillTransform, layerRect, parseColor, rotationUv, uprightSize, validateMixerOptions, type LayerRotation } from './layout.js';

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
  it('rotation geometry: a clockwise turn sends the picture\'s corners where the original puts them, and quarter turns fit the turned source', () => {
    /** The picture point shown at rect point (u, v) for a rotation. */
    const shown = (rotation: LayerRotation, u: number, v: number) => {
      const [a, b, c, d, tx, ty] = rotationUv(rotation);
      return [a * u + b * v + tx, c * u + d * v + ty].map((n) => n + 0);
    };
    // Corners of the rect: top-left, top-right, bottom-right, bottom-left.
    const corners = (rotation: LayerRotation) => [[0, 0], [1, 0], [1, 1], [0, 1]].map(([u, v]) => shown(rotation, u, v));
    expect(corners(0)).toEqual([[0, 0], [1, 0], [1, 1], [0, 1]]);
    // 90° clockwise: the picture's top-left is at the rect's top-right, its left edge along the rect's top.
    expect(corners(90)).toEqual([[0, 1], [0, 0], [1, 0], [1, 1]]);
    expect(corners(180)).toEqual([[1, 1], [0, 1], [0, 0], [1, 0]]);
    expect(corners(270)).toEqual([[1, 0], [1, 1], [0, 1], [0, 0]]);
    // A picture whose left half is red and right half blue, turned 90°: red along the top, blue along the bottom.
    expect(shown(90, 0.5, 0.1)[0]).toBeLessThan(0.5);
    expect(shown(90, 0.5, 0.9)[0]).toBeGreaterThan(0.5);
    expect(uprightSize({ width: 320, height: 180 }, 90)).toEqual({ width: 180, height: 320 });
    expect(uprightSize({ width: 320, height: 180 }, 180)).toEqual({ width: 320, height: 180 });
    // A 16:9 picture turned 90° into a 9:16 rect fills it exactly in cover (nothing cropped).
    expect(fillTransform({ width: 1280, height: 720 }, uprightSize({ width: 180, height: 320 }, 270), 'cover')).toEqual([1, 1, 0, 0]);
    expect(() => validateMixerOptions({ camera: { rotation: 45 } }, false, 'updatePlugin')).toThrow(/rotation must be 0, 90, 180 or 270/);
    expect(validateMixerOptions({ texts: [{ content: 'a', rotation: 270 }] }, false, 'updatePlugin').texts?.[0].rotation).toBe(270);
  });
  it('parses background colours', () => {
    expect(parseColor('#ff0000')).toEqual([1, 0, 0, 1]);
    expect(parseColor('#0f0')).toEqual([0, 1, 0, 1]);
    expect(parseColor(undefined)).toEqual([0, 0, 0, 1]);
  });
});
