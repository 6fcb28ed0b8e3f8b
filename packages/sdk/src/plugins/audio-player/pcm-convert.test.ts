import { describe, expect, it } from 'vitest';
import { downmix, PLAY_RATE, StreamResampler, toFloat } from './pcm-convert.js';

const sine = (hz: number, rate: number, from: number, count: number) => Float32Array.from({ length: count }, (_, i) => Math.sin(2 * Math.PI * hz * (from + i) / rate));

describe('40 AudioPlayer PCM conversion', () => {
  it('40 AudioPlayer: 16 kHz input fed in 100 ms chunks becomes 3× as many 48 kHz samples of the same sine, with no jump at chunk edges', () => {
    const resampler = new StreamResampler();
    const out: number[] = [];
    for (let c = 0; c < 10; c++) out.push(...resampler.push(sine(600, 16000, c * 1600, 1600), 16000));
    expect(Math.abs(out.length - 16000 * 3)).toBeLessThanOrEqual(3);
    // Each output sample is the sine at its own time (linear interpolation of a 600 Hz sine at 16 kHz: within 3 %).
    const worst = out.reduce((max, v, i) => Math.max(max, Math.abs(v - Math.sin(2 * Math.PI * 600 * i / PLAY_RATE))), 0);
    expect(worst).toBeLessThan(0.03);
  });

  it('40 AudioPlayer: 48 kHz input passes unchanged; Int16 is scaled to [-1, 1); interleaved stereo is mixed down', () => {
    const chunk = sine(440, 48000, 0, 480);
    expect(new StreamResampler().push(chunk, 48000)).toBe(chunk);
    expect([...toFloat(Int16Array.from([0, 16384, -32768]))]).toEqual([0, 0.5, -1]);
    expect([...downmix(Float32Array.from([1, 0, 0.5, 0.5, 1]), 2)]).toEqual([0.5, 0.5]);
  });
});
