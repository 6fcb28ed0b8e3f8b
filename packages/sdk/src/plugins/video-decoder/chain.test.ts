import { describe, expect, it } from 'vitest';
import { CHAIN, DecoderLifecycle, FAILURE, firstStage, MAX_RETRIES, stageOf } from './chain.js';

describe('decoder fallback chain', () => {
  it('walks WebCodecs → wasm + webgl → wasm + video frame and stays on the last stage', () => {
    const walk = Array.from({ length: MAX_RETRIES + 1 }, (_, attempt) => stageOf(firstStage('auto'), attempt));
    expect(walk).toEqual([CHAIN[0], CHAIN[1], CHAIN[2], CHAIN[2], CHAIN[2], CHAIN[2]]);
    expect(stageOf(firstStage('wasm'), 0)).toEqual({ decoder: 'wasm', renderer: 'webgl' });
    expect(stageOf(firstStage('wasm', 'videoFrame'), 0)).toEqual({ decoder: 'wasm', renderer: 'videoFrame' });
    expect(stageOf(firstStage('webCodecs'), 0)).toEqual({ decoder: 'webCodecs', renderer: 'videoFrame' });
  });

  it('goes INITIALIZED → STARTING → STARTED, retries 5 times, then FAILED with the codes in order', () => {
    const life = new DecoderLifecycle();
    expect(life.state).toBe('INITIALIZED');
    expect(life.start()).toBe('INITIALIZED');
    expect(life.started()).toBe('STARTING');
    const codes = [FAILURE.WEBCODECS_DECODE, FAILURE.WASM_CREATE, FAILURE.WASM_DECODE, FAILURE.CONTEXT_UNAVAILABLE, FAILURE.RENDER];
    for (const code of codes) {
      expect(life.fail(code)).toBe(true);
      expect(life.state).toBe('STARTING');
    }
    expect(life.retries).toBe(5);
    expect(life.fail(FAILURE.WASM_DECODE)).toBe(false);
    expect(life.state).toBe('FAILED');
    expect(life.failures).toEqual([4, 6, 8, 7, 11, 8]);
    expect(() => life.start()).toThrow(/FAILED → STARTING/);
  });

  it('uses docs/behaviour.md §8 failure codes', () => {
    expect(FAILURE).toEqual({ WEBCODECS_CREATE: 2, UNSUPPORTED_CONFIG: 3, WEBCODECS_DECODE: 4, WASM_CREATE: 6, CONTEXT_UNAVAILABLE: 7, WASM_DECODE: 8, RENDER: 11 });
  });
});
