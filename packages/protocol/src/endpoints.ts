/**
 * The server's HTTP endpoints that the SDK calls besides scheduling (SPEC §7): log upload,
 * AI-denoise authorisation and the statistics beacon. Paths, request bodies and replies.
 */

/** Log upload (SPEC §7): `POST {loggerDomain}/v5/AVQualityReportSvc/C2S?random=&sdkappid=&cmdtype=`. */
export const LOG_UPLOAD_PATH = '/v5/AVQualityReportSvc/C2S';

/** The `cmdtype` query values of a log upload. */
export const LOG_CMD_TYPES = Object.freeze(['jssdk_log', 'jssdk_event', 'jssdk_new_endreport', 'jssdk_key_metrics_report'] as const);
export type LogCmdType = (typeof LOG_CMD_TYPES)[number];

/**
 * Body of a log upload: JSON, gzip-compressed when large (`Content-Encoding: gzip`, or a gzip body with any
 * content type). `log` is the log lines joined by newlines.
 */
export interface LogUploadBody {
  /** Client time of the upload, ms since the epoch. */
  timestamp: number;
  sdkAppId: number;
  userId: string;
  /** SDK version. */
  version: string;
  log: string;
  /** Optional: the room the lines are about (otherwise the server files them under the user's latest room). */
  roomId?: number | string;
  strRoomId?: string;
  /** Optional, for failure-event uploads. */
  errorInfo?: { message?: string; stack?: string };
}

/** Reply of the log upload, the statistics beacon and every HTTP error: `code` 0 is success. */
export interface EndpointReply {
  code: number;
  message: string;
}

/** AI-denoise authorisation (SPEC §7): `GET /api/v1/audioAiAuth?sdkAppId=&userId=&userSig=&timestamp=`. */
export const AI_DENOISE_AUTH_PATH = '/api/v1/audioAiAuth';

/** Reply of the AI-denoise authorisation; `status` 1 means authorised. */
export interface AiDenoiseAuthReply {
  data: {
    /** 0 ok; 1 check params; 2 need to buy package; 3 server invalid; 4 package not active; 5 package expired; 6 version not supported. */
    errCode: number;
    errMsg: string;
    /** HMAC proof of the authorisation (hex), empty when refused. */
    sign: string;
    status: 0 | 1;
  };
}

/** The statistics beacon (SPEC §7, path not shown there): `POST /api/v1/stats`, JSON (gzip allowed). */
export const STATS_BEACON_PATH = '/api/v1/stats';

/** Body of a statistics beacon. */
export interface StatsBeaconBody {
  sdkAppId: number;
  userId?: string;
  /** SDK basic info: sdk version, terminal type, framework, network type. */
  msg_sdk_basic_info?: Record<string, string | number | boolean>;
  /** Counters: key (a number whose last three digits class it, SPEC §9) and count. */
  stats_count?: { key: number; count: number }[];
  /** Distributions: key and items of key and value. */
  stats_distribution?: { key: number; items: { key: number | string; value: number }[] }[];
}
