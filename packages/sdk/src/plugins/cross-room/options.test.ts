import { describe, expect, it } from 'vitest';
import { RtcError, type RtcErrorInit } from '../../errors/rtc-error.js';
import { toStartData, toStopData, toUpdateData } from './options.js';

const errors = (init: { code: number; extraCode?: number; message: string; functionName?: string }) => new RtcError(init as RtcErrorInit);
const fails = (run: () => unknown): RtcError => {
  try {
    run();
  } catch (error) {
    return error as RtcError;
  }
  throw new Error('expected a refusal');
};

describe('CrossRoom options (docs/behaviour.md §7.6): the original\'s rule table, as the wire\'s data', () => {
  it('sends roomId or strRoomId (roomId first, as the original\'s `roomId || strRoomId`), with isStrRoomId', () => {
    expect(toStartData({ roomId: 8888, userId: 'b' }, errors)).toEqual({ roomId: 8888, isStrRoomId: false, userId: 'b' });
    expect(toStartData({ strRoomId: 'lobby', userId: 'b' }, errors)).toEqual({ roomId: 'lobby', isStrRoomId: true, userId: 'b' });
    expect(toStartData({ roomId: 0, strRoomId: '12', userId: 'b' }, errors)).toEqual({ roomId: '12', isStrRoomId: true, userId: 'b' });
    // The caller's privateMapKey for the other room travels with the start (issue 38.2), and is type-checked.
    expect(toStartData({ roomId: 8888, userId: 'b', privateMapKey: 'pmk' }, errors)).toEqual({ roomId: 8888, isStrRoomId: false, userId: 'b', privateMapKey: 'pmk' });
    expect(fails(() => toStartData({ roomId: 1, userId: 'b', privateMapKey: 5 }, errors)).message).toMatch(/option\.privateMapKey/);
    expect(toStopData(undefined, errors)).toEqual({});
    expect(toStopData({ roomId: 7 }, errors)).toEqual({ roomId: 7, isStrRoomId: false });
    expect(toUpdateData({ updateList: [{ roomId: 7, userId: 'b', muteAudio: false, muteVideo: true, muteSubStream: false }] }, errors))
      .toEqual({ updateList: [{ roomId: 7, isStrRoomId: false, userId: 'b', muteAudio: false, muteVideo: true, muteSubStream: false }] });
  });

  it('refuses wrong types, a missing option, room or updateList with INVALID_PARAMETER naming the field', () => {
    expect(fails(() => toStartData(undefined, errors))).toMatchObject({ code: 5000, extraCode: 5001, functionName: 'startPlugin' });
    expect(fails(() => toStartData({ roomId: '8888', userId: 'b' }, errors))).toMatchObject({ code: 5000, extraCode: 5002 });
    expect(fails(() => toStartData({ roomId: 1, userId: 5 }, errors)).message).toMatch(/option\.userId/);
    expect(fails(() => toStartData({ userId: 'b' }, errors))).toMatchObject({ code: 5000, extraCode: 5015 });
    expect(fails(() => toUpdateData({}, errors))).toMatchObject({ code: 5000, extraCode: 5001, functionName: 'updatePlugin' });
    expect(fails(() => toUpdateData({ updateList: [{ roomId: 1, muteVideo: 'yes' }] }, errors)).message).toMatch(/updateList\[0\]\.muteVideo/);
    expect(fails(() => toStopData({ strRoomId: 3 }, errors))).toMatchObject({ code: 5000, extraCode: 5002, functionName: 'stopPlugin' });
  });
});
