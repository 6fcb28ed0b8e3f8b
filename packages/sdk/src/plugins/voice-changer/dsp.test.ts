import { describe, expect, it } from 'vitest';
import { VoiceDsp } from './dsp.js';
import { VOICES, voiceParams } from './voices.js';

const RATE = 48_000;

/** A 220 Hz sine through the DSP (1 s, in 128-sample blocks, as a worklet runs it); returns the last half. */
function render(voiceType: number, pitch?: number): Float32Array {
  const dsp = new VoiceDsp(RATE, voiceParams(voiceType, pitch));
  const out = new Float32Array(RATE);
  for (let start = 0; start < RATE; start += 128) {
    const block = new Float32Array(128);
    for (let i = 0; i < 128; i++) block[i] = 0.5 * Math.sin((2 * Math.PI * 220 * (start + i)) / RATE);
    dsp.process(block);
    out.set(block, start);
  }
  return out.subarray(RATE / 2);
}

/** The strongest frequency 80–1000 Hz (a DFT at 1 Hz steps). */
function peakHz(signal: Float32Array): number {
  let best = 0;
  let bestPower = -1;
  for (let f = 80; f <= 1000; f += 1) {
    let re = 0;
    let im = 0;
    for (let i = 0; i < signal.length; i += 2) {
      const a = (2 * Math.PI * f * i) / RATE;
      re += signal[i] * Math.cos(a);
      im += signal[i] * Math.sin(a);
    }
    const power = re * re + im * im;
    if (power > bestPower) {
      bestPower = power;
      best = f;
    }
  }
  return best;
}

describe('VoiceDsp', () => {
  it('voiceType 0 leaves the voice alone', () => {
    expect(peakHz(render(0))).toBe(220);
  });

  it.each([1, 2, 3, 8, 12])('voiceType %i shifts 220 Hz by its pitch ratio (within 4 %, under a semitone)', (voiceType) => {
    const expected = 220 * VOICES[voiceType].ratio;
    expect(Math.abs(peakHz(render(voiceType)) - expected)).toBeLessThanOrEqual(expected * 0.04);
  });

  it('the app\'s pitch adds to the voice type\'s ratio', () => {
    expect(Math.abs(peakHz(render(0, 0.5)) - 275)).toBeLessThanOrEqual(6);
  });

  it('every voice type gives finite, bounded output', () => {
    for (const voiceType of Object.keys(VOICES).map(Number)) {
      const out = render(voiceType);
      expect(out.every((v) => Number.isFinite(v) && Math.abs(v) <= 2), `voiceType ${voiceType}`).toBe(true);
      expect(out.some((v) => Math.abs(v) > 0.01), `voiceType ${voiceType} not silent`).toBe(true);
    }
  });
});
