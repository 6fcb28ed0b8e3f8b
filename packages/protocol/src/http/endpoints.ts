/** The other HTTP calls of docs/behaviour.md §7: log upload, AI-denoise authorisation, statistics beacon; and health. */
import { z } from 'zod';
import { LOG_CMD_TYPES } from '../endpoints.js';
import { LIMITS } from '../limits.js';
import { httpUserId, positiveIntText } from './fields.js';

/** Query of a log upload. */
export const logUploadQuery = z.object({
  sdkappid: positiveIntText,
  cmdtype: z.enum(LOG_CMD_TYPES),
  /** Cache buster. */
  random: z.string().optional(),
});

/**
 * Body of a log upload: JSON, gzip-compressed when large (`Content-Encoding: gzip`, or a gzip body with any
 * content type). `log` is the log lines joined by newlines.
 */
export const logUploadBody = z.object({
  /** Client time of the upload, ms since the epoch. */
  timestamp: z.number().nonnegative().max(8.64e15),
  sdkAppId: z.int().positive(),
  userId: httpUserId,
  /** SDK version. */
  version: z.string().max(64),
  log: z.string(),
  /** Optional: the room the lines are about (otherwise the server files them under the user's latest room). */
  roomId: z.union([z.int().min(LIMITS.MIN_ROOM_ID).max(LIMITS.MAX_ROOM_ID), z.string().regex(/^\d{1,10}$/)]).optional(),
  strRoomId: z.string().min(1).max(LIMITS.MAX_STR_ROOM_ID_LENGTH).optional(),
  /** Optional, for failure-event uploads. */
  errorInfo: z.object({ message: z.string().max(4096).optional(), stack: z.string().max(16384).optional() }).optional(),
});

/** Body of a statistics beacon (`POST /api/v1/stats`, JSON, gzip allowed). */
export const statsBeaconBody = z.object({
  sdkAppId: z.int().positive(),
  userId: httpUserId.optional(),
  /** SDK basic info: sdk version, terminal type, framework, network type. */
  msg_sdk_basic_info: z.record(z.string().max(64), z.union([z.string().max(256), z.number(), z.boolean()])).optional(),
  /** Counters: key (a number whose last three digits class it, docs/behaviour.md §9) and count. */
  stats_count: z.array(z.object({ key: z.int(), count: z.int().min(0).max(1_000_000) })).max(500).optional(),
  /** Distributions: key and items of key and value. */
  stats_distribution: z.array(z.object({
    key: z.int(),
    items: z.array(z.object({ key: z.union([z.number(), z.string().max(64)]), value: z.number() })).max(100),
  })).max(100).optional(),
});

/** Query of the AI-denoise authorisation. Invalid input is answered 200 with errCode 1 ("check params"). */
export const aiDenoiseAuthQuery = z.object({
  sdkAppId: positiveIntText,
  userId: httpUserId,
  userSig: z.string().min(1).max(4096),
  timestamp: z.string().regex(/^\d{1,16}$/, 'must be a non-negative integer'),
});

/** Reply of the AI-denoise authorisation; `status` 1 means authorised. */
export const aiDenoiseAuthReply = z.object({
  data: z.object({
    /** 0 ok; 1 check params; 2 need to buy package; 3 server invalid; 4 package not active; 5 package expired; 6 version not supported. */
    errCode: z.int(),
    errMsg: z.string(),
    /** HMAC proof of the authorisation (hex), empty when refused. */
    sign: z.string(),
    status: z.literal([0, 1]),
  }),
});

/** Reply of `GET /healthz` (503 with status "degraded" while storage fails). */
export const healthReply = z.object({
  status: z.enum(['ok', 'degraded']),
  rooms: z.int(),
  users: z.int(),
  connections: z.int(),
  storage: z.enum(['ok', 'failing']),
  uptimeSeconds: z.int(),
});

/** Reply of `GET /api/dev/app` (dev mode, loopback clients only): the dev app's keys. */
export const devAppReply = z.object({ sdkAppId: z.int(), secretKey: z.string(), adminKey: z.string().optional() });
