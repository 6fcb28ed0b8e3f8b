import { createHmac } from 'node:crypto';
import { SERVER_CODE, type AiDenoiseAuthReply } from '@conclave/protocol';
import type { aiDenoiseAuthQuery } from '@conclave/protocol/schemas';
import type { z } from 'zod';
import type { Authenticator } from '../auth/authenticator.js';
import type { ServerConfig } from '../config/config.js';
import { roomRef } from '../ids/room-ref.js';
import type { KeyedRateLimiter } from '../limits/rate-limiter.js';
import type { Metrics } from '../ops/metrics.js';
import type { RoomRegistry } from '../room/room.js';
import { LogQuotaError } from '../store/log-quota.js';
import type { Store } from '../store/store.js';
import { HttpError } from './respond.js';
import type { Bindings } from './router.js';

/** What the SDK's endpoints (log upload, statistics beacon, AI-denoise authorisation) work with. */
export interface SdkEndpointDeps {
  config: ServerConfig;
  auth: Authenticator;
  /** The room a user was last in, for uploads that name none. */
  rooms: Pick<RoomRegistry, 'lastRoomOf'>;
  store: Pick<Store, 'insertUploadedLog'>;
  metrics: Pick<Metrics, 'logUpload' | 'logsDropped' | 'beacon'>;
  /** Log uploads and statistics beacons per client address. */
  uploads: KeyedRateLimiter;
}

/** Largest statistics beacon body. */
const BEACON_LIMIT_BYTES = 64 * 1024;

function limitRate(ctx: SdkEndpointDeps, address: string): void {
  if (!ctx.uploads.take(address)) {
    throw new HttpError(429, SERVER_CODE.RATE_LIMITED, `too many uploads from this address (${ctx.config.limits.logUploadsPerMinute} per minute)`);
  }
}

function knownApp(ctx: SdkEndpointDeps, sdkAppId: number): void {
  if (!ctx.auth.hasApp(sdkAppId)) throw new HttpError(404, SERVER_CODE.UNKNOWN_APP, `sdkAppId ${sdkAppId} is not configured on this server`);
}

type AiDenoiseAuthFields = z.infer<typeof aiDenoiseAuthQuery>;

/** AI-denoise authorisation error codes (docs/behaviour.md §8). */
const AI_ERR = { PARAMS: 1, NEED_PACKAGE: 2, SERVER: 3, PACKAGE_EXPIRED: 5 } as const;
const aiRefusal = (errCode: number, errMsg: string): AiDenoiseAuthReply => ({ data: { errCode, errMsg, sign: '', status: 0 } });

/**
 * AI-denoise authorisation: checks the userSig and the app's billing; `sign` is HMAC-SHA256(app secret,
 * "sdkAppId:userId:timestamp") in hex. Refusals are 200 with an errCode; past limits.credentialChecksPerMinute
 * requests from one address, errCode 3 before anything is checked.
 */
async function authoriseAiDenoise(ctx: SdkEndpointDeps, address: string, read: () => Promise<AiDenoiseAuthFields>): Promise<AiDenoiseAuthReply> {
  if (!ctx.auth.limits.takeCheck('ai-denoise-auth', address)) {
    return aiRefusal(AI_ERR.SERVER, `too many authorisation requests from this address (${ctx.config.limits.credentialChecksPerMinute} per minute)`);
  }
  const fields = await read();
  const sdkAppId = Number(fields.sdkAppId);
  const auth = await ctx.auth.verify(sdkAppId, fields.userId, fields.userSig);
  if (!auth.ok) return aiRefusal(AI_ERR.PARAMS, `check params: ${auth.message}`);
  const billing = ctx.auth.billing(sdkAppId);
  if (!billing.ok) return aiRefusal(billing.code === SERVER_CODE.NEED_PACKAGE ? AI_ERR.NEED_PACKAGE : AI_ERR.PACKAGE_EXPIRED, billing.message);
  const secret = ctx.auth.app(sdkAppId)!.secretKey;
  const sign = createHmac('sha256', secret).update(`${sdkAppId}:${fields.userId}:${fields.timestamp}`).digest('hex');
  return { data: { errCode: 0, errMsg: '', sign, status: 1 } };
}

/** The endpoints the SDK calls besides scheduling (docs/behaviour.md §7): log upload, statistics beacon, AI-denoise authorisation. */
export function sdkEndpoints(ctx: SdkEndpointDeps): Bindings<'uploadLog' | 'statsBeacon' | 'aiDenoiseAuth' | 'aiDenoiseAuthForm'> {
  return {
    /**
     * Log upload: validated, size- and rate-limited, stored; filed under the body's room when it names one,
     * else under the room the user joined last.
     */
    uploadLog: {
      bodyLimit: () => ctx.config.limits.logUploadBytes,
      handle: async ({ query, body, address }) => {
        const sdkAppId = Number(query.sdkappid);
        knownApp(ctx, sdkAppId);
        limitRate(ctx, address);
        const log = await body();
        if (log.sdkAppId !== sdkAppId) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'body sdkAppId differs from the sdkappid query parameter');
        const ref = log.strRoomId !== undefined ? roomRef(log.strRoomId, true)
          : log.roomId !== undefined ? roomRef(String(log.roomId), false)
            : ctx.rooms.lastRoomOf(sdkAppId, log.userId) ?? null;
        const text = log.errorInfo ? `${log.log}\n[errorInfo] ${log.errorInfo.message ?? ''}\n${log.errorInfo.stack ?? ''}` : log.log;
        // Uploads need no credential: what they may store is bounded (docs/behaviour.md §10.1: the oldest go first).
        const quota = { perAppBytes: ctx.config.limits.logBytesPerApp, totalBytes: ctx.config.limits.logBytesTotal };
        let dropped: { app: number; total: number };
        try {
          ({ dropped } = ctx.store.insertUploadedLog({
            sdkAppId, roomRef: ref, userId: log.userId, cmdType: query.cmdtype, version: log.version,
            clientTime: Math.trunc(log.timestamp), receivedAt: Date.now(), log: text,
          }, quota));
        } catch (error) {
          if (error instanceof LogQuotaError) throw new HttpError(413, SERVER_CODE.MESSAGE_TOO_LARGE, error.message);
          throw error;
        }
        ctx.metrics.logUpload(query.cmdtype);
        ctx.metrics.logsDropped('app_quota', dropped.app);
        ctx.metrics.logsDropped('total_quota', dropped.total);
        return { code: 0, message: 'ok' };
      },
    },
    /** The statistics beacon: validated, rate-limited, counted in the metrics. */
    statsBeacon: {
      bodyLimit: () => BEACON_LIMIT_BYTES,
      handle: async ({ body, address }) => {
        limitRate(ctx, address);
        const beacon = await body();
        knownApp(ctx, beacon.sdkAppId);
        ctx.metrics.beacon(beacon.stats_count ?? []);
        return { code: 0, message: 'ok' };
      },
    },
    /** AI-denoise authorisation, the original's GET (the userSig in the query). */
    aiDenoiseAuth: {
      refuse: (error) => aiRefusal(AI_ERR.PARAMS, `check params: ${error.message}`),
      handle: ({ query, address }) => authoriseAiDenoise(ctx, address, async () => query),
    },
    /** AI-denoise authorisation with the fields in a form body (what Conclave's SDK sends: no userSig in URLs). */
    aiDenoiseAuthForm: {
      refuse: (error) => aiRefusal(AI_ERR.PARAMS, `check params: ${error.message}`),
      handle: ({ body, address }) => authoriseAiDenoise(ctx, address, body),
    },
  };
}
