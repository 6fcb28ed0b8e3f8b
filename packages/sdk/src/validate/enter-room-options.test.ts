import { describe, expect, it } from 'vitest';
import { RtcError } from '../errors/rtc-error.js';
import type { EnterRoomConfig } from '../types.js';
import { buildBusinessInfo, resolveProxy, validateEnterRoom, validateStreamId } from './enter-room.js';

const base: EnterRoomConfig = { sdkAppId: 1400000001, userId: 'alice', userSig: 'sig', roomId: 8888 };

function caught(fn: () => unknown): RtcError {
  try {
    fn();
  } catch (error) {
    return error as RtcError;
  }
  throw new Error('expected an error');
}

describe('enterRoom optional fields (docs/behaviour.md §5)', () => {
  it('playoutDelay: min 0–1000, max 0–10000', () => {
    expect(() => validateEnterRoom({ ...base, playoutDelay: { min: 0, max: 10000 } })).not.toThrow();
    expect(caught(() => validateEnterRoom({ ...base, playoutDelay: { min: 1001, max: 2000 } })).message).toMatch(/playoutDelay.min/);
    expect(caught(() => validateEnterRoom({ ...base, playoutDelay: { min: -1, max: 2000 } })).extraCode).toBe(5005);
    expect(caught(() => validateEnterRoom({ ...base, playoutDelay: { min: 10, max: 10001 } })).message).toMatch(/playoutDelay.max/);
  });

  it('userDefineRecordId: 1–64 letters, digits, hyphen, underscore', () => {
    expect(() => validateEnterRoom({ ...base, userDefineRecordId: 'rec_01-A' })).not.toThrow();
    expect(caught(() => validateEnterRoom({ ...base, userDefineRecordId: '' })).code).toBe(5000);
    expect(caught(() => validateEnterRoom({ ...base, userDefineRecordId: 'a b' })).code).toBe(5000);
    expect(caught(() => validateEnterRoom({ ...base, userDefineRecordId: 'x'.repeat(65) })).code).toBe(5000);
  });

  it('userDefinePushArgs: non-empty, at most 256', () => {
    expect(() => validateEnterRoom({ ...base, userDefinePushArgs: 'a=1' })).not.toThrow();
    expect(caught(() => validateEnterRoom({ ...base, userDefinePushArgs: '' })).code).toBe(5000);
    expect(caught(() => validateEnterRoom({ ...base, userDefinePushArgs: 'x'.repeat(257) })).code).toBe(5000);
  });

  it("pureAudioPushMode: 1 or 2 ('invalid pure audio')", () => {
    expect(() => validateEnterRoom({ ...base, pureAudioPushMode: 2 })).not.toThrow();
    expect(caught(() => validateEnterRoom({ ...base, pureAudioPushMode: 3 as 1 })).message).toMatch(/invalid pure audio/);
  });

  it('streamId: non-empty, at most 64 bytes, letters digits hyphen underscore', () => {
    expect(validateStreamId('stream_1-a', 'f')).toBe('stream_1-a');
    expect(caught(() => validateStreamId('', 'f')).extraCode).toBe(5003);
    expect(caught(() => validateStreamId(5, 'f')).extraCode).toBe(5002);
    expect(caught(() => validateStreamId('a'.repeat(65), 'f')).extraCode).toBe(5011);
    expect(caught(() => validateStreamId('a.b', 'f')).extraCode).toBe(5011);
  });

  it('proxy: ws(s) strings are the signalling proxy, http(s) strings the server; objects are checked field by field', () => {
    expect(resolveProxy('wss://proxy.example.com/ws')).toMatchObject({ websocketUrl: 'wss://proxy.example.com/ws' });
    expect(resolveProxy('https://conclave.example.com')).toMatchObject({ scheduleBase: 'https://conclave.example.com' });
    expect(caught(() => resolveProxy('proxy.example.com')).code).toBe(5000);
    expect(caught(() => resolveProxy({ websocketProxy: 'https://x' })).message).toMatch(/websocketProxy/);
    expect(caught(() => resolveProxy({ scheduleProxy: 'ftp://x' })).message).toMatch(/scheduleProxy/);
    const turn = resolveProxy({ turnServer: { url: 'turn:127.0.0.1:3478', username: 'u', credential: 'p' }, iceTransportPolicy: 'relay' });
    expect(turn).toMatchObject({ iceTransportPolicy: 'relay', turnServers: [{ url: 'turn:127.0.0.1:3478', username: 'u', credential: 'p' }] });
    expect(caught(() => resolveProxy({ turnServer: { url: 'http://x' } })).message).toMatch(/turnServer/);
    expect(caught(() => resolveProxy({ iceTransportPolicy: 'none' as 'all' })).code).toBe(5000);
    expect(caught(() => validateEnterRoom({ ...base, proxy: 'nonsense' })).functionName).toBe('enterRoom');
  });

  it('businessInfo: a JSON object string, with the library values merged under Str_uc_params', () => {
    const merged = JSON.parse(buildBusinessInfo({ ...base, businessInfo: '{"a":1,"Str_uc_params":{"x":2}}', userDefineRecordId: 'rec', pureAudioPushMode: 1 })!);
    expect(merged).toEqual({ a: 1, Str_uc_params: { x: 2, userdefine_record_id: 'rec', pure_audio_push_mod: 1 } });
    expect(buildBusinessInfo(base)).toBeUndefined();
    expect(JSON.parse(buildBusinessInfo({ ...base, userDefinePushArgs: 'k=v' })!)).toEqual({ Str_uc_params: { userdefine_push_args: 'k=v' } });
    expect(caught(() => validateEnterRoom({ ...base, businessInfo: '{not json' })).code).toBe(5000);
    expect(caught(() => validateEnterRoom({ ...base, businessInfo: '[1,2]' })).code).toBe(5000);
  });

  it('boolean switches and privateMapKey have the right types', () => {
    expect(caught(() => validateEnterRoom({ ...base, autoReceiveAudio: 'yes' as unknown as boolean })).extraCode).toBe(5002);
    expect(caught(() => validateEnterRoom({ ...base, enableAutoPlayDialog: 1 as unknown as boolean })).extraCode).toBe(5002);
    expect(caught(() => validateEnterRoom({ ...base, privateMapKey: 5 as unknown as string })).extraCode).toBe(5002);
  });
});
