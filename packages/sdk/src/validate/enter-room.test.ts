import { describe, expect, it } from 'vitest';
import { RtcError } from '../errors/rtc-error.js';
import type { EnterRoomConfig } from '../types.js';
import { quickStartOf, validateEnterRoom } from './enter-room.js';

const base: EnterRoomConfig = { sdkAppId: 1400000001, userId: 'alice', userSig: 'sig', roomId: 8888 };

function errorOf(config: unknown): RtcError {
  try {
    validateEnterRoom(config as EnterRoomConfig);
  } catch (error) {
    return error as RtcError;
  }
  throw new Error('expected a validation error');
}

describe('validateEnterRoom', () => {
  it('accepts an integer room id and a string room id, integer winning when both are given', () => {
    expect(validateEnterRoom(base)).toEqual({ roomId: '8888', isString: false });
    expect(validateEnterRoom({ ...base, roomId: undefined, strRoomId: 'room A-1' })).toEqual({ roomId: 'room A-1', isString: true });
    expect(validateEnterRoom({ ...base, strRoomId: 'x' })).toEqual({ roomId: '8888', isString: false });
  });

  it('rejects room ids out of range with SPEC wording', () => {
    for (const roomId of [0, 4294967295, 1.5, -3]) {
      const error = errorOf({ ...base, roomId });
      expect(error).toBeInstanceOf(RtcError);
      expect(error.code).toBe(5000);
      expect(error.extraCode).toBe(5013);
      expect(error.message).toContain('must be an integer between [1, 4294967294]');
    }
    expect(validateEnterRoom({ ...base, roomId: 4294967294 }).roomId).toBe('4294967294');
  });

  it('tells a caller passing a string roomId to use parseInt or strRoomId', () => {
    const error = errorOf({ ...base, roomId: '8888' });
    expect(error.extraCode).toBe(5016);
    expect(error.message).toMatch(/parseInt/);
    expect(error.message).toMatch(/strRoomId/);
  });

  it('requires one of roomId and strRoomId, and checks the strRoomId charset and length', () => {
    expect(errorOf({ ...base, roomId: undefined }).extraCode).toBe(5015);
    expect(errorOf({ ...base, roomId: undefined, strRoomId: 'a'.repeat(65) }).extraCode).toBe(5012);
    expect(errorOf({ ...base, roomId: undefined, strRoomId: 'no/slash' }).extraCode).toBe(5012);
    expect(errorOf({ ...base, roomId: undefined, strRoomId: '' }).extraCode).toBe(5012);
  });

  it('checks sdkAppId, userId, userSig, scene and role', () => {
    expect(errorOf({ ...base, sdkAppId: undefined }).extraCode).toBe(5001);
    expect(errorOf({ ...base, sdkAppId: '1400' }).extraCode).toBe(5002);
    expect(errorOf({ ...base, userId: '   ' }).extraCode).toBe(5003);
    expect(errorOf({ ...base, userId: 42 }).extraCode).toBe(5002);
    expect(errorOf({ ...base, userSig: '' }).extraCode).toBe(5003);
    expect(errorOf({ ...base, scene: 'meeting' }).extraCode).toBe(5005);
    expect(errorOf({ ...base, role: 'host' }).extraCode).toBe(5005);
    expect(errorOf(undefined).extraCode).toBe(5001);
  });

  it('40 enterRoom: quickStart.remoteUserId equal to the local userId is INVALID_PARAMETER 5021 (after the room checks); quickStart is dropped for an rtc anchor', () => {
    const error = errorOf({ ...base, quickStart: { remoteUserId: 'alice' } });
    expect(error).toMatchObject({ code: 5000, extraCode: 5021 });
    expect(error.message).toContain("'quickStart.remoteUserId' cannot be the same as the local userId 'alice'.");
    expect(errorOf({ ...base, roomId: undefined, quickStart: { remoteUserId: 'alice' } }).extraCode).toBe(5015);
    expect(validateEnterRoom({ ...base, quickStart: { remoteUserId: 'bob' } })).toEqual({ roomId: '8888', isString: false });
    const quickStart = { remoteUserId: 'bob' };
    expect(quickStartOf({ quickStart })).toBe(quickStart);
    expect(quickStartOf({ quickStart, scene: 'live' })).toBe(quickStart);
    expect(quickStartOf({ quickStart, scene: 'rtc', role: 'audience' })).toBe(quickStart);
    expect(quickStartOf({ quickStart, scene: 'rtc' })).toBeUndefined();
    expect(quickStartOf({ quickStart, scene: 'rtc', role: 'anchor' })).toBeUndefined();
  });
});
