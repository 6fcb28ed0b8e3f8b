import { describe, expect, it } from 'vitest';
import { ease, WHOLE_FRAME, windowFor } from './face-centering.js';

describe('face centering window', () => {
  it('centres the face, zoomed to its size within 1.25–2×, kept inside the frame', () => {
    expect(windowFor({ xCenter: 0.5, yCenter: 0.5, width: 0.2, height: 0.3 })).toEqual({ x: 0.5, y: 0.5, size: 1 / 1.5 });
    const corner = windowFor({ xCenter: 0.1, yCenter: 0.9, width: 0.1, height: 0.1 });
    expect(corner.size).toBe(0.5);
    expect([corner.x, corner.y]).toEqual([0.25, 0.75]);
    expect(windowFor({ xCenter: 0.5, yCenter: 0.5, width: 0.8, height: 0.9 }).size).toBe(0.8);
  });
  it('eases toward the target frame by frame', () => {
    let w = WHOLE_FRAME;
    const target = { x: 0.3, y: 0.4, size: 0.5 };
    w = ease(w, target);
    expect(w.x).toBeCloseTo(0.47);
    for (let i = 0; i < 60; i++) w = ease(w, target);
    expect(w.x).toBeCloseTo(0.3, 3);
    expect(w.size).toBeCloseTo(0.5, 3);
  });
});
