import { describe, expect, it } from 'vitest';
import { FrameGate, nextLevel } from './downgrade.js';

const frames = (gate: FrameGate, level: number, pattern: string) => [...pattern].map((c) => (gate.admit(c === 'K', level) ? '1' : '0')).join('');

describe('decoder downgrade levels', () => {
  it('rises when decoding takes longer than the frame interval or frames queue, falls when relaxed, within [floor, 4]', () => {
    expect(nextLevel(0, { decodeMs: 40, frameIntervalMs: 33, queue: 0 })).toBe(1);
    expect(nextLevel(1, { decodeMs: 10, frameIntervalMs: 33, queue: 5 })).toBe(2);
    expect(nextLevel(4, { decodeMs: 100, frameIntervalMs: 33, queue: 0 })).toBe(4);
    expect(nextLevel(2, { decodeMs: 5, frameIntervalMs: 33, queue: 0 })).toBe(1);
    expect(nextLevel(2, { decodeMs: 20, frameIntervalMs: 33, queue: 0 })).toBe(2);
    expect(nextLevel(0, { decodeMs: 5, frameIntervalMs: 33, queue: 0 })).toBe(0);
    // Nothing decoded (level 4): probe one step down.
    expect(nextLevel(4, { decodeMs: undefined, frameIntervalMs: 33, queue: 0 })).toBe(3);
    // A pressure floor holds the level up.
    expect(nextLevel(1, { decodeMs: 5, frameIntervalMs: 33, queue: 0 }, 2)).toBe(2);
  });

  it('level 0–1 decode everything, 2 drops beyond half the GOP, 3 keeps key frames, 4 drops all', () => {
    const gop = 'KDDDDDDD';
    const learn = (gate: FrameGate) => frames(gate, 0, gop); // learns a GOP of 8
    const at = (level: number) => {
      const gate = new FrameGate();
      learn(gate);
      return frames(gate, level, gop + gop);
    };
    expect(at(0)).toBe('1111111111111111');
    expect(at(1)).toBe('1111111111111111');
    expect(at(2)).toBe('1111000011110000');
    expect(at(3)).toBe('1000000010000000');
    expect(at(4)).toBe('0000000000000000');
    expect([0, 1, 2, 3].map((i) => FrameGate.draw(1, i))).toEqual([true, false, true, false]);
    expect(FrameGate.draw(0, 1)).toBe(true);
  });
});
