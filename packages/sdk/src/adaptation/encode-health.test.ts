import { describe, expect, it } from 'vitest';
import { BAD_HEALTH_SPACING_MS, EncodeHealthRule, encodeSampleOf, type EncodeSample } from './encode-health.js';

const bad: EncodeSample = { fps: 29, targetFps: 30, bitrate: 400_000, targetBitrate: 1_000_000, hardware: true, mimeType: 'video/H264' };

describe('EncodeHealthRule (SPEC §4)', () => {
  it('is bad after more than 3 heartbeats in a row of full frame rate and under half the bitrate', () => {
    const rule = new EncodeHealthRule();
    for (let i = 0; i < 3; i++) expect(rule.check(bad, i * 2000)).toBe(false);
    expect(rule.check(bad, 6000)).toBe(true);
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
