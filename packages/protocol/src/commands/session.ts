/** Session commands: entering and leaving the room, keeping the connection alive, changing role. */
import { z } from 'zod';
import { LIMITS } from '../limits.js';
import { command, empty, iceServer, peerInfo, privateMapKey, roleCode, sceneCode, userId } from './fields.js';

/** userDefineRecordId (docs/behaviour.md §5): 1 to 64 letters, digits, hyphens and underscores. */
export const userDefineRecordId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, hyphens or underscores');

/** A room id: an integer in range, or any string room id when useStringRoomId is true. */
const roomIdRule = <T extends { roomId: string; useStringRoomId: boolean }>(d: T) =>
  d.useStringRoomId || (/^\d{1,10}$/.test(d.roomId) && Number(d.roomId) >= LIMITS.MIN_ROOM_ID && Number(d.roomId) <= LIMITS.MAX_ROOM_ID);
const roomIdMessage = { message: `roomId must be an integer between [${LIMITS.MIN_ROOM_ID}, ${LIMITS.MAX_ROOM_ID}]`, path: ['roomId'] };

export const joinData = z.object({
  sdkAppId: z.int().min(1),
  userId,
  userSig: z.string().min(1).max(4096),
  /** Integer room id, or the string room id when useStringRoomId is true. */
  roomId: z.string().min(1).max(LIMITS.MAX_STR_ROOM_ID_LENGTH),
  useStringRoomId: z.boolean(),
  privateMapKey: privateMapKey.optional(),
  latencyLevel: z.int().min(0).max(10).optional(),
  trtcRole: roleCode,
  trtcScene: sceneCode,
  businessInfo: z.string().max(4096).optional(),
  /** The app's own id for the cloud recording of this user's streams (docs/behaviour.md §5). */
  userDefineRecordId: userDefineRecordId.optional(),
  version: z.string().max(64),
  /** The wire protocol version the client speaks (version.ts); absent: 1. */
  protocolVersion: z.int().min(1).max(1_000_000).optional(),
  ua: z.string().max(1024),
  terminalType: z.int(),
  /**
   * The sessionToken of an earlier join of this user in this room: when the server still holds that
   * session (within its grace period after the connection dropped), the join resumes it and the others
   * see neither a leave nor a join.
   */
  resumeToken: z.string().max(128).optional(),
  /** The ticket of an earlier JOIN_THROTTLED answer: it holds this join's place in the admission queue. */
  admissionTicket: z.string().max(64).optional(),
}).refine(roomIdRule, roomIdMessage);

export const joinReply = z.object({
  tinyId: z.string(),
  /** Proves a later join is the same session (see JoinData.resumeToken). */
  sessionToken: z.string(),
  /** True when this join resumed the earlier session: its media links were kept. */
  resumed: z.boolean(),
  /** Users already in the room, with their publish flags: anchors only in a live room (audiences are hidden). */
  userList: z.array(peerInfo),
  iceServers: z.array(iceServer),
  /** The room's audience members now, this user included when it is one (Conclave only; see push `audience-count`). */
  audienceCount: z.int().min(0).optional(),
  /** The client's public address as the server sees it (the original's clientIp): the SDK remembers a TURN/TCP switch for it. */
  clientIp: z.string().max(64).optional(),
});

/**
 * The data of a JOIN_THROTTLED reply: send the join again after `retryAfterMs` (plus a little jitter), with
 * `ticket` as its admissionTicket. Without a ticket (the queue is full) the client just retries after the wait.
 */
export const joinThrottled = z.object({
  retryAfterMs: z.int().min(0).max(600_000),
  ticket: z.string().max(64).optional(),
});

export const switchRoleData = z.object({
  role: roleCode,
  privateMapKey: privateMapKey.optional(),
  /** docs/behaviour.md §5: 1 to 5. */
  latencyLevel: z.int().min(1).max(5).optional(),
});

/**
 * Moves the joined session to another room of the same app (switchRoom): authorised like a join with this
 * userSig (and privateMapKey); the old room sees the user leave, the new one sees it enter. The session's
 * media links end (the client publishes and subscribes again in the new room).
 */
export const switchRoomData = z.object({
  userSig: z.string().min(1).max(4096),
  roomId: z.string().min(1).max(LIMITS.MAX_STR_ROOM_ID_LENGTH),
  useStringRoomId: z.boolean(),
  privateMapKey: privateMapKey.optional(),
}).refine(roomIdRule, roomIdMessage);

export const switchRoomReply = joinReply.omit({ resumed: true, iceServers: true });

/** The session group of CommandMap. */
export const sessionCommands = {
  join: command(joinData, joinReply),
  leave: command(empty, empty),
  heartbeat: command(empty, empty),
  'switch-role': command(switchRoleData, empty),
  'switch-room': command(switchRoomData, switchRoomReply),
};
