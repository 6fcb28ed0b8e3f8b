import { describe, expect, it } from 'vitest';
import { kbps, levelOf, lossPercent, qualityOf, receiveFigures, receivedSlots, rttOf, sendFigures, sortLoudestFirst, volumeOf, type Stat } from './compute.js';

const slots = (mid: string | undefined) => ({ '0': 'audio', '1': 'video', '2': 'small', '3': 'aux' } as Record<string, string>)[mid ?? ''];

describe('statistics computations', () => {
  it('quality from RTT and loss: the worse decides; unknown when unmeasured', () => {
    expect(qualityOf(20, 0)).toBe(1);
    expect(qualityOf(150, 0)).toBe(2);
    expect(qualityOf(20, 5)).toBe(3);
    expect(qualityOf(600, 2)).toBe(4);
    expect(qualityOf(20, 40)).toBe(5);
    expect(qualityOf(0, 0, false)).toBe(0);
  });

  it('rtt from the selected candidate pair, else remote-inbound-rtp, at least 1 ms and at most 10 s', () => {
    expect(rttOf([{ type: 'transport', id: 't', selectedCandidatePairId: 'p' }, { type: 'candidate-pair', id: 'p', currentRoundTripTime: 0.0004 }])).toBe(1);
    expect(rttOf([{ type: 'remote-inbound-rtp', id: 'r', roundTripTime: 0.08 }])).toBe(80);
    expect(rttOf([{ type: 'candidate-pair', id: 'p', nominated: true, currentRoundTripTime: 30 }])).toBe(10_000);
    expect(rttOf([])).toBe(0);
  });

  it('bitrate, loss, level and volume', () => {
    expect(kbps(250_000, 0, 2000)).toBe(1000);
    expect(kbps(1, 2, 1000)).toBe(0);
    expect(lossPercent(10, 0, 90, 0)).toBe(10);
    expect(lossPercent(0, 0, 0, 0)).toBe(0);
    expect(levelOf({ type: 'x', id: 'a', totalAudioEnergy: 0.25, totalSamplesDuration: 1 }, { type: 'x', id: 'a', totalAudioEnergy: 0, totalSamplesDuration: 0 })).toBeCloseTo(0.5);
    expect(levelOf({ type: 'x', id: 'a', audioLevel: 0.3 }, undefined)).toBeCloseTo(0.3);
    expect(volumeOf(0.456)).toBe(46);
    expect(sortLoudestFirst([{ volume: 1, floatVolume: 0.01 }, { volume: 50, floatVolume: 0.5 }]).map((v) => v.volume)).toEqual([50, 1]);
  });

  it('send figures per slot with videoType big/small/sub and uplink loss', () => {
    const before: Stat[] = [
      { type: 'outbound-rtp', id: 'v', kind: 'video', mid: '1', timestamp: 0, bytesSent: 0, packetsSent: 0 },
      { type: 'outbound-rtp', id: 's', kind: 'video', mid: '2', timestamp: 0, bytesSent: 0, packetsSent: 0 },
      { type: 'outbound-rtp', id: 'a', kind: 'audio', mid: '0', timestamp: 0, bytesSent: 0, packetsSent: 0 },
      { type: 'remote-inbound-rtp', id: 'rv', packetsLost: 0 },
    ];
    const now: Stat[] = [
      { type: 'outbound-rtp', id: 'v', kind: 'video', mid: '1', timestamp: 2000, bytesSent: 250_000, packetsSent: 100, frameWidth: 640, frameHeight: 480, framesPerSecond: 15 },
      { type: 'outbound-rtp', id: 's', kind: 'video', mid: '2', timestamp: 2000, bytesSent: 25_000, packetsSent: 50, frameWidth: 160, frameHeight: 120, framesPerSecond: 15 },
      { type: 'outbound-rtp', id: 'a', kind: 'audio', mid: '0', timestamp: 2000, bytesSent: 10_000, packetsSent: 50, mediaSourceId: 'm' },
      { type: 'media-source', id: 'm', kind: 'audio', audioLevel: 0.2 },
      { type: 'remote-inbound-rtp', id: 'rv', packetsLost: 10, roundTripTime: 0.05 },
    ];
    const f = sendFigures(now, before, slots);
    expect(f.bytes).toBe(285_000);
    expect(f.rtt).toBe(50);
    expect(f.loss).toBe(5);
    expect(f.audio.bitrate).toBe(40);
    expect(f.video).toEqual([
      { width: 640, height: 480, frameRate: 15, bitrate: 1000, videoType: 'big' },
      { width: 160, height: 120, frameRate: 15, bitrate: 100, videoType: 'small' },
    ]);
  });

  it('receive figures with downlink loss', () => {
    const before: Stat[] = [{ type: 'inbound-rtp', id: 'v', kind: 'video', mid: '3', timestamp: 0, bytesReceived: 0, packetsReceived: 0, packetsLost: 0, jitterBufferDelay: 1, jitterBufferEmittedCount: 10 }];
    const now: Stat[] = [{ type: 'inbound-rtp', id: 'v', kind: 'video', mid: '3', timestamp: 1000, bytesReceived: 12_500, packetsReceived: 99, packetsLost: 1, frameWidth: 1920, frameHeight: 1080, framesPerSecond: 5, jitterBufferDelay: 1.6, jitterBufferEmittedCount: 15 }];
    const f = receiveFigures(now, before, slots);
    expect(f.loss).toBe(1);
    // jitterBufferDelay: 0.6 s over 5 frames = 120 ms each.
    expect(f.video).toEqual([{ width: 1920, height: 1080, frameRate: 5, bitrate: 100, videoType: 'sub', jitterBufferDelay: 120 }]);
    expect(f.measured).toBe(true);
  });

  it("a received main video is 'small' while the small stream is subscribed, else 'big'; sub stays 'sub'", () => {
    const downlink = (mid: string | undefined) => ({ a: 'audio', v: 'video', x: 'aux' } as Record<string, string>)[mid ?? ''];
    const now: Stat[] = [
      { type: 'inbound-rtp', id: 'v', kind: 'video', mid: 'v', timestamp: 1000, bytesReceived: 1, packetsReceived: 1, frameWidth: 160, frameHeight: 120, framesPerSecond: 15 },
      { type: 'inbound-rtp', id: 'x', kind: 'video', mid: 'x', timestamp: 1000, bytesReceived: 1, packetsReceived: 1, frameWidth: 1280, frameHeight: 720, framesPerSecond: 5 },
    ];
    const types = (small: boolean) => receiveFigures(now, [], receivedSlots(downlink, small)).video.map((v) => v.videoType);
    expect(types(true)).toEqual(['small', 'sub']);
    expect(types(false)).toEqual(['big', 'sub']);
    expect(receivedSlots(downlink, true)('a')).toBe('audio');
  });
});
