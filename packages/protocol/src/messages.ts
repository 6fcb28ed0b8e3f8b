/**
 * Signalling messages: JSON over WebSocket.
 * - request `{id, cmd, data}` from client to server,
 * - reply `{id, code, message, data}` from server to client,
 * - push `{push, data}` from server to client.
 */

import type { IceServerInfo } from './schedule.js';
import { DOWNLINK_COMMANDS, type DownlinkCommands, type DownlinkMids, type DownlinkPushes } from './downlink.js';

/** Wire role code: anchor 20, audience 21. */
export type RoleCode = 20 | 21;
/** Wire scene code: rtc 1, live 2. */
export type SceneCode = 1 | 2;

/** A remote user as the server describes it. */
export interface PeerInfo {
  userId: string;
  tinyId: string;
  role: RoleCode;
  /** Publish flag bitmask (see FLAG). */
  flag: number;
}

/** Which of a source user's streams a subscriber wants. */
export interface SubscriptionWants {
  audio: boolean;
  bigVideo: boolean;
  smallVideo: boolean;
  auxVideo: boolean;
}

export interface JoinData {
  sdkAppId: number;
  userId: string;
  userSig: string;
  /** Integer room id, or the string room id when useStringRoomId is true. */
  roomId: string;
  useStringRoomId: boolean;
  privateMapKey?: string;
  latencyLevel?: number;
  trtcRole: RoleCode;
  trtcScene: SceneCode;
  businessInfo?: string;
  version: string;
  ua: string;
  terminalType: number;
  /**
   * The sessionToken of an earlier join of this user in this room: when the server still holds that
   * session (within its grace period after the connection dropped), the join resumes it and the others
   * see neither a leave nor a join.
   */
  resumeToken?: string;
  userDefineRecordId?: string;
}
export interface JoinReply {
  tinyId: string;
  /** Proves a later join is the same session (see JoinData.resumeToken). */
  sessionToken: string;
  /** True when this join resumed the earlier session: its media links were kept. */
  resumed: boolean;
  /** Users already in the room, with their publish flags. */
  userList: PeerInfo[];
  iceServers: IceServerInfo[];
}

export interface SdpData { sdp: string }
export interface FlagData { flag: number }
export interface SubscribeData extends SubscriptionWants { srcUserId: string }
export interface UnsubscribeData { srcUserId: string }
export interface SwitchRoleData { role: RoleCode; privateMapKey?: string; latencyLevel?: number }
export type Empty = Record<string, never>;

/** Every command: its request data and its reply data. */
export interface CommandMap extends DownlinkCommands {
  join: { data: JoinData; reply: JoinReply };
  leave: { data: Empty; reply: Empty };
  heartbeat: { data: Empty; reply: Empty };
  /** Uplink negotiation: the client's offer, the server's answer. */
  publish: { data: SdpData; reply: SdpData };
  /** Closes the uplink. */
  unpublish: { data: Empty; reply: Empty };
  /** Publish / mute flag change of the sender. */
  'mute-flag': { data: FlagData; reply: Empty };
  /** Starts receiving from a source user on the client's downlink; the reply names the m-lines (see downlink.ts). */
  subscribe: { data: SubscribeData; reply: DownlinkMids };
  /** Changes which streams of a source are forwarded (no renegotiation). */
  'subscribe-change': { data: SubscribeData; reply: Empty };
  unsubscribe: { data: UnsubscribeData; reply: Empty };
  'switch-role': { data: SwitchRoleData; reply: Empty };
  /**
   * Opens this client's data link: a peer connection with one data channel carrying custom messages
   * (DATA_RECORD tagged records). The client's offer, the server's answer. Replaces an earlier link.
   */
  'data-link': { data: SdpData; reply: SdpData };
}
export type Command = keyof CommandMap;
export const COMMANDS: readonly Command[] = Object.freeze([
  'join', 'leave', 'heartbeat', 'publish', 'unpublish', 'mute-flag',
  'subscribe', 'subscribe-change', 'unsubscribe', 'switch-role', 'data-link', ...DOWNLINK_COMMANDS,
] as const);

/**
 * Custom messages on the data link (SPEC §3 data channel message): a binary message is a sequence of
 * tagged records, each `tag (1 byte) | length (2 bytes, big-endian) | value`. Tag 1 is the sender's
 * tinyId as text (the server sets it on what it forwards), tag 2 the payload, tag 3 the cmdId (1 byte),
 * tag 4 the stream sequence number (4 bytes, big-endian).
 */
export const DATA_RECORD = Object.freeze({ TINY_ID: 1, PAYLOAD: 2, CMD_ID: 3, SEQ: 4 } as const);
/** Label of the data link's channel. */
export const DATA_CHANNEL_LABEL = 'custom-message';

export interface RequestMessage<C extends Command = Command> {
  id: number;
  cmd: C;
  data: CommandMap[C]['data'];
}
export interface ReplyMessage<C extends Command = Command> {
  id: number;
  code: number;
  message: string;
  data?: CommandMap[C]['reply'];
}

/** Why a user left (SPEC §3 leave reasons). */
export type LeaveReason = 'normal' | 'timeout' | 'kick' | 'role change';
/** Why the server removed this client (SPEC §3 banned reasons). */
export type BannedReason = 'banned' | 'kick' | 'user_time_out' | 'room_disband';

/** Every push: its data. */
export interface PushMap extends DownlinkPushes {
  'peer-join': PeerInfo;
  'peer-leave': { userId: string; tinyId: string; reason: LeaveReason };
  /** Publish / mute flags of some users changed. */
  'publish-list': { userList: PeerInfo[] };
  banned: { reason: BannedReason; message?: string };
  /** The server is going away: reconnect. */
  'server-shutdown': Empty;
}
export type PushName = keyof PushMap;
export interface PushMessage<P extends PushName = PushName> {
  push: P;
  data: PushMap[P];
}

export type ServerMessage = ReplyMessage | PushMessage;

/** True when a parsed server message is a push. */
export function isPush(msg: ServerMessage): msg is PushMessage {
  return typeof (msg as PushMessage).push === 'string';
}
