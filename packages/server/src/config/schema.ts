import { z } from 'zod';
import { networkFileFields, networkSchemaFields, TRUST_PROXY } from './network.js';

/** Billing state of an app: joins of an app without a package or out of credit are refused with docs/behaviour.md §8's codes. */
export const BILLING_STATES = ['active', 'no-package', 'out-of-credit'] as const;
export type BillingState = (typeof BILLING_STATES)[number];

/** The media engines (CONCLAVE_ENGINE). */
export const ENGINE_KINDS = ['embedded', 'janus'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const KEY = z.string().min(16, 'must be at least 16 characters').max(1024, 'must be at most 1024 characters');
const SIGNAL_URL = z.string().regex(/^wss?:\/\/[^\s/]+(\/\S*)?$/, 'must be a ws:// or wss:// URL, e.g. wss://rtc.example.com/signal');
const HTTP_URL = z.string().regex(/^https?:\/\/[^\s/]+\/?$/, 'must be an http:// or https:// origin, e.g. https://logs.example.com');
const int = (min: number, max: number) => z.number().int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);
const PORT_RANGE = z.tuple([int(1024, 65535), int(1024, 65535)]).refine(([min, max]) => min <= max, 'must be [min, max] with min <= max');
const JANUS_URL = z.string().regex(/^wss?:\/\/\S+$/, 'must be a ws:// or wss:// URL, e.g. ws://127.0.0.1:8188');

/**
 * An entry of an app's rtmpHosts: a host name, `*.domain` (any subdomain of it), an IPv4 address or a
 * bracketed IPv6 one; then `:port`, or `:*` for any port; without either, the scheme's default port (rtmp
 * 1935, rtmps 443). jobs/rtmp-target.ts matches targets against them.
 */
export const RTMP_HOST_ENTRY = /^(?:\*\.)?(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?:\d{1,5}|\*))?$/;

/** A TencentCloud API 3.0 key pair of an app (the cloud API, src/cloud-api/): SecretId names it, SecretKey signs. */
export const cloudApiKeySchema = z.strictObject({
  secretId: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, _ or -'),
  secretKey: KEY,
});

export const appSchema = z.strictObject({
  sdkAppId: int(1, 0xffffffff),
  secretKey: KEY,
  adminKey: KEY.optional(),
  name: z.string().max(128).optional(),
  requirePrivateMapKey: z.boolean().optional(),
  billing: z.enum(BILLING_STATES).optional(),
  /** 'relay' forces this app's clients through TURN (scheduling's iceTransportPolicy). */
  iceTransportPolicy: z.enum(['all', 'relay']).optional(),
  recording: z.enum(['off', 'mixed', 'per-stream']).optional(),
  /** Whether publishes may be end-to-end encrypted (default: yes, unless `recording` records every room). */
  allowEncryptedMedia: z.boolean().optional(),
  /** Key pairs of the TencentCloud API 3.0 endpoint (several, so a key can be rotated without downtime). */
  cloudApiKeys: z.array(cloudApiKeySchema).max(16, 'must list at most 16 key pairs').optional(),
  /** Cloud API requests must sign X-TC-Action (SignedHeaders includes x-tc-action); the official SDKs do not. */
  cloudApiRequireSignedAction: z.boolean().optional(),
  /** Event callbacks: where they are POSTed and the key that signs them. */
  callback: z.strictObject({
    url: z.string().regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, 'must be an http:// or https:// URL, e.g. https://backend.example.com/trtc-events').max(2048),
    key: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be 1 to 64 letters and digits').optional(),
  }).optional(),
  /** RTMP hosts this app's CDN jobs may publish to (docs/behaviour.md §5.5); none: only the shared ingest. */
  rtmpHosts: z.array(z.string().max(256).regex(RTMP_HOST_ENTRY, 'must be a host, *.domain, IPv4 or [IPv6] address, with :port or :* optionally, e.g. live-push.example.com or 10.0.0.5:1935')).max(64).optional(),
});

export const mediaSchema = z.strictObject({
  recordingPath: z.string().min(1),
  recordingRetentionDays: int(1, 3650),
  mixImagePath: z.string().min(1),
  rtmpIngest: z.string().regex(/^rtmps?:\/\/[^\s/]+\/\S*$/, 'must be an rtmp:// or rtmps:// URL, e.g. rtmp://cdn.example.com/live/').optional(),
});

export const limitsSchema = z.strictObject({
  usersPerRoom: int(1, 100_000),
  anchorsPerLiveRoom: int(1, 100_000),
  audiencePerLiveRoom: int(0, 1_000_000),
  connectionsPerIp: int(1, 1_000_000),
  requestsPerSecond: int(1, 1_000_000),
  joinsPerSecond: int(1, 1_000_000),
  joinBurst: int(1, 1_000_000),
  failedJoinsPerMinute: int(1, 1_000_000),
  failedJoinsPerConnection: int(1, 1_000),
  credentialChecksPerMinute: int(1, 1_000_000),
  signalSendBufferBytes: int(16 * 1024, 1024 * 1024 * 1024),
  commandsInFlight: int(1, 1_000),
  customMessagesPerSecond: int(1, 1_000_000),
  customMessageBytesPerSecond: int(1, 1_000_000_000),
  banSeconds: int(1, 365 * 24 * 3600),
  logUploadsPerMinute: int(1, 1_000_000),
  logUploadBytes: int(1024, 64 * 1024 * 1024),
  cloudApiRequestsPerSecond: int(1, 100_000),
  cloudApiClockSkewSeconds: int(10, 86_400),
  httpConnectionsPerIp: int(1, 1_000_000),
  callbackQueuePerApp: int(1, 10_000_000),
  callbackRetrySeconds: int(1, 3600),
  callbackMaxAgeSeconds: int(60, 30 * 24 * 3600),
  transcribersPerApp: int(0, 10_000),
  transcribersPerNode: int(0, 10_000),
  whepSessionsPerApp: int(0, 1_000_000),
  whepSessionsPerNode: int(0, 1_000_000),
  jobsPerUser: int(1, 1000),
  jobsPerApp: int(1, 100_000),
  jobsPerNode: int(1, 100_000),
  logBytesPerApp: int(1024, 2 ** 40),
  logBytesTotal: int(1024, 2 ** 40),
});

export const storageSchema = z.strictObject({
  path: z.string().min(1),
  logRetentionDays: int(1, 3650),
});

const domainsSchema = z.strictObject({ main: SIGNAL_URL.optional(), backup: SIGNAL_URL.optional() });

/** The whole configuration after merging file, environment and overrides. */
export const serverConfigSchema = z.object({
  port: int(0, 65535),
  host: z.string().min(1),
  apps: z.array(appSchema).min(1, 'must list at least one app').superRefine((apps, ctx) => {
    const seen = new Set<number>();
    apps.forEach((app, i) => {
      if (seen.has(app.sdkAppId)) ctx.addIssue({ code: 'custom', path: [i, 'sdkAppId'], message: `sdkAppId ${app.sdkAppId} is listed twice` });
      seen.add(app.sdkAppId);
    });
    // A SecretId names the app a request is for: one SecretId in two places would make that ambiguous.
    const ids = new Set<string>();
    apps.forEach((app, i) => app.cloudApiKeys?.forEach((key, j) => {
      if (ids.has(key.secretId)) ctx.addIssue({ code: 'custom', path: [i, 'cloudApiKeys', j, 'secretId'], message: 'this secretId is listed twice' });
      ids.add(key.secretId);
    }));
  }),
  devMode: z.boolean(),
  iceAddress: z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/, 'must be an IPv4 address').optional(),
  heartbeatTimeoutMs: int(1000, 600_000),
  sessionGraceMs: int(0, 600_000),
  logLevel: z.enum(LOG_LEVELS),
  domains: domainsSchema.optional(),
  loggerDomain: HTTP_URL.optional(),
  videoDecodeFallback: z.boolean().optional(),
  preferHW: z.boolean().optional(),
  trustProxy: TRUST_PROXY,
  limits: limitsSchema,
  storage: storageSchema,
  engine: z.enum(ENGINE_KINDS).optional(),
  janusUrl: JANUS_URL.optional(),
  janusSecret: z.string().min(1).optional(),
  mediaPorts: PORT_RANGE.optional(),
  downlinkAllocator: z.boolean().optional(),
  ...networkSchemaFields,
  media: mediaSchema,
});

/** The configuration file (CONCLAVE_CONFIG): every field optional; unknown fields are errors (typos). */
export const configFileSchema = z.strictObject({
  port: int(0, 65535).optional(),
  host: z.string().min(1).optional(),
  apps: z.array(appSchema).optional(),
  iceAddress: z.string().optional(),
  heartbeatTimeoutMs: int(1000, 600_000).optional(),
  sessionGraceMs: int(0, 600_000).optional(),
  logLevel: z.enum(LOG_LEVELS).optional(),
  domains: domainsSchema.optional(),
  loggerDomain: HTTP_URL.optional(),
  videoDecodeFallback: z.boolean().optional(),
  preferHW: z.boolean().optional(),
  trustProxy: TRUST_PROXY.optional(),
  limits: limitsSchema.partial().optional(),
  storage: storageSchema.partial().optional(),
  engine: z.enum(ENGINE_KINDS).optional(),
  janusUrl: JANUS_URL.optional(),
  mediaPorts: PORT_RANGE.optional(),
  downlinkAllocator: z.boolean().optional(),
  ...networkFileFields,
  media: mediaSchema.partial().optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

/** Formats zod issues as `where: what` lines, e.g. `apps[1].secretKey: must be at least 16 characters`. */
export function formatIssues(error: z.ZodError, prefix = ''): string {
  return error.issues.map((issue) => {
    const where = issue.path.reduce<string>((acc, part) => typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part), prefix);
    return `${where || '(root)'}: ${issue.message}`;
  }).join('; ');
}
