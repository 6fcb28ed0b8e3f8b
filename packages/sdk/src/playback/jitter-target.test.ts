import { describe, expect, it } from 'vitest';
import { applyJitterTarget, jitterTargets } from './jitter-target.js';

describe('jitterBufferDelay / playoutDelay → the receivers\' jitterBufferTarget', () => {
  it('jitterBufferDelay (ms, or {main, aux}) wins over playoutDelay.min; values are clamped to 0..4000', () => {
    expect(jitterTargets({ jitterBufferDelay: 300, playoutDelay: { min: 100, max: 500 } })).toEqual({ main: 300, aux: 300 });
    expect(jitterTargets({ jitterBufferDelay: { main: 200, aux: 9000 } })).toEqual({ main: 200, aux: 4000 });
    expect(jitterTargets({ playoutDelay: { min: 150, max: 500 } })).toEqual({ main: 150, aux: 150 });
    expect(jitterTargets({})).toEqual({});
    expect(jitterTargets(undefined)).toEqual({});
  });

  it('sets the target of audio and main video from main, of the screen from aux; not where the browser lacks it', () => {
    const receiver = () => ({ jitterBufferTarget: null as number | null }) as unknown as RTCRtpReceiver & { jitterBufferTarget: number | null };
    const audio = receiver();
    const aux = receiver();
    applyJitterTarget(audio, 'audio', { main: 250, aux: 50 });
    applyJitterTarget(aux, 'aux', { main: 250, aux: 50 });
    expect([audio.jitterBufferTarget, aux.jitterBufferTarget]).toEqual([250, 50]);
    const old = {} as RTCRtpReceiver;
    applyJitterTarget(old, 'video', { main: 250 });
    expect('jitterBufferTarget' in old).toBe(false);
  });
});
