/**
 * Every HTTP route of the server with its schemas: the server routes and validates by this table, and
 * openApiDocument() describes it. A new endpoint is one entry here plus its handler in the server.
 */
import { z } from 'zod';
import { MIX_IMAGE_LIMITS } from '../cdn.js';
import { AI_DENOISE_AUTH_PATH, LOG_UPLOAD_PATH, STATS_BEACON_PATH } from '../endpoints.js';
import { SCHEDULE_PATH } from '../schedule.js';
import {
  adminAppInfo, adminBanBody, adminCallbacksReply, adminBanReply, adminBansReply, adminDismissReply, adminKickBody, adminKickReply, adminLogsQuery,
  adminLogsReply, adminParams, adminRoomDetail, adminRoomsReply, adminUnbanReply, adminUsersReply,
} from './admin.js';
import {
  aiDenoiseAuthQuery, aiDenoiseAuthReply, devAppReply, healthReply, logUploadBody, logUploadQuery, statsBeaconBody,
} from './endpoints.js';
import { endpointReply } from './fields.js';
import {
  adminDeleteMixImageReply, adminDeleteRecordingReply, adminJobsReply, adminMixImage, adminMixImagesReply, adminMediaParams, adminRecordingsReply, adminStartRecordingBody, adminStartRecordingReply,
  adminStopJobReply, adminStopRecordingReply,
} from './media.js';
import { scheduleRequest, scheduleResponse } from './schedule.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One route: where, what it takes, what it answers. */
export interface RouteSpec {
  method: HttpMethod;
  /** OpenAPI path template, e.g. /admin/v1/apps/{sdkAppId}/rooms/{roomKey}. */
  path: string;
  summary: string;
  description?: string;
  tag: 'sdk' | 'admin' | 'ops' | 'dev';
  /** Admin routes need the app's admin key (Authorization: Bearer). */
  adminKey?: boolean;
  /** Path parameters (the names in `path`). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /**
   * Request body and its media type. An `image/*` body is raw bytes (the handler checks them; the schema
   * only describes it).
   */
  body?: { schema: z.ZodType; type: 'application/json' | 'application/x-www-form-urlencoded' | 'image/*'; required: boolean };
  /** The 200 reply and its media type (JSON unless said; a file download is `video/mp4`). */
  reply: { schema: z.ZodType; description: string; type?: 'application/json' | 'text/plain' | 'video/mp4' };
  /** Error statuses (answered as `{code, message}`) and when. */
  errors?: Record<number, string>;
}

const ADMIN_ERRORS = {
  401: 'No admin key (code -2001).',
  403: 'The admin key is not valid for this sdkAppId, or no such app (code -2002). Every other app answers alike.',
  429: 'Too many failed admin keys from this address (code -1005).',
};
const APP = '/admin/v1/apps/{sdkAppId}';
const ROOM = `${APP}/rooms/{roomKey}`;
const USER = `${ROOM}/users/{userId}`;
const appParams = adminParams.pick({ sdkAppId: true });
const roomParams = adminParams.pick({ sdkAppId: true, roomKey: true });
const userParams = adminParams;
const json = 'application/json' as const;
const jobParams = adminMediaParams.pick({ sdkAppId: true, jobId: true });
const recordingParams = adminMediaParams.pick({ sdkAppId: true, recordingId: true });
const imageParams = adminMediaParams.pick({ sdkAppId: true, name: true });

/** Every route, by operation id. */
export const HTTP_ROUTES = {
  schedule: {
    method: 'POST', path: SCHEDULE_PATH, tag: 'sdk',
    summary: 'Scheduling: the signalling domains, ICE servers and client config (docs/behaviour.md §7)',
    description: 'Checks the app and the userSig. Refusals are status 200 with a nonzero `code` and `msg`.',
    body: { schema: scheduleRequest, type: 'application/x-www-form-urlencoded', required: true },
    reply: { schema: scheduleResponse, description: 'The schedule, or a refusal.' },
  },
  uploadLog: {
    method: 'POST', path: LOG_UPLOAD_PATH, tag: 'sdk',
    summary: 'Log upload (docs/behaviour.md §7)',
    description: 'JSON, gzip allowed (Content-Encoding: gzip, or gzip magic bytes with any content type); at most limits.logUploadBytes before and after decompression. Filed under the body\'s room, else the room the user joined last.',
    query: logUploadQuery,
    body: { schema: logUploadBody, type: json, required: true },
    reply: { schema: endpointReply, description: 'Stored (code 0).' },
    errors: { 400: 'Invalid query or body (code -1003), or bad gzip (code -2005).', 404: 'Unknown sdkAppId.', 413: 'Body too large (code -1009).', 429: 'Too many uploads from this address (code -1005).' },
  },
  statsBeacon: {
    method: 'POST', path: STATS_BEACON_PATH, tag: 'sdk',
    summary: 'Statistics beacon: counted in the metrics',
    body: { schema: statsBeaconBody, type: json, required: true },
    reply: { schema: endpointReply, description: 'Counted (code 0).' },
    errors: { 400: 'Invalid body (code -1003).', 404: 'Unknown sdkAppId.', 413: 'Body too large.', 429: 'Too many beacons from this address.' },
  },
  aiDenoiseAuth: {
    method: 'GET', path: AI_DENOISE_AUTH_PATH, tag: 'sdk',
    summary: 'AI-denoise authorisation (docs/behaviour.md §7)',
    description: 'Refusals are status 200 with errCode 1 (check params), 2 (need to buy package), 3 (too many requests from this address) or 5 (package expired). The POST form (aiDenoiseAuthForm) keeps the userSig out of the URL.',
    query: aiDenoiseAuthQuery,
    reply: { schema: aiDenoiseAuthReply, description: 'Authorised (status 1, sign = HMAC-SHA256(secret, "sdkAppId:userId:timestamp")) or refused.' },
  },
  aiDenoiseAuthForm: {
    method: 'POST', path: AI_DENOISE_AUTH_PATH, tag: 'sdk',
    summary: 'AI-denoise authorisation with the fields in a form body, keeping the userSig out of URLs and their logs',
    description: 'As the GET, with the same fields as form data (what Conclave\'s SDK sends). Refusals are status 200 with errCode 1 (check params), 2 (need to buy package), 3 (too many requests from this address) or 5 (package expired).',
    body: { schema: aiDenoiseAuthQuery, type: 'application/x-www-form-urlencoded', required: true },
    reply: { schema: aiDenoiseAuthReply, description: 'Authorised (status 1) or refused.' },
  },
  health: {
    method: 'GET', path: '/healthz', tag: 'ops',
    summary: 'Health: rooms, users, connections, storage',
    reply: { schema: healthReply, description: 'Healthy; status 503 with status "degraded" while storage fails.' },
  },
  metrics: {
    method: 'GET', path: '/metrics', tag: 'ops',
    summary: 'Prometheus metrics',
    reply: { schema: z.string(), description: 'Prometheus text format.', type: 'text/plain' },
  },
  openApi: {
    method: 'GET', path: '/admin/openapi.json', tag: 'ops',
    summary: 'This OpenAPI description (no key needed)',
    reply: { schema: z.record(z.string(), z.unknown()), description: 'The OpenAPI 3 document.' },
  },
  devApp: {
    method: 'GET', path: '/api/dev/app', tag: 'dev',
    summary: "The dev app's keys (dev mode only, this machine's clients only)",
    reply: { schema: devAppReply, description: 'The dev app.' },
    errors: { 404: 'Not in dev mode, or not a loopback client.' },
  },
  getApp: {
    method: 'GET', path: APP, tag: 'admin', adminKey: true, params: appParams,
    summary: 'The app: name, billing state, rooms and users now',
    reply: { schema: adminAppInfo, description: 'The app.' },
    errors: ADMIN_ERRORS,
  },
  getCallbacks: {
    method: 'GET', path: `${APP}/callbacks`, tag: 'admin', adminKey: true, params: appParams,
    summary: "The app's event callbacks: URL, queue and delivery",
    description: 'Room, media and recording events are queued in the store and POSTed to the app\'s callback URL in TRTC\'s callback format (docs/behaviour.md §11).',
    reply: { schema: adminCallbacksReply, description: 'The callbacks.' },
    errors: ADMIN_ERRORS,
  },
  listRooms: {
    method: 'GET', path: `${APP}/rooms`, tag: 'admin', adminKey: true, params: appParams,
    summary: 'Rooms with users in them',
    reply: { schema: adminRoomsReply, description: 'The rooms.' },
    errors: ADMIN_ERRORS,
  },
  getRoom: {
    method: 'GET', path: ROOM, tag: 'admin', adminKey: true, params: roomParams,
    summary: 'One room and its users',
    reply: { schema: adminRoomDetail, description: 'The room.' },
    errors: { 400: 'Invalid roomKey (code -1003).', ...ADMIN_ERRORS, 404: 'Nobody is in this room (code -2003).' },
  },
  listUsers: {
    method: 'GET', path: `${ROOM}/users`, tag: 'admin', adminKey: true, params: roomParams,
    summary: 'The users of a room and their streams',
    reply: { schema: adminUsersReply, description: 'The users.' },
    errors: { 400: 'Invalid roomKey (code -1003).', ...ADMIN_ERRORS, 404: 'Nobody is in this room (code -2003).' },
  },
  kickUser: {
    method: 'POST', path: `${USER}/kick`, tag: 'admin', adminKey: true, params: userParams,
    summary: 'Removes a user from the room',
    description: "The user's client gets the `banned` push with reason `kick` (the SDK emits kicked-out with reason 'kick'); the others see the user leave. The user may join again.",
    body: { schema: adminKickBody, type: json, required: false },
    reply: { schema: adminKickReply, description: 'Kicked.' },
    errors: { 400: 'Invalid roomKey or body (code -1003).', ...ADMIN_ERRORS, 404: 'The user is not in this room (code -2003).' },
  },
  banUser: {
    method: 'POST', path: `${USER}/ban`, tag: 'admin', adminKey: true, params: userParams,
    summary: 'Bans a user from the room for a time',
    description: 'A user in the room gets the `banned` push with reason `banned` and is removed; joins of this user to this room are refused with code -1011 until the ban ends. Bans survive restarts.',
    body: { schema: adminBanBody, type: json, required: false },
    reply: { schema: adminBanReply, description: 'Banned.' },
    errors: { 400: 'Invalid roomKey or body (code -1003).', ...ADMIN_ERRORS },
  },
  unbanUser: {
    method: 'DELETE', path: `${USER}/ban`, tag: 'admin', adminKey: true, params: userParams,
    summary: 'Lifts a ban',
    reply: { schema: adminUnbanReply, description: 'Lifted.' },
    errors: { 400: 'Invalid roomKey (code -1003).', ...ADMIN_ERRORS, 404: 'No such ban (code -2003).' },
  },
  listBans: {
    method: 'GET', path: `${APP}/bans`, tag: 'admin', adminKey: true, params: appParams,
    summary: 'Bans in force',
    reply: { schema: adminBansReply, description: 'The bans.' },
    errors: ADMIN_ERRORS,
  },
  dismissRoom: {
    method: 'POST', path: `${ROOM}/dismiss`, tag: 'admin', adminKey: true, params: roomParams,
    summary: 'Dismisses a room',
    description: 'Everyone in the room gets the `banned` push with reason `room_disband` and is removed. The room may be joined again afterwards.',
    reply: { schema: adminDismissReply, description: 'Dismissed.' },
    errors: { 400: 'Invalid roomKey (code -1003).', ...ADMIN_ERRORS, 404: 'Nobody is in this room (code -2003).' },
  },
  listLogs: {
    method: 'GET', path: `${APP}/logs`, tag: 'admin', adminKey: true, params: appParams, query: adminLogsQuery,
    summary: 'Stored logs, newest first',
    description: 'Logs the SDK uploaded (POST /v5/AVQualityReportSvc/C2S) and the server\'s own records of admin actions (cmdType server_event). Page with `before`: pass the previous answer\'s `next`.',
    reply: { schema: adminLogsReply, description: 'The logs.' },
    errors: { 400: 'Invalid filter (code -1003).', ...ADMIN_ERRORS },
  },
  listJobs: {
    method: 'GET', path: `${APP}/jobs`, tag: 'admin', adminKey: true, params: appParams,
    summary: 'Media jobs on this node: mix transcodes, CDN relays, recordings',
    description: 'State, restarts, encode frame rate and inputs of each job (also in /metrics). A job that dies is restarted (at most 5 times a minute) and its restarts counted.',
    reply: { schema: adminJobsReply, description: 'The jobs.' },
    errors: ADMIN_ERRORS,
  },
  stopJob: {
    method: 'DELETE', path: `${APP}/jobs/{jobId}`, tag: 'admin', adminKey: true, params: jobParams,
    summary: 'Stops a media job',
    reply: { schema: adminStopJobReply, description: 'Stopped.' },
    errors: { ...ADMIN_ERRORS, 404: 'No such job in this app (code -2003).' },
  },
  startRecording: {
    method: 'POST', path: `${ROOM}/recordings`, tag: 'admin', adminKey: true, params: roomParams,
    summary: "Starts recording a room: one mixed file, or a file per user's stream",
    description: 'Files are MP4 (H264 + AAC) in the recordings folder, named with userDefineRecordId when given; recording stops when the room empties.',
    body: { schema: adminStartRecordingBody, type: json, required: false },
    reply: { schema: adminStartRecordingReply, description: 'Recording.' },
    errors: { 400: 'Invalid roomKey or body (code -1003).', ...ADMIN_ERRORS, 404: 'Nobody is in this room (code -2003).' },
  },
  stopRecording: {
    method: 'DELETE', path: `${ROOM}/recordings`, tag: 'admin', adminKey: true, params: roomParams,
    summary: 'Stops recording a room (what POST …/recordings started)',
    description: "The room's recording jobs end, their files finalised, and are not started again, unless the app's own `recording` setting records the room anyway. Stopping a room that is not recorded is not an error.",
    reply: { schema: adminStopRecordingReply, description: 'Not recording (any more).' },
    errors: { 400: 'Invalid roomKey (code -1003).', ...ADMIN_ERRORS },
  },
  listRecordings: {
    method: 'GET', path: `${APP}/recordings`, tag: 'admin', adminKey: true, params: appParams,
    summary: "The app's recording files",
    reply: { schema: adminRecordingsReply, description: 'The recordings.' },
    errors: ADMIN_ERRORS,
  },
  downloadRecording: {
    method: 'GET', path: `${APP}/recordings/{recordingId}`, tag: 'admin', adminKey: true, params: recordingParams,
    summary: 'Downloads a recording file',
    reply: { schema: z.string().meta({ format: 'binary' }), description: 'The MP4 file.', type: 'video/mp4' },
    errors: { ...ADMIN_ERRORS, 404: 'No such recording in this app (code -2003).' },
  },
  deleteRecording: {
    method: 'DELETE', path: `${APP}/recordings/{recordingId}`, tag: 'admin', adminKey: true, params: recordingParams,
    summary: 'Deletes a recording file',
    reply: { schema: adminDeleteRecordingReply, description: 'Deleted.' },
    errors: { ...ADMIN_ERRORS, 404: 'No such recording in this app (code -2003).', 409: 'A job is still writing it: stop the job first.' },
  },
  listMixImages: {
    method: 'GET', path: `${APP}/mix-images`, tag: 'admin', adminKey: true, params: appParams,
    summary: "The app's mix background images",
    reply: { schema: adminMixImagesReply, description: 'The images.' },
    errors: ADMIN_ERRORS,
  },
  putMixImage: {
    method: 'PUT', path: `${APP}/mix-images/{name}`, tag: 'admin', adminKey: true, params: imageParams,
    summary: 'Uploads (or replaces) a mix background image',
    description: `The body is the PNG or JPEG file (recognised by its content, at most ${MIX_IMAGE_LIMITS.MAX_BYTES} bytes and ${MIX_IMAGE_LIMITS.MAX_SIDE} pixels a side; at most ${MIX_IMAGE_LIMITS.MAX_PER_APP} images an app). CDNStreaming's mix.backgroundImage names it; only this app's mixes can use it. A running mix keeps the picture it loaded until its next update.`,
    body: { schema: z.string().meta({ format: 'binary' }), type: 'image/*', required: true },
    reply: { schema: adminMixImage, description: 'Stored.' },
    errors: { 400: 'Invalid name, or the body is not a PNG or JPEG image within the size limits (code -1003).', ...ADMIN_ERRORS, 409: 'The app already has the most images allowed (code -1003).', 413: 'Body too large (code -1009).' },
  },
  deleteMixImage: {
    method: 'DELETE', path: `${APP}/mix-images/{name}`, tag: 'admin', adminKey: true, params: imageParams,
    summary: 'Deletes a mix background image',
    reply: { schema: adminDeleteMixImageReply, description: 'Deleted.' },
    errors: { 400: 'Invalid name (code -1003).', ...ADMIN_ERRORS, 404: 'No such image in this app (code -2003).' },
  },
} as const satisfies Record<string, RouteSpec>;

export type OperationId = keyof typeof HTTP_ROUTES;
