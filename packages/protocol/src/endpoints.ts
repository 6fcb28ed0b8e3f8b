/**
 * The server's HTTP endpoints that the SDK calls besides scheduling (docs/behaviour.md §7): log upload,
 * AI-denoise authorisation and the statistics beacon. Paths, request bodies and replies.
 */
import type { z } from 'zod';
import type { aiDenoiseAuthReply, logUploadBody, statsBeaconBody } from './http/endpoints.js';
import type { endpointReply } from './http/fields.js';

/** Log upload (docs/behaviour.md §7): `POST {loggerDomain}/v5/AVQualityReportSvc/C2S?random=&sdkappid=&cmdtype=`. */
export const LOG_UPLOAD_PATH = '/v5/AVQualityReportSvc/C2S';

/** The `cmdtype` query values of a log upload. */
export const LOG_CMD_TYPES = Object.freeze(['jssdk_log', 'jssdk_event', 'jssdk_new_endreport', 'jssdk_key_metrics_report'] as const);
export type LogCmdType = (typeof LOG_CMD_TYPES)[number];

/** Body of a log upload (schema: http/endpoints.ts): JSON, gzip-compressed when large. */
export type LogUploadBody = z.input<typeof logUploadBody>;

/** Reply of the log upload, the statistics beacon and every HTTP error: `code` 0 is success. */
export type EndpointReply = z.infer<typeof endpointReply>;

/** AI-denoise authorisation (docs/behaviour.md §7): `GET /api/v1/audioAiAuth?sdkAppId=&userId=&userSig=&timestamp=`. */
export const AI_DENOISE_AUTH_PATH = '/api/v1/audioAiAuth';

/** Reply of the AI-denoise authorisation; `status` 1 means authorised. */
export type AiDenoiseAuthReply = z.infer<typeof aiDenoiseAuthReply>;

/** The statistics beacon (docs/behaviour.md §7, path not shown there): `POST /api/v1/stats`, JSON (gzip allowed). */
export const STATS_BEACON_PATH = '/api/v1/stats';

/** Body of a statistics beacon. */
export type StatsBeaconBody = z.input<typeof statsBeaconBody>;
