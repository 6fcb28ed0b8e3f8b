import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import type { SwitchRoomConfig } from '../types.js';
import { validateRoomTarget, type RoomTarget } from './enter-room.js';

const FN = 'switchRoom';

/** What a valid switchRoom asks for. */
export interface SwitchRoomTarget {
  target: RoomTarget;
  userSig: string;
  privateMapKey?: string;
}

/**
 * Checks switchRoom's options against the current room, in the original's order: the same room (5020), a room
 * of the other type (5019), then the room id as enterRoom checks it, then the userSig.
 */
export function validateSwitchRoom(config: SwitchRoomConfig | undefined, current: RoomTarget): SwitchRoomTarget {
  if (!config || typeof config !== 'object') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'the switchRoom config is required', FN);
  const { roomId, strRoomId, userSig, privateMapKey } = config;
  const key = current.isString ? 'strRoomId' : 'roomId';
  const same = current.isString ? strRoomId === current.roomId : roomId === Number(current.roomId);
  if (same) throw invalidParameter(EXTRA_CODE.ROOM_ID_DUPLICATE, `the target '${key}' must not be the same as the current '${key}'.`, FN);
  if ((roomId && current.isString) || (!roomId && strRoomId && !current.isString)) {
    throw invalidParameter(EXTRA_CODE.ROOM_ID_TYPE_MISMATCH,
      `The type of target roomId must match the current roomId. Current room is using '${key}', but received '${key === 'strRoomId' ? 'roomId' : 'strRoomId'}'.`, FN);
  }
  const target = validateRoomTarget(roomId, strRoomId, FN);
  if (userSig === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userSig is required', FN);
  if (typeof userSig !== 'string' || userSig.trim() === '') throw invalidParameter(EXTRA_CODE.TYPE, 'userSig must be a non-empty string', FN);
  if (privateMapKey !== undefined && typeof privateMapKey !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'privateMapKey must be a string', FN);
  return { target, userSig, ...(privateMapKey ? { privateMapKey } : {}) };
}
