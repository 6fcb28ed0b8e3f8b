import { describe, expect, it } from 'vitest';
import { ERROR_CODE, EXTRA_CODE } from './error-code.js';
import { EVENT } from './event.js';
import { TYPE } from './type.js';

describe('TRTC.EVENT / TYPE / ERROR_CODE', () => {
  it('are frozen', () => {
    for (const constants of [EVENT, TYPE, ERROR_CODE, EXTRA_CODE]) expect(Object.isFrozen(constants)).toBe(true);
  });

  it('carry the original values (API.md §4–§6)', () => {
    expect(ERROR_CODE).toEqual({
      INVALID_PARAMETER: 5000, INVALID_OPERATION: 5100, ENV_NOT_SUPPORTED: 5200, DEVICE_ERROR: 5300,
      SERVER_ERROR: 5400, OPERATION_FAILED: 5500, OPERATION_ABORT: 5998, UNKNOWN_ERROR: 5999,
    });
    // The original's 31 and Conclave's audience-count-changed.
    expect(Object.keys(EVENT)).toHaveLength(32);
    expect(EVENT.AUDIENCE_COUNT_CHANGED).toBe('audience-count-changed');
    expect(EVENT.VIDEO_SIZE_CHANGED).toBe('video-size-changed');
    expect(EVENT.PERMISSION_STATE_CHANGE).toBe('permission-state-change');
    expect(EVENT.LAYER_DATA).toBe('layerData');
    expect(EVENT.VIDEO_DECODE_DOWNGRADE_STATE_CHANGED).toBe('video-decode-downgrade-state-changed');
    expect(TYPE.SPEAKER).toBe('Speakerphone');
    expect(TYPE.HEADSET).toBe('Headset earpiece');
    expect(EXTRA_CODE.ROOM_ID_REQUIED).toBe(5015);
    expect(EXTRA_CODE.REMOTE_USER_ID_SAME_AS_LOCAL).toBe(5021); // 5.18
    expect(Object.values(EXTRA_CODE)).toHaveLength(59);
  });

  it("carry 5.17's error codes with their current meanings", () => {
    expect(EXTRA_CODE).toMatchObject({
      ROOM_ID_TYPE_MISMATCH: 5019, ROOM_ID_DUPLICATE: 5020, NOT_SUPPORTED_MISMATCH_SAMPLE_RATE_IN_FIREFOX: 5310,
      VIDEO_ENCODE_FAILED: 5505, AUDIO_ENCODE_FAILED: 5506, VIDEO_DECODE_FAILED: 5507, AUDIO_DECODE_FAILED: 5508,
    });
  });
});
