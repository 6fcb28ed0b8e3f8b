import type { CrossRoomStartData, CrossRoomStopData, CrossRoomUpdateData } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

/** The other room of startPlugin('CrossRoom') (a numeric or a string room id) and the anchor to connect with. */
export interface StartCrossRoomOption {
  roomId?: number;
  strRoomId?: string;
  /** The other room's anchor to connect with (required here: room-level connections are not supported). */
  userId?: string;
  /**
   * This user's privateMapKey for the other room (not in the original's options): the server authorises the
   * connection as this user's join of that room, so an app that requires privateMapKeys needs one for it.
   */
  privateMapKey?: string;
}

/** One connected anchor's mute settings, for updatePlugin('CrossRoom'). */
export interface UpdateCrossRoomOptionItem extends StartCrossRoomOption {
  muteAudio: boolean;
  muteVideo: boolean;
  muteSubStream: boolean;
}

/** Options of updatePlugin('CrossRoom'). */
export interface UpdateCrossRoomOption {
  updateList: UpdateCrossRoomOptionItem[];
}

/** Options of stopPlugin('CrossRoom'): the room to disconnect from (all when absent). */
export interface StopCrossRoomOption {
  roomId?: number;
  strRoomId?: string;
}

type Fields = Record<string, 'number' | 'string' | 'boolean'>;
const ROOM: Fields = { roomId: 'number', strRoomId: 'string' };

/** The original's checks (its rule table): each given field of the right type; INVALID_PARAMETER otherwise. */
function check(value: unknown, name: string, fields: Fields, required: boolean, errors: PluginErrorFactory, functionName: string): Record<string, unknown> {
  if (value === undefined || value === null) {
    if (!required) return {};
    throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.PARAMETER_REQUIRED, message: `'${name}' is required`, functionName });
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.TYPE, message: `'${name}' must be an object`, functionName });
  }
  const record = value as Record<string, unknown>;
  for (const [field, type] of Object.entries(fields)) {
    if (record[field] !== undefined && typeof record[field] !== type) {
      throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.TYPE, message: `'${name}.${field}' must be of type ${type}`, functionName });
    }
  }
  return record;
}

/** The wire's room fields: the original sends `roomId || strRoomId`; a room is required. */
function roomOf(record: Record<string, unknown>, name: string, required: boolean, errors: PluginErrorFactory, functionName: string): { roomId: number | string; isStrRoomId: boolean } | undefined {
  const roomId = record.roomId as number | undefined;
  const strRoomId = record.strRoomId as string | undefined;
  if (roomId) return { roomId, isStrRoomId: false };
  if (strRoomId) return { roomId: strRoomId, isStrRoomId: true };
  if (!required) return undefined;
  throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.ROOM_ID_REQUIED, message: `'${name}.roomId' or '${name}.strRoomId' is required`, functionName });
}

/** startPlugin's options as the cross-room-start command's data. */
export function toStartData(option: unknown, errors: PluginErrorFactory): CrossRoomStartData {
  const record = check(option, 'option', { ...ROOM, userId: 'string', privateMapKey: 'string' }, true, errors, 'startPlugin');
  const userId = record.userId as string | undefined;
  const privateMapKey = record.privateMapKey as string | undefined;
  return { ...roomOf(record, 'option', true, errors, 'startPlugin')!, ...(userId ? { userId } : {}), ...(privateMapKey ? { privateMapKey } : {}) };
}

/** updatePlugin's options as the cross-room-update command's data. */
export function toUpdateData(option: unknown, errors: PluginErrorFactory): CrossRoomUpdateData {
  const record = check(option, 'option', {}, true, errors, 'updatePlugin');
  const list = record.updateList;
  if (!Array.isArray(list) || list.length === 0) {
    throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: list === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.TYPE, message: "'option.updateList' must be a non-empty array", functionName: 'updatePlugin' });
  }
  return {
    updateList: list.map((item: unknown, index) => {
      const name = `option.updateList[${index}]`;
      const entry = check(item, name, { ...ROOM, userId: 'string', muteAudio: 'boolean', muteVideo: 'boolean', muteSubStream: 'boolean' }, true, errors, 'updatePlugin');
      const userId = entry.userId as string | undefined;
      const flags = Object.fromEntries(['muteAudio', 'muteVideo', 'muteSubStream'].filter((k) => entry[k] !== undefined).map((k) => [k, entry[k] as boolean]));
      return { ...roomOf(entry, name, true, errors, 'updatePlugin')!, ...(userId ? { userId } : {}), ...flags };
    }),
  };
}

/** stopPlugin's options as the cross-room-stop command's data (no room: every connection). */
export function toStopData(option: unknown, errors: PluginErrorFactory): CrossRoomStopData {
  const record = check(option, 'option', ROOM, false, errors, 'stopPlugin');
  return roomOf(record, 'option', false, errors, 'stopPlugin') ?? {};
}
