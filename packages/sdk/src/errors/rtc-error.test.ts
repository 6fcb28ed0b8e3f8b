import { describe, expect, it } from 'vitest';
import { ERROR_CODE } from '../constants/error-code.js';
import { decodeFailed, deviceError, invalidParameter, MESSAGE } from './catalogue.js';
import { RtcError } from './rtc-error.js';

describe('RtcError', () => {
  it('carries code, extraCode, function name and a message with the code name and hex code', () => {
    const error = invalidParameter(5013, 'roomId must be an integer between [1, 4294967294]', 'enterRoom');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RtcError');
    expect(error.code).toBe(5000);
    expect(error.extraCode).toBe(5013);
    expect(error.functionName).toBe('enterRoom');
    expect(error.message).toBe('roomId must be an integer between [1, 4294967294] <INVALID_PARAMETER 0x1388 extraCode:5013>');
    expect(error.rawMessage).toBe('roomId must be an integer between [1, 4294967294]');
  });

  it('converts anything thrown into an RtcError, keeping RtcErrors', () => {
    const converted = RtcError.convertFrom(new TypeError('boom'), 'startLocalVideo');
    expect(converted.code).toBe(ERROR_CODE.UNKNOWN_ERROR);
    expect(converted.functionName).toBe('startLocalVideo');
    expect(converted.originError).toBeInstanceOf(TypeError);
    const original = invalidParameter(5001, 'x');
    const named = RtcError.convertFrom(original, 'enterRoom');
    expect(named.functionName).toBe('enterRoom');
    expect(named.extraCode).toBe(5001);
  });

  it('keeps the code of an RtcError made by a plugin file (its own copy of the class)', () => {
    const foreign = Object.assign(new Error('load image failed: x.png <INVALID_PARAMETER 0x1388 extraCode:5002>'), { name: 'RtcError', code: 5000, extraCode: 5002, functionName: 'startPlugin' });
    const converted = RtcError.convertFrom(foreign, 'startPlugin');
    expect(converted).toBeInstanceOf(RtcError);
    expect(converted).toMatchObject({ code: 5000, extraCode: 5002, functionName: 'startPlugin', message: 'load image failed: x.png <INVALID_PARAMETER 0x1388 extraCode:5002>' });
    expect(RtcError.convertFrom(Object.assign(new Error('x'), { name: 'RtcError', code: 1 })).code).toBe(ERROR_CODE.UNKNOWN_ERROR);
  });

  it('maps capture failures to DEVICE_ERROR with SPEC wording', () => {
    const notFound = Object.assign(new Error('Requested device not found'), { name: 'NotFoundError' });
    const camera = deviceError(notFound, 'camera');
    expect(camera.code).toBe(5300);
    expect(camera.extraCode).toBe(5301);
    expect(camera.rawMessage).toBe(MESSAGE.NO_CAMERA);
    expect(deviceError(notFound, 'microphone').rawMessage).toBe('no microphone detected');
    const denied = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    expect(deviceError(denied, 'camera').extraCode).toBe(5302);
  });

  it('carries data (5.12+) through conversion, also from a plugin copy of the class', () => {
    const error = new RtcError({ code: ERROR_CODE.OPERATION_FAILED, extraCode: 5507, message: 'video decode failed', data: { userId: 'u', streamType: 'main' } });
    expect(error.data).toEqual({ userId: 'u', streamType: 'main' });
    expect(RtcError.convertFrom(error, 'startRemoteVideo').data).toEqual({ userId: 'u', streamType: 'main' });
    const foreign = Object.assign(new Error('x <OPERATION_FAILED 0x157c extraCode:5507>'), { name: 'RtcError', code: 5500, extraCode: 5507, data: { n: 1 } });
    expect(RtcError.convertFrom(foreign).data).toEqual({ n: 1 });
    expect(new RtcError({ code: ERROR_CODE.INVALID_PARAMETER, message: 'm' })).not.toHaveProperty('data');
  });

  it("5507 names the remote user and stream as the original's fields and in data; 5508 is audio decode failed", () => {
    const video = decodeFailed('video', 'alice', 'sub');
    expect(video).toMatchObject({ code: 5500, extraCode: 5507, userId: 'alice', streamType: 'sub', data: { userId: 'alice', streamType: 'sub' } });
    expect(video.rawMessage).toBe('video decode failed');
    // An app's handler reads them after the SDK converted the error for an event or a rejected call.
    expect(RtcError.convertFrom(video, 'startRemoteVideo')).toMatchObject({ functionName: 'startRemoteVideo', userId: 'alice', streamType: 'sub', data: { userId: 'alice', streamType: 'sub' } });
    const foreign = Object.assign(new Error('x <OPERATION_FAILED 0x157c extraCode:5507>'), { name: 'RtcError', code: 5500, extraCode: 5507, userId: 'bob', streamType: 'main' });
    expect(RtcError.convertFrom(foreign)).toMatchObject({ userId: 'bob', streamType: 'main' });
    const audio = decodeFailed('audio', 'carol');
    expect(audio).toMatchObject({ code: 5500, extraCode: 5508, data: { userId: 'carol' } });
    expect(audio.rawMessage).toBe('audio decode failed');
    expect(audio).not.toHaveProperty('userId');
    expect(invalidParameter(5001, 'm')).not.toHaveProperty('userId');
  });
});
