import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LIMITS, LOG_CMD_TYPES, SERVER_CODE, type AiDenoiseAuthReply, type EndpointReply, type LogCmdType } from '@conclave/protocol';
import { z } from 'zod';
import { formatIssues } from '../config/schema.js';
import type { ServerContext } from '../context.js';
import { roomRef } from '../room/room-ref.js';
import { HttpError, readJson } from './respond.js';

const USER_ID = z.string().min(1).max(LIMITS.MAX_USER_ID_LENGTH * 4);

const logBodySchema = z.object({
  timestamp: z.number().finite().nonnegative().max(8.64e15),
  sdkAppId: z.number().int().positive(),
  userId: USER_ID,
  version: z.string().max(64),
  log: z.string(),
  roomId: z.union([z.number().int().min(LIMITS.MIN_ROOM_ID).max(LIMITS.MAX_ROOM_ID), z.string().regex(/^\d{1,10}$/)]).optional(),
  strRoomId: z.string().min(1).max(LIMITS.MAX_STR_ROOM_ID_LENGTH).optional(),
  errorInfo: z.object({ message: z.string().max(4096).optional(), stack: z.string().max(16384).optional() }).optional(),
});

const beaconSchema = z.object({
  sdkAppId: z.number().int().positive(),
  userId: USER_ID.optional(),
  msg_sdk_basic_info: z.record(z.string().max(64), z.union([z.string().max(256), z.number(), z.boolean()])).optional(),
  stats_count: z.array(z.object({ key: z.number().int(), count: z.number().int().min(0).max(1_000_000) })).max(500).optional(),
  stats_distribution: z.array(z.object({
    key: z.number().int(),
    items: z.array(z.object({ key: z.union([z.number(), z.string().max(64)]), value: z.number() })).max(100),
  })).max(100).optional(),
});

/** Largest statistics beacon body. */
const BEACON_LIMIT_BYTES = 64 * 1024;

function invalid(error: z.ZodError): HttpError {
  return new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `invalid body: ${formatIssues(error)}`);
}

function positiveInt(value: string | null, name: string): number {
  const n = Number(value);
  if (value === null || !/^\d{1,10}$/.test(value) || !Number.isSafeInteger(n) || n <= 0) {
    throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `${name} must be a positive integer`);
  }
  return n;
}

function limitRate(ctx: ServerContext, address: string): void {
  if (!ctx.uploads.take(address)) {
    throw new HttpError(429, SERVER_CODE.RATE_LIMITED, `too many uploads from this address (${ctx.config.limits.logUploadsPerMinute} per minute)`);
  }
}

/**
 * Log upload (SPEC §7): POST /v5/AVQualityReportSvc/C2S?random=&sdkappid=&cmdtype=, JSON body
 * {timestamp, sdkAppId, userId, version, log}, gzip allowed. Validated, size- and rate-limited, stored;
 * filed under the body's room when it names one, else under the room the user joined last.
 */
export async function handleLogUpload(ctx: ServerContext, req: IncomingMessage, url: URL, address: string): Promise<EndpointReply> {
  const sdkAppId = positiveInt(url.searchParams.get('sdkappid'), 'sdkappid');
  const cmdType = url.searchParams.get('cmdtype') ?? '';
  if (!(LOG_CMD_TYPES as readonly string[]).includes(cmdType)) {
    throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, `cmdtype must be one of ${LOG_CMD_TYPES.join(', ')}`);
  }
  if (!ctx.auth.hasApp(sdkAppId)) throw new HttpError(404, SERVER_CODE.UNKNOWN_APP, `sdkAppId ${sdkAppId} is not configured on this server`);
  limitRate(ctx, address);
  const parsed = logBodySchema.safeParse(await readJson(req, ctx.config.limits.logUploadBytes));
  if (!parsed.success) throw invalid(parsed.error);
  const body = parsed.data;
  if (body.sdkAppId !== sdkAppId) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'body sdkAppId differs from the sdkappid query parameter');
  const ref = body.strRoomId !== undefined ? roomRef(body.strRoomId, true)
    : body.roomId !== undefined ? roomRef(String(body.roomId), false)
      : ctx.rooms.lastRoomOf(sdkAppId, body.userId) ?? null;
  const log = body.errorInfo ? `${body.log}\n[errorInfo] ${body.errorInfo.message ?? ''}\n${body.errorInfo.stack ?? ''}` : body.log;
  ctx.store.insertLog({
    sdkAppId, roomRef: ref, userId: body.userId, cmdType: cmdType as LogCmdType, version: body.version,
    clientTime: Math.trunc(body.timestamp), receivedAt: Date.now(), log,
  });
  ctx.metrics.logUpload(cmdType);
  return { code: 0, message: 'ok' };
}

/** The statistics beacon: validated, rate-limited, counted in the metrics. */
export async function handleStatsBeacon(ctx: ServerContext, req: IncomingMessage, address: string): Promise<EndpointReply> {
  limitRate(ctx, address);
  const parsed = beaconSchema.safeParse(await readJson(req, BEACON_LIMIT_BYTES));
  if (!parsed.success) throw invalid(parsed.error);
  if (!ctx.auth.hasApp(parsed.data.sdkAppId)) throw new HttpError(404, SERVER_CODE.UNKNOWN_APP, `sdkAppId ${parsed.data.sdkAppId} is not configured on this server`);
  ctx.metrics.beacon(parsed.data.stats_count ?? []);
  return { code: 0, message: 'ok' };
}

/** AI-denoise authorisation error codes (SPEC §8). */
const AI_ERR = { PARAMS: 1, NEED_PACKAGE: 2, PACKAGE_EXPIRED: 5 } as const;

/**
 * AI-denoise authorisation (SPEC §7): GET /api/v1/audioAiAuth?sdkAppId&userId&userSig&timestamp. Checks
 * the userSig and the app's billing; `sign` is HMAC-SHA256(app secret, "sdkAppId:userId:timestamp") in hex.
 */
export async function handleAiDenoiseAuth(ctx: ServerContext, url: URL): Promise<AiDenoiseAuthReply> {
  const refuse = (errCode: number, errMsg: string): AiDenoiseAuthReply => ({ data: { errCode, errMsg, sign: '', status: 0 } });
  const q = url.searchParams;
  const sdkAppId = Number(q.get('sdkAppId'));
  const userId = q.get('userId') ?? '';
  const userSig = q.get('userSig') ?? '';
  const timestamp = q.get('timestamp') ?? '';
  if (!/^\d{1,10}$/.test(q.get('sdkAppId') ?? '') || sdkAppId <= 0) return refuse(AI_ERR.PARAMS, 'check params: sdkAppId must be a positive integer');
  if (!userId || userId.length > LIMITS.MAX_USER_ID_LENGTH * 4) return refuse(AI_ERR.PARAMS, 'check params: userId is required');
  if (!userSig || userSig.length > 4096) return refuse(AI_ERR.PARAMS, 'check params: userSig is required');
  if (!/^\d{1,16}$/.test(timestamp)) return refuse(AI_ERR.PARAMS, 'check params: timestamp must be a non-negative integer');
  const auth = await ctx.auth.verify(sdkAppId, userId, userSig);
  if (!auth.ok) return refuse(AI_ERR.PARAMS, `check params: ${auth.message}`);
  const billing = ctx.auth.billing(sdkAppId);
  if (!billing.ok) return refuse(billing.code === SERVER_CODE.NEED_PACKAGE ? AI_ERR.NEED_PACKAGE : AI_ERR.PACKAGE_EXPIRED, billing.message);
  const secret = ctx.auth.app(sdkAppId)!.secretKey;
  const sign = createHmac('sha256', secret).update(`${sdkAppId}:${userId}:${timestamp}`).digest('hex');
  return { data: { errCode: 0, errMsg: '', sign, status: 1 } };
}
