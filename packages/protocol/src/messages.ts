/**
 * Signalling messages: JSON over WebSocket.
 * - request `{id, cmd, data}` from client to server,
 * - reply `{id, code, message, data}` from server to client,
 * - push `{push, data}` from server to client.
 */

import type { z } from 'zod';
import type { COMMAND_SCHEMAS } from './commands/index.js';
import type {
  downlinkAnswerData, downlinkOffer, empty, flagData, joinData, joinReply, joinThrottled, peerInfo, roleCode, sceneCode, sdpData,
  subscribeData, switchRoleData, unsubscribeData,
} from './commands/index.js';
import type { bannedReason, leaveReason, PUSH_SCHEMAS } from './pushes.js';

// The types below are inferred from the zod schemas in commands/ and pushes.ts (imported as types only,
// so the SDK bundle carries no zod): the schemas are the one source of the wire's shapes.

/** Wire role code: anchor 20, audience 21. */
export type RoleCode = z.infer<typeof roleCode>;
/** Wire scene code: rtc 1, live 2. */
export type SceneCode = z.infer<typeof sceneCode>;
/** A remote user as the server describes it. */
export type PeerInfo = z.infer<typeof peerInfo>;
/** Which of a source user's streams a subscriber wants. */
export type JoinData = z.infer<typeof joinData>;
export type JoinReply = z.infer<typeof joinReply>;
/** The data of a JOIN_THROTTLED reply: when to try again, and the ticket holding the join's place. */
export type JoinThrottled = z.infer<typeof joinThrottled>;
export type SdpData = z.infer<typeof sdpData>;
export type FlagData = z.infer<typeof flagData>;
export type SubscribeData = z.infer<typeof subscribeData>;
export type UnsubscribeData = z.infer<typeof unsubscribeData>;
export type SwitchRoleData = z.infer<typeof switchRoleData>;
export type Empty = z.infer<typeof empty>;
/** Where one subscription's streams arrive on the client's downlink: the mids of its three m-lines. */
/** A server offer for the client's downlink. */
export type DownlinkOffer = z.infer<typeof downlinkOffer>;
export type DownlinkAnswerData = z.infer<typeof downlinkAnswerData>;

/** Every command: its request data and its reply data (from COMMAND_SCHEMAS). */
export type CommandMap = {
  [C in keyof typeof COMMAND_SCHEMAS]: {
    data: z.infer<(typeof COMMAND_SCHEMAS)[C]['data']>;
    reply: z.infer<(typeof COMMAND_SCHEMAS)[C]['reply']>;
  };
};
export type Command = keyof CommandMap;

/**
 * Custom messages on the data link (docs/behaviour.md §3 data channel message): a binary message is a sequence of
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
  /** The command's reply when `code` is 0; a refusal carries data only where its code says so (JOIN_THROTTLED). */
  data?: CommandMap[C]['reply'] | JoinThrottled;
}

/** Why a user left (docs/behaviour.md §3 leave reasons). */
export type LeaveReason = z.infer<typeof leaveReason>;
/** Why the server removed this client (docs/behaviour.md §3 banned reasons). */
export type BannedReason = z.infer<typeof bannedReason>;

/** Every push: its data (from PUSH_SCHEMAS). */
export type PushMap = { [P in keyof typeof PUSH_SCHEMAS]: z.infer<(typeof PUSH_SCHEMAS)[P]> };
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
