/**
 * Cross-room calls (docs/behaviour.md §7.6, the seed's "push stream to room start / update / stop"): the
 * commands the CrossRoom plugin sends on the room's WebSocket (schemas in commands/cross-room.ts, part of
 * CommandMap). The server shows each connected anchor in the other room as a remote user and forwards its
 * media there without re-encoding it.
 */

import type { z } from 'zod';
import type { crossRoomStartData, crossRoomStopData, crossRoomUpdateData, crossRoomUpdateItem } from './commands/cross-room.js';

// Types inferred from the schemas of commands/cross-room.ts (type-only imports: the SDK bundles no zod).
export type CrossRoomStartData = z.infer<typeof crossRoomStartData>;
export type CrossRoomUpdateItem = z.infer<typeof crossRoomUpdateItem>;
export type CrossRoomUpdateData = z.infer<typeof crossRoomUpdateData>;
export type CrossRoomStopData = z.infer<typeof crossRoomStopData>;

/**
 * Reply codes of the cross-room commands: the original's numbers for these refusals (TRTC's
 * ERR_CONNECT_OTHER_ROOM_* / ERR_SERVER_CENTER_CONN_ROOM_* codes), so an app that handles them keeps working.
 */
export const CROSS_ROOM_CODE = Object.freeze({
  /** Invalid parameter (the caller's own room, a room-level connection without userId). */
  INVALID_PARAM: -3328,
  /** The caller is an audience (or does not publish): only a publishing anchor connects rooms. */
  AS_AUDIENCE: -3330,
  /** Cross-room is not supported here (an engine without cross-room links, a room on another cluster node). */
  NOT_SUPPORT: -102031,
  /** The caller has reached the number of cross-room connections a room may hold. */
  REACH_MAX_NUM: -102032,
  /** No cross-room connection with that room. */
  NOT_CONNECTED: -102042,
  /** That user is not connected across rooms. */
  USER_NOT_CONNECTED: -102043,
  /** Connecting failed (the media could not be linked). */
  FAILED: -102044,
  /** The room to connect to does not exist. */
  ROOM_NOT_EXIST: -102046,
  /** The caller's room is already connected with that room (one connection per pair of rooms). */
  ALREADY_CONNECTED: -102047,
  /** The user to connect to is not in that room, or is not an anchor there. */
  USER_NOT_EXIST: -102048,
} as const);

/** How many rooms one room may be connected with at once. */
export const CROSS_ROOM_MAX_LINKS = 8;
