import { describe, expect, it } from 'vitest';
import { RtcError, type RtcErrorInit } from '../../errors/rtc-error.js';
import { validateMixerOptions } from './options.js';

const errors = (init: { code: number; extraCode?: number; message: string; functionName?: string }) => new RtcError(init as RtcErrorInit);
const check = (options: unknown, op: 'start' | 'update' | 'stop' = 'start') => () => validateMixerOptions(options, op, errors);

describe('AudioMixer options (docs/behaviour.md §5)', () => {
  it('accepts the four formats, blob and data URLs, with a query string', () => {
    for (const url of ['a.mp3', 'b.ogg?x=1', 'https://h/c.wav', 'd.FLAC', 'blob:http://h/1', 'data:audio/mpeg;base64,AA==']) expect(check({ id: 'x', url })).not.toThrow();
  });

  it('refuses other urls, a missing url/track, a missing id and non-function callbacks, with the original\'s messages', () => {
    expect(check({ id: 'x', url: 'song.txt' })).toThrow('start audioMixer plugin: music url is invalid, please check your file format.');
    expect(check({ id: 'x' })).toThrow('start audioMixer plugin: param url or track is required.');
    expect(check({ url: 'a.mp3' })).toThrow(/param id is required/);
    expect(check({ id: 'x', url: 'a.mp3', onEnded: 'no' })).toThrow('start audioMixer plugin: param onEnded should be a function.');
    expect(check({ id: 'x', operation: 'rewind' }, 'update')).toThrow(/operation should be one of pause, resume, stop/);
    expect(check({ id: 'x', volume: -1 }, 'update')).toThrow(/volume should be a number/);
    expect(check({}, 'stop')).toThrow(/param id is required/);
    try {
      check({ id: 'x', url: 'song.txt' })();
    } catch (error) {
      expect(error).toBeInstanceOf(RtcError);
      expect((error as RtcError).code).toBe(5000);
    }
  });
});
