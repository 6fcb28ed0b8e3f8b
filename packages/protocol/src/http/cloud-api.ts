/**
 * TRTC's server API (TencentCloud API 3.0, `trtc` 2019-07-22) as the server answers it: a single signed
 * POST to `/` whose headers name the action, the version and the time, and whose Authorization carries the
 * TC3-HMAC-SHA256 signature over the request. Described here so the OpenAPI document (and fuzzers reading
 * it) cover it; the server's cloud-api/ verifies and runs it, not the route table.
 */
import { z } from 'zod';

/** The API's single endpoint. */
export const CLOUD_API_PATH = '/';
/** The `trtc` API version the server answers (X-TC-Version). */
export const CLOUD_API_VERSION = '2019-07-22';

/** The request headers of the API (names as the API spells them; HTTP header names are case-insensitive). */
export const cloudApiHeaders = z.object({
  'X-TC-Action': z.string().min(1).max(128).meta({ description: 'The action, e.g. DescribeRoomInfo, DismissRoom, RemoveUser, CreateCloudRecording.', examples: ['DescribeRoomInfo', 'DismissRoom'] }),
  'X-TC-Version': z.string().max(32).meta({ description: `The API version: ${CLOUD_API_VERSION}.`, examples: [CLOUD_API_VERSION] }),
  'X-TC-Timestamp': z.string().max(32).meta({ description: 'Unix time of the signature, seconds; refused when it is off the server clock by more than limits.cloudApiClockSkewSeconds.', examples: ['1764150000'] }),
  'X-TC-Region': z.string().max(64).optional().meta({ description: 'Accepted and ignored (a node serves its own rooms).' }),
  Authorization: z.string().max(4096).meta({
    description: 'TC3-HMAC-SHA256 Credential=<SecretId>/<date>/trtc/tc3_request, SignedHeaders=content-type;host, Signature=<hex> — the signature of the method, path, signed headers and body with the SecretKey of one of an app\'s cloudApiKeys.',
    examples: ['TC3-HMAC-SHA256 Credential=AKIDEXAMPLE/2025-11-26/trtc/tc3_request, SignedHeaders=content-type;host, Signature=00'],
  }),
});

/** The action's parameters: a JSON object whose fields each action defines (SdkAppId, RoomId, UserIds, …). */
export const cloudApiParams = z.record(z.string(), z.unknown()).meta({ description: "The action's parameters (the API's own names, e.g. {\"SdkAppId\": 1400000001, \"RoomId\": 1234})." });

/** Every answer, success or refusal: HTTP 200 with the API's envelope. */
export const cloudApiReply = z.object({
  Response: z.looseObject({
    RequestId: z.string(),
    Error: z.object({
      Code: z.string().meta({ description: 'The API\'s error code: AuthFailure.SignatureFailure, AuthFailure.SecretIdNotFound, MissingParameter, InvalidParameter.<Name>, InvalidAction, UnsupportedOperation, RequestLimitExceeded, ResourceNotFound, InternalError, …' }),
      Message: z.string(),
    }).optional(),
  }),
}).meta({ id: 'CloudApiResponse' });

/** What the OpenAPI document says of the endpoint. */
export const CLOUD_API_ROUTE = {
  method: 'POST',
  path: CLOUD_API_PATH,
  tag: 'cloud-api',
  summary: "TRTC's server API (TencentCloud API 3.0, trtc 2019-07-22): room control, cloud recording, CDN relays, MCU mixes",
  description: 'Every action is a POST to / signed with TC3-HMAC-SHA256 (as tencentcloud-sdk-nodejs and the other official SDKs sign it, with their endpoint pointed at this server). ' +
    'Every answer is HTTP 200 with `{"Response": {…, "RequestId"}}`; a refusal (unsigned, badly signed, unknown SecretId, expired timestamp, unknown or unsupported action, bad parameter, rate limit) is ' +
    '`{"Response": {"Error": {"Code", "Message"}, "RequestId"}}` and changes nothing. The body is at most 1 MiB.',
  headers: cloudApiHeaders,
  body: cloudApiParams,
  reply: cloudApiReply,
} as const;
