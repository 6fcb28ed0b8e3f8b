/** Admin REST API: path parameters, queries, bodies and replies (served as OpenAPI at /admin/openapi.json). */
import { z } from 'zod';
import { LOG_CMD_TYPES } from '../endpoints.js';
import { dateTime } from './fields.js';

const ROOM_KEY_TEXT = 'The room: the integer room id ("1234"), or "s:" followed by the string room id ("s:lobby"), URL-encoded.';

/** Path parameters of the admin routes (only the ones a route's path names are read). */
export const adminParams = z.object({
  sdkAppId: z.string().meta({ description: "The app; the admin key must be this app's." }),
  roomKey: z.string().min(1).meta({ description: ROOM_KEY_TEXT, examples: ['1234', 's:lobby'] }),
  userId: z.string().min(1).meta({ description: 'The user id, URL-encoded.' }),
});

/** Publish flags decoded: what a user sends and what it has muted. */
export const adminStreams = z.object({
  audio: z.boolean(), video: z.boolean(), small: z.boolean(), aux: z.boolean(),
  audioMuted: z.boolean(), videoMuted: z.boolean(), auxMuted: z.boolean(),
});

/** An app as its admin sees it. */
export const adminAppInfo = z.object({
  sdkAppId: z.int(),
  name: z.string().nullable(),
  billing: z.enum(['active', 'no-package', 'out-of-credit']),
  requirePrivateMapKey: z.boolean(),
  rooms: z.int(),
  users: z.int(),
}).meta({ id: 'App' });

/** An app's event callbacks: where they go, what is queued, how delivery went since the server started. */
export const adminCallbacksReply = z.object({
  url: z.string().nullable().describe('The callback URL, or null when the app has none.'),
  queued: z.int().describe('Callbacks waiting to be delivered (kept across restarts).'),
  oldestQueuedAt: z.int().nullable().describe('When the oldest queued callback was queued, ms since the epoch.'),
  lastError: z.string().nullable().describe('Why the oldest failing queued callback failed last.'),
  delivered: z.int(),
  failures: z.int().describe('Failed attempts (each is retried).'),
  dropped: z.int().describe('Callbacks given up: the queue was full, or retried past callbackMaxAgeSeconds.'),
}).meta({ id: 'Callbacks' });

/** A room as the admin API lists it. */
export const adminRoom = z.object({
  /** The room's key in admin paths: "1234" (integer room id) or "s:name" (string room id). */
  roomKey: z.string().meta({ description: '"1234" or "s:name".' }),
  roomId: z.int().optional().meta({ description: 'For integer rooms.' }),
  strRoomId: z.string().optional().meta({ description: 'For string rooms.' }),
  users: z.int(),
  anchors: z.int(),
  audience: z.int(),
  /** Published streams: audio + video + aux over all users. */
  streams: z.int().meta({ description: 'Published audio, video and screen streams.' }),
  createdAt: dateTime,
}).meta({ id: 'Room' });

/** A user as the admin API shows it. */
export const adminUser = z.object({
  userId: z.string(),
  tinyId: z.string(),
  role: z.enum(['anchor', 'audience']),
  /** Publish flag bits (docs/behaviour.md §3) and what they mean. */
  flag: z.int().meta({ description: 'Publish flag bits (video 1, small 2, aux 4, audio 8, video-mute 16, aux-mute 32, audio-mute 64).' }),
  streams: adminStreams,
  /** False while the connection dropped and the session waits to be resumed. */
  connected: z.boolean().meta({ description: 'False while a dropped connection waits to be resumed.' }),
  joinedAt: dateTime,
  /** Users this user receives from. */
  subscriptions: z.array(z.string()).meta({ description: 'Users this user receives from.' }),
}).meta({ id: 'User' });

/** A ban: the user cannot join the room until `until`. */
export const adminBan = z.object({
  roomKey: z.string(),
  userId: z.string(),
  until: dateTime,
  reason: z.string(),
  createdAt: dateTime,
}).meta({ id: 'Ban' });

/** A stored log upload. */
export const adminLog = z.object({
  id: z.int(),
  roomKey: z.string().nullable(),
  userId: z.string(),
  cmdType: z.string(),
  version: z.string(),
  clientTime: dateTime.nullable(),
  receivedAt: dateTime,
  log: z.string(),
}).meta({ id: 'Log' });

export const adminRoomsReply = z.object({ rooms: z.array(adminRoom) });
/** A server-side robot in a room: a live transcriber (RealtimeTranscriber) and what it has done. */
export const adminRobot = z.object({
  robotId: z.string(),
  kind: z.enum(['transcriber']),
  /** The recognizer engine (pocketsphinx, or the configured command's name). */
  engine: z.string().meta({ description: 'The recognizer engine: pocketsphinx, or the configured command\'s name.' }),
  sourceLanguage: z.string(),
  speakers: z.array(z.object({ userId: z.string(), audioSeconds: z.number() })).meta({ description: 'The users being transcribed now.' }),
  sentences: z.int().meta({ description: 'Final sentences pushed.' }),
  audioSeconds: z.number().meta({ description: 'Audio fed to the recognizer, seconds.' }),
  failures: z.int().meta({ description: 'Recognizer or decoder failures (each retried; 5 in a minute stop the robot).' }),
  lastFinalLatencyMs: z.number().nullable().meta({ description: 'Of the last final sentence: ms from its last audio reaching the server to its push.' }),
}).meta({ id: 'Robot' });

export const adminRoomDetail = adminRoom.extend({ userList: z.array(adminUser), robots: z.array(adminRobot).meta({ description: 'Server-side robots in the room.' }) });
export const adminUsersReply = z.object({ users: z.array(adminUser) });
export const adminBansReply = z.object({ bans: z.array(adminBan) });

export const adminKickBody = z.strictObject({ reason: z.string().max(256).optional() });
export const adminKickReply = z.object({ kicked: z.boolean(), userId: z.string(), roomKey: z.string() });
export const adminBanBody = z.strictObject({
  seconds: z.int().min(1).max(365 * 24 * 3600).optional().meta({ description: 'Default: limits.banSeconds (600).' }),
  reason: z.string().max(256).optional(),
});
export const adminBanReply = z.object({ banned: z.boolean(), userId: z.string(), roomKey: z.string(), until: dateTime, wasInRoom: z.boolean() });
export const adminUnbanReply = z.object({ unbanned: z.boolean(), userId: z.string(), roomKey: z.string() });
export const adminDismissReply = z.object({ dismissed: z.boolean(), roomKey: z.string(), users: z.array(z.string()) });

/** Filters of the stored logs (empty values count as absent). */
export const adminLogsQuery = z.object({
  roomKey: z.string().optional().meta({ description: 'Only logs filed under this room (same form as the roomKey path parameter).' }),
  userId: z.string().optional(),
  cmdType: z.enum([...LOG_CMD_TYPES, 'server_event']).optional(),
  from: z.string().optional().meta({ description: 'Received at or after: ms since the epoch or an ISO 8601 date.' }),
  to: z.string().optional().meta({ description: 'Received before: ms since the epoch or an ISO 8601 date.' }),
  before: z.string().regex(/^\d{1,15}$/, 'must be a log id').refine((v) => Number(v) >= 1, 'must be a log id').optional().meta({ description: 'Only logs with an id below this (paging cursor).' }),
  limit: z.string().regex(/^\d{1,4}$/, 'must be an integer in [1, 1000]').refine((v) => Number(v) >= 1 && Number(v) <= 1000, 'must be an integer in [1, 1000]').optional()
    .meta({ description: 'At most this many logs (1 to 1000, default 100).' }),
});
export const adminLogsReply = z.object({
  logs: z.array(adminLog),
  next: z.int().nullable().meta({ description: 'Pass as `before` for the next page; null on the last page.' }),
});
