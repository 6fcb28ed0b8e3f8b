import { describe, expect, it } from 'vitest';
import { RtcError, type RtcErrorInit } from '../../errors/rtc-error.js';
import { isAudioUrl, validateAudioPlayerOptions } from './options.js';

const errors = (init: { code: number; extraCode?: number; message: string; functionName?: string }) => new RtcError(init as RtcErrorInit);
const check = (options: unknown, op: 'start' | 'update' | 'stop' = 'start') => () => validateAudioPlayerOptions(options, op, errors);
const extraCodeOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return (error as RtcError).extraCode;
  }
  return undefined;
};

describe('40 AudioPlayer options (the original\'s rule table)', () => {
  it('40 AudioPlayer: accepts each source type with its fields, and the formats the original accepts', () => {
    expect(check({ id: 'a', sourceType: 'pcm', realtime: { maxDelay: 200, discardAll: true }, publish: true })).not.toThrow();
    expect(check({ id: 'a', sourceType: 'url', url: 'https://h/a.mp3?x=1', loop: true, volume: 0.5, playbackRate: 1.5 })).not.toThrow();
    expect(check({ id: 'a', seekFrom: 2, operation: 'pause', realtime: false }, 'update')).not.toThrow();
    expect(check({ id: '*' }, 'stop')).not.toThrow();
    for (const url of ['a.MP3', 'b.ogg', 'c.wav', 'd.flac', 'blob:http://h/1', 'data:audio/wav;base64,AA==']) expect(isAudioUrl(url), url).toBe(true);
    expect(isAudioUrl('song.aac')).toBe(false);
  });

  it('40 AudioPlayer: refuses with the original\'s messages and extra codes', () => {
    expect(check(undefined)).toThrow("'options' is a required param when calling startPlugin(), received: undefined.");
    expect(check({ sourceType: 'pcm' })).toThrow("'id' is a required param when calling startPlugin(), received: undefined.");
    expect(extraCodeOf(check({ sourceType: 'pcm' }))).toBe(5001);
    expect(check({ id: 'a', sourceType: 'mp3' })).toThrow("'sourceType' must be one of pcm|url|track when calling startPlugin(), received: mp3.");
    expect(extraCodeOf(check({ id: 'a', sourceType: 'mp3' }))).toBe(5005);
    expect(check({ id: 'a', sourceType: 'pcm', realtime: { maxDelay: '1' } })).toThrow("'maxDelay' must be type of number when calling startPlugin(), received type: string.");
    expect(check({ id: 'a', sourceType: 'pcm', onEnded: 1 })).toThrow("'onEnded' must be type of function");
    expect(check({ id: 'a', sourceType: 'url' })).toThrow("startPlugin: url is required when sourceType is 'url'.");
    expect(check({ id: 'a', sourceType: 'url', url: 'a.txt' })).toThrow('startPlugin: audio url is invalid, supported formats: mp3, ogg, wav, flac, blob, data.');
    expect(check({ id: 'a', sourceType: 'track' })).toThrow("startPlugin: track is required when sourceType is 'track'.");
    expect(check({ id: 'a', operation: 'rewind' }, 'update')).toThrow("'operation' must be one of pause|resume|stop when calling updatePlugin(), received: rewind.");
    expect(check({ id: 1 }, 'stop')).toThrow("'id' must be type of string when calling stopPlugin(), received type: number.");
  });
});
