import { describe, expect, it } from 'vitest';
import { BAD_HEALTH_SPACING_MS, EncodeHealthRule, encodeSampleOf, type EncodeSample } from './encode-health.js';

const bad: EncodeSample = { fps: 29, targetFps: 30, bitrate: 400_000, targetBitrate: 1_000_000, hardware: true, mimeType: 'video/H264' };

describe('EncodeHealthRule (docs/behaviour.md §4)', () => {
  it('a publishing encoder under half its bitrate at > 0.9 of its frame rate for more than 3 heartbeats switches to the software encoder (the 4th bad heartbeat raises the event)', () => {
    const rule = new EncodeHealthRule();
    for (let i = 0; i < 3; i++) expect(rule.check(bad, i * 2000)).toBe(false);
    expect(rule.check(bad, 6000)).toBe(true);
    // The count starts again after an event.
    expect(rule.check(bad, 40_000)).toBe(false);
  });

  it('the ratios are strict: a frame rate of exactly 0.9 or a bitrate of exactly half does not count', () => {
    for (const edge of [{ ...bad, fps: 27 }, { ...bad, bitrate: 500_000 }]) {
      const rule = new EncodeHealthRule();
      for (let i = 0; i < 6; i++) expect(rule.check(edge, i * 2000)).toBe(false);
    }
  });

  it('a good heartbeat in the middle starts the count again', () => {
    const rule = new EncodeHealthRule();
    const sequence = [bad, bad, bad, { ...bad, bitrate: 900_000 }, bad, bad, bad];
    expect(sequence.map((sample, i) => rule.check(sample, i * 2000))).toEqual([false, false, false, false, false, false, false]);
    expect(rule.check(bad, 14_000)).toBe(true);
  });

  it('a good heartbeat, a software encoder, another codec or a low frame rate do not count', () => {
    const rule = new EncodeHealthRule();
    const others = [{ ...bad, bitrate: 600_000 }, { ...bad, hardware: false }, { ...bad, mimeType: 'video/VP8' }, { ...bad, fps: 20 }];
    for (const other of others) {
      for (let i = 0; i < 3; i++) rule.check(bad, 0);
      expect(rule.check(other, 0)).toBe(false);
    }
  });

  it('events are at least 30 s apart', () => {
    const rule = new EncodeHealthRule();
    let now = 0;
    const events: number[] = [];
    for (; now < 70_000; now += 2000) if (rule.check(bad, now)) events.push(now);
    expect(events.length).toBeGreaterThan(1);
    for (let i = 1; i < events.length; i++) expect(events[i] - events[i - 1]).toBeGreaterThanOrEqual(BAD_HEALTH_SPACING_MS);
  });
});

describe('encodeSampleOf', () => {
  it('takes the bitrate from the bytes sent between two reads and the codec from its entry', () => {
    const before = [{ type: 'outbound-rtp', kind: 'video', id: 'o', bytesSent: 0, timestamp: 1000 }];
    const now = [{ type: 'outbound-rtp', kind: 'video', id: 'o', bytesSent: 250_000, timestamp: 3000, framesPerSecond: 30, powerEfficientEncoder: true, codecId: 'c' },
      { type: 'codec', id: 'c', timestamp: 3000, mimeType: 'video/H264' }];
    expect(encodeSampleOf(now, before, { fps: 30, bitrate: 2_000_000 })).toEqual({ fps: 30, targetFps: 30, bitrate: 1_000_000, targetBitrate: 2_000_000, hardware: true, mimeType: 'video/H264' });
    expect(encodeSampleOf(now, undefined, { fps: 30, bitrate: 1 })).toBeUndefined();
  });
});
