import { LIMITS } from '@conclave/protocol';

/**
 * How the admin API and the log store name a room within an app: the integer room id as text
 * ("1234"), or "s:" followed by the string room id ("s:lobby"). The two never collide.
 */
export type RoomRef = string;

/** A room as the join names it. */
export interface RoomId {
  roomId: string;
  isString: boolean;
}

/** The ref of a room. */
export function roomRef(roomId: string, isString: boolean): RoomRef {
  return isString ? `s:${roomId}` : String(Number(roomId));
}

/** Parses a ref; undefined when it names no valid room. */
export function parseRoomRef(ref: string): RoomId | undefined {
  if (ref.startsWith('s:')) {
    const roomId = ref.slice(2);
    return roomId.length >= 1 && roomId.length <= LIMITS.MAX_STR_ROOM_ID_LENGTH ? { roomId, isString: true } : undefined;
  }
  if (!/^\d{1,10}$/.test(ref)) return undefined;
  const id = Number(ref);
  return id >= LIMITS.MIN_ROOM_ID && id <= LIMITS.MAX_ROOM_ID ? { roomId: String(id), isString: false } : undefined;
}
