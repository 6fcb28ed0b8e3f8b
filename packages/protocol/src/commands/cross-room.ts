/**
 * Cross-room calls (docs/behaviour.md §7.6): the commands the CrossRoom plugin sends. `roomId` is the other room's
 * id as the plugin gives it (a number, or the strRoomId string, as the original sends `roomId || strRoomId`);
 * `isStrRoomId` tells a string room from an integer one whose digits were sent as a string.
 */
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { command, empty, privateMapKey, userId } from './fields.js';

const otherRoom = {
  roomId: z.union([z.int().min(LIMITS.MIN_ROOM_ID).max(LIMITS.MAX_ROOM_ID), z.string().min(1).max(LIMITS.MAX_STR_ROOM_ID_LENGTH)]),
  /** True when roomId is a strRoomId (default: a string roomId is a strRoomId, a number an integer room). */
  isStrRoomId: z.boolean().optional(),
};

export const crossRoomStartData = z.object({
  ...otherRoom,
  /** The other room's anchor to connect with (the original's room-level connection, without it, is refused here). */
  userId: userId.optional(),
  /**
   * The caller's privateMapKey for the other room (not in the original's options): a connection is the caller's
   * visit there, authorised as a join of it would be, so an app that requires privateMapKeys needs one for that
   * room; its privilege bits limit what the other room receives of the caller (docs/behaviour.md §7.6).
   */
  privateMapKey: privateMapKey.optional(),
});

export const crossRoomUpdateItem = z.object({
  ...otherRoom,
  /** The connected anchor of that room; absent: every anchor connected from it. */
  userId: userId.optional(),
  muteAudio: z.boolean().optional(),
  muteVideo: z.boolean().optional(),
  muteSubStream: z.boolean().optional(),
});

export const crossRoomUpdateData = z.object({ updateList: z.array(crossRoomUpdateItem).min(1).max(16) });

export const crossRoomStopData = z.object({
  roomId: otherRoom.roomId.optional(),
  isStrRoomId: otherRoom.isStrRoomId,
});

/** The cross-room group of CommandMap. */
export const crossRoomCommands = {
  /** Connects the caller (a publishing anchor) with an anchor of another room: each room sees the other anchor. */
  'cross-room-start': command(crossRoomStartData, empty),
  /** Mutes or unmutes, in the caller's room, the audio, video or sub stream of anchors connected from another room. */
  'cross-room-update': command(crossRoomUpdateData, empty),
  /** Ends the caller's connection with one room, or all of them. */
  'cross-room-stop': command(crossRoomStopData, empty),
};
