import { describe, expect, it } from 'vitest';
import { snapCanvasFps } from './canvas-fps.js';

describe('canvas player frame rate (docs/behaviour.md §9)', () => {
  it('snaps the source frame rate up to 15, 30, 45 or 60', () => {
    expect([0, 7, 15, 15.4, 16, 24, 30, 31, 45, 50, 60, 90].map(snapCanvasFps)).toEqual([15, 15, 15, 15, 30, 30, 30, 45, 45, 60, 60, 60]);
  });
});
