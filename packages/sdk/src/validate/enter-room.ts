import { LIMITS } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import type { EnterRoomConfig } from '../types.js';

const FN = 'enterRoom';
/** strRoomId characters (API.md): letters, digits, space and a set of punctuation. */
const STR_ROOM_ID = /^[a-zA-Z0-9 !#$%&()+\-:;<=.>?@[\]^_{}|~,]{1,64}$/;

/** The room an enterRoom config names: the integer roomId wins when both are given. */
export interface RoomTarget {
  roomId: string;
  isString: boolean;
}

/** Checks enterRoom's options (SPEC §5); throws INVALID_PARAMETER with SPEC's wording. */
export function validateEnterRoom(config: EnterRoomConfig | undefined): RoomTarget {
  if (!config || typeof config !== 'object') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'the enterRoom config is required', FN);
  const { sdkAppId, userId, userSig, roomId, strRoomId, scene, role } = config;
  if (sdkAppId === undefined || sdkAppId === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'sdkAppId is required', FN);
  if (typeof sdkAppId !== 'number' || !Number.isFinite(sdkAppId)) throw invalidParameter(EXTRA_CODE.TYPE, 'sdkAppId must be a number', FN);
  if (userId === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', FN);
  if (typeof userId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'userId must be a string', FN);
  if (userId.trim() === '') throw invalidParameter(EXTRA_CODE.EMPTY, 'userId cannot be empty or all spaces', FN);
  if (userSig === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userSig is required', FN);
  if (typeof userSig !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'userSig must be a string', FN);
  if (userSig === '') throw invalidParameter(EXTRA_CODE.EMPTY, 'userSig cannot be empty', FN);
  if (scene !== undefined && scene !== 'rtc' && scene !== 'live') throw invalidParameter(EXTRA_CODE.RANGE, "scene must be 'rtc' or 'live'", FN);
  if (role !== undefined && role !== 'anchor' && role !== 'audience') throw invalidParameter(EXTRA_CODE.RANGE, "role must be 'anchor' or 'audience'", FN);
  if (roomId !== undefined) {
    if (typeof roomId === 'string') {
      throw invalidParameter(EXTRA_CODE.ROOM_ID_INTEGER_STRING,
        'roomId must be a number; use parseInt(roomId) to convert it, or use strRoomId for a string room id', FN);
    }
    if (!Number.isInteger(roomId) || roomId < LIMITS.MIN_ROOM_ID || roomId > LIMITS.MAX_ROOM_ID) {
      throw invalidParameter(EXTRA_CODE.ROOM_ID_INTEGER, 'roomId must be an integer between [1, 4294967294]', FN);
    }
    return { roomId: String(roomId), isString: false };
  }
  if (strRoomId !== undefined) {
    if (typeof strRoomId !== 'string' || !STR_ROOM_ID.test(strRoomId)) {
      throw invalidParameter(EXTRA_CODE.ROOM_ID_STRING,
        'strRoomId must be 1 to 64 characters of letters, digits, space and !#$%&()+-:;<=.>?@[]^_{}|~,', FN);
    }
    return { roomId: strRoomId, isString: true };
  }
  throw invalidParameter(EXTRA_CODE.ROOM_ID_REQUIED, 'roomId or strRoomId is required', FN);
}
