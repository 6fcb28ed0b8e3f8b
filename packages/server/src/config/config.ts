import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LIMITS } from '@conclave/protocol';
import { configFileSchema, ENGINE_KINDS, formatIssues, LOG_LEVELS, serverConfigSchema, type BillingState, type ConfigFile, type EngineKind } from './schema.js';

import { networkFromEnv, trustProxyFromEnv, type NetworkConfig } from './network.js';

export type { BillingState, EngineKind };
export type { NetworkConfig, TurnConfig } from './network.js';

/** One application: an sdkAppId, the secret key its userSigs are signed with, and how it is served. */
export interface AppConfig {
  sdkAppId: number;
  secretKey: string;
  /** Bearer key of this app's admin API (at least 16 characters); without one the app has no admin API. */
  adminKey?: string;
  /** A readable name, shown by the admin API. */
  name?: string;
  /** Every join must carry a privateMapKey (otherwise only joins that give one are checked against it). */
  requirePrivateMapKey?: boolean;
  /** 'active' (default); 'no-package' refuses joins with 5401, 'out-of-credit' with -100013 (docs/behaviour.md §8). */
  billing?: BillingState;
  /** 'relay' forces this app's clients through TURN (scheduling answers iceTransportPolicy 'relay'). */
  iceTransportPolicy?: 'all' | 'relay';
  /** Automatic recording of this app's rooms: 'off' (default), 'mixed' (one file per room), 'per-stream'. */
  recording?: 'off' | 'mixed' | 'per-stream';
  /**
   * Whether a publish may be end-to-end encrypted (`publish {encrypted}`, CustomEncryption): such media is never
   * recorded, so an app whose `recording` records every room refuses it unless this says true; other apps allow it
   * unless this says false (docs/behaviour.md §12).
   */
  allowEncryptedMedia?: boolean;
  /**
   * TencentCloud API 3.0 key pairs (the cloud API endpoint, POST /): a request signed with one of them acts on
   * this app. Several at once so a key can be rotated: add the new pair, move the backend over, remove the old.
   */
  cloudApiKeys?: CloudApiKey[];
  /**
   * Strict cloud API signing: a request whose SignedHeaders lack x-tc-action is refused (AuthFailure.InvalidAuthorization),
   * so a captured signature cannot be sent with another action. The official SDKs sign only content-type;host.
   */
  cloudApiRequireSignedAction?: boolean;
  /**
   * Event callbacks (src/callbacks/): room, media and recording events are POSTed here in TRTC's callback JSON,
   * durably queued and retried until delivered.
   */
  callback?: CallbackTarget;
  /**
   * RTMP hosts this app's CDN jobs may publish to (`host`, `*.domain`, an IP address; `:port`, `:*` any port,
   * none the scheme's default): docs/behaviour.md §5.5. Unset: none but the shared media.rtmpIngest.
   */
  rtmpHosts?: string[];
}

/** Where an app's event callbacks go. */
export interface CallbackTarget {
  /** http:// or https:// URL the events are POSTed to. */
  url: string;
  /** Signs each body: header `Sign` = base64(HMAC-SHA256(key, body)). Without a key no Sign header is sent. Never logged. */
  key?: string;
}

/** One TencentCloud API 3.0 key pair. The SecretKey is never logged. */
export interface CloudApiKey {
  /** Names the pair in the Authorization header (unique across every app). */
  secretId: string;
  /** Signs the requests (TC3-HMAC-SHA256); at least 16 characters. */
  secretKey: string;
}

/** Limits; over one, the request gets a coded reply and the connection and room go on. */
export interface LimitsConfig {
  /** Users in an rtc-scene room (300). */
  usersPerRoom: number;
  /** Anchors in a live-scene room (50). */
  anchorsPerLiveRoom: number;
  /** Audience members in a live-scene room (1000). */
  audiencePerLiveRoom: number;
  /** Signalling connections from one client IP address (50). */
  connectionsPerIp: number;
  /** Signalling requests per second on one connection, the call-frequency limit (50). */
  requestsPerSecond: number;
  /** Joins (and reconnections) this node admits per second once the burst is spent (200); more wait (JOIN_THROTTLED). */
  joinsPerSecond: number;
  /** Joins this node admits at once from idle (400). */
  joinBurst: number;
  /** Joins with bad credentials per minute from one IP address (30); past it, its joins are refused unchecked (TOO_MANY_FAILED_JOINS). */
  failedJoinsPerMinute: number;
  /** Joins with bad credentials on one connection (5); the next join is refused (TOO_MANY_FAILED_JOINS) and the connection closed. */
  failedJoinsPerConnection: number;
  /** Credential checks per minute from one IP address for each of scheduling, AI-denoise authorisation and WHEP/WHIP tokens (600). */
  credentialChecksPerMinute: number;
  /** Bytes queued for a signalling connection that does not read (1 MiB); past it the connection is closed (4008). */
  signalSendBufferBytes: number;
  /** Commands one signalling connection may have running at once (16); more wait their turn, past twice that are refused. */
  commandsInFlight: number;
  /** Custom and SEI messages per second per sender (30). */
  customMessagesPerSecond: number;
  /** Custom and SEI message bytes per second per sender (8000). */
  customMessageBytesPerSecond: number;
  /** How long an admin-API ban keeps a user out of a room, unless the request says otherwise (600 s). */
  banSeconds: number;
  /** Log uploads and statistics beacons per minute from one IP address (120). */
  logUploadsPerMinute: number;
  /** Largest log upload body, after decompression (1 MiB). */
  logUploadBytes: number;
  /** Cloud API requests per second per SecretId (20); more get RequestLimitExceeded. */
  cloudApiRequestsPerSecond: number;
  /** How far a cloud API request's X-TC-Timestamp may be from the server's clock (300 s); further: AuthFailure.SignatureExpire. */
  cloudApiClockSkewSeconds: number;
  /**
   * Open HTTP connections (TCP, WebSockets included) from one client address (256); more are closed at once. Not
   * applied to trusted proxies' connections (cap them at the proxy).
   */
  httpConnectionsPerIp: number;
  /** Event callbacks one app may have queued (100,000); events past it are dropped, counted and logged. */
  callbackQueuePerApp: number;
  /** Seconds between retries of a callback that keeps failing (10, as the original); the first retry is at once. */
  callbackRetrySeconds: number;
  /** How long an undeliverable callback is retried before it is given up, counted and logged (24 h). */
  callbackMaxAgeSeconds: number;
  /** Transcriber robots one app may run on this node at once (10); more are refused (TRANSCRIBER_CODE.QUOTA_EXCEEDED). */
  transcribersPerApp: number;
  /** Transcriber robots this node runs at once, every app (20). */
  transcribersPerNode: number;
  /** WHEP playbacks and WHIP publishes one app may have open on this node (200); more are refused (503, WHEP_QUOTA_EXCEEDED). */
  whepSessionsPerApp: number;
  /** WHEP playbacks and WHIP publishes open on this node, every app (500). */
  whepSessionsPerNode: number;
  /** CDN jobs (relays, mixes) one user may run at once (4); more are refused (TOO_MANY_JOBS). */
  jobsPerUser: number;
  /** CDN jobs one app may run at once on this node (20). */
  jobsPerApp: number;
  /** CDN jobs this node runs at once (40); recordings count towards it but are never refused. */
  jobsPerNode: number;
  /** Uploaded log text one app may keep (64 MiB); past it its oldest uploads are dropped. */
  logBytesPerApp: number;
  /** Uploaded log text kept in all (512 MiB); past it the largest app's oldest uploads are dropped. */
  logBytesTotal: number;
}

/** Where the server keeps logs and bans. */
export interface StorageConfig {
  /** SQLite database file (created with its folder); ':memory:' keeps nothing across restarts. */
  path: string;
  /** Stored logs older than this are deleted (7 days). */
  logRetentionDays: number;
}

/** Media jobs: recordings and the default CDN ingest. */
export interface MediaConfig {
  /** Folder of recordings (created when needed). */
  recordingPath: string;
  /** Recordings older than this are deleted (7 days). */
  recordingRetentionDays: number;
  /** Folder of mix background images (a sub-folder per app, filled through the admin API). */
  mixImagePath: string;
  /** RTMP ingest a CDN stream goes to when the app gives a streamId and no URL: this plus the streamId. */
  rtmpIngest?: string;
}

/** Everything the server needs to run. */
export interface ServerConfig extends NetworkConfig {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Address to listen on. */
  host: string;
  /** Configured apps. */
  apps: AppConfig[];
  /** True when the built-in dev app is in use (its keys are printed and offered to the demo). */
  devMode: boolean;
  /** IPv4 address the media engine gathers ICE candidates on (all interfaces when unset). */
  iceAddress?: string;
  /** A connection silent this long is dropped (its session is then kept for sessionGraceMs). */
  heartbeatTimeoutMs: number;
  /** How long the session of a dropped connection waits to be resumed before its user leaves the room. */
  sessionGraceMs: number;
  /** Directory of the demo app build (served at /); none when unset. */
  demoDir?: string;
  /** Directory of the SDK build (served at /sdk/). */
  sdkDir?: string;
  /** pino log level. */
  logLevel: string;
  /** Signalling URLs the scheduling endpoint hands out; each defaults to this server's own /signal. */
  domains?: { main?: string; backup?: string };
  /** Origin the SDK uploads logs to (scheduling's config.loggerDomain); defaults to this server. */
  loggerDomain?: string;
  /** Tell clients to install the video decoder fallback (scheduling's config.videoDecodeFallback). */
  videoDecodeFallback?: boolean;
  /** Tell clients to send videos of 1280×720 or more to the hardware encoder (scheduling's config.preferHW). */
  preferHW?: boolean;
  /**
   * Behind reverse proxies: false (none; default), true (the direct peer is the one proxy), or the proxies'
   * addresses and CIDR ranges. The client address is then the right-most X-Forwarded-For entry no trusted proxy
   * wrote (http/client-address.ts), for the per-address limits and lockouts.
   */
  trustProxy: boolean | string[];
  limits: LimitsConfig;
  storage: StorageConfig;
  /** The media engine: 'embedded' (werift, in process; default) or 'janus' (the Janus WebRTC Server). */
  engine?: EngineKind;
  /** ws:// URL of a running Janus's WebSocket API to attach to (engine 'janus'); unset: the server spawns Janus. */
  janusUrl?: string;
  /** API secret of that running Janus. */
  janusSecret?: string;
  /** UDP port range of the media engine's ICE/RTP sockets, e.g. [40000, 49999]; unset: any free port. */
  mediaPorts?: [number, number];
  /**
   * Whether the embedded engine's downlink allocator sizes each subscriber's video to its link (issue 43; default
   * true). false: every subscription gets what it asked (CONCLAVE_DOWNLINK_ALLOCATOR=off).
   */
  downlinkAllocator?: boolean;
  media: MediaConfig;
}

/** Settings given in code (startServer, tests): any top-level field, and any part of limits and storage. */
export type ServerOverrides = Partial<Omit<ServerConfig, 'limits' | 'storage' | 'media'>> & {
  media?: Partial<MediaConfig>;
  limits?: Partial<LimitsConfig>;
  storage?: Partial<StorageConfig>;
};

/** Raised when the environment or the config file holds an invalid setting; the message names it. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The sdkAppId of the built-in development app. */
export const DEV_SDKAPPID = 1400000001;

/** Limits used when neither the file nor the code sets them. */
export const DEFAULT_LIMITS: Readonly<LimitsConfig> = Object.freeze({
  usersPerRoom: LIMITS.MAX_USERS_RTC,
  anchorsPerLiveRoom: LIMITS.MAX_ANCHORS_LIVE,
  audiencePerLiveRoom: 1000,
  connectionsPerIp: 50,
  requestsPerSecond: 50,
  joinsPerSecond: 200,
  joinBurst: 400,
  failedJoinsPerMinute: 30,
  failedJoinsPerConnection: 5,
  credentialChecksPerMinute: 600,
  signalSendBufferBytes: 1024 * 1024,
  commandsInFlight: 16,
  customMessagesPerSecond: LIMITS.MAX_CUSTOM_MESSAGES_PER_SECOND,
  customMessageBytesPerSecond: LIMITS.MAX_CUSTOM_MESSAGE_BYTES_PER_SECOND,
  banSeconds: 600,
  logUploadsPerMinute: 120,
  logUploadBytes: 1024 * 1024,
  cloudApiRequestsPerSecond: 20,
  cloudApiClockSkewSeconds: 300,
  httpConnectionsPerIp: 256,
  callbackQueuePerApp: 100_000,
  callbackRetrySeconds: 10,
  callbackMaxAgeSeconds: 24 * 3600,
  transcribersPerApp: 10,
  transcribersPerNode: 20,
  whepSessionsPerApp: 200,
  whepSessionsPerNode: 500,
  jobsPerUser: 4,
  jobsPerApp: 20,
  jobsPerNode: 40,
  logBytesPerApp: 64 * 1024 * 1024,
  logBytesTotal: 512 * 1024 * 1024,
});

/** Storage used when neither the file nor the code sets it: a database under ./.conclave/. */
export const DEFAULT_MEDIA: Readonly<MediaConfig> = Object.freeze({
  recordingPath: '.conclave/recordings', recordingRetentionDays: 7, mixImagePath: '.conclave/mix-images',
});
export const DEFAULT_STORAGE: Readonly<StorageConfig> = Object.freeze({ path: '.conclave/conclave.db', logRetentionDays: 7 });

function parseInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
  }
  return value;
}

/** Reads and validates the JSON configuration file; errors name the file and the field. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`CONCLAVE_CONFIG: cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`CONCLAVE_CONFIG: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = configFileSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`CONCLAVE_CONFIG: ${path}: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/** The apps: the file's, with the environment's app added (or replacing the key of the same sdkAppId). */
function resolveApps(env: NodeJS.ProcessEnv, file: ConfigFile, defaults: ServerOverrides): { apps: AppConfig[]; devMode: boolean } {
  const rawAppId = env.CONCLAVE_SDKAPPID;
  const secretKey = env.CONCLAVE_SECRET_KEY;
  const adminKey = env.CONCLAVE_ADMIN_KEY || undefined;
  if (adminKey !== undefined && adminKey.length < 16) throw new ConfigError('CONCLAVE_ADMIN_KEY must be at least 16 characters');
  const apps: AppConfig[] = (file.apps ?? []).map((app) => ({ ...app }));
  if (rawAppId || secretKey) {
    if (!rawAppId || !secretKey) throw new ConfigError('CONCLAVE_SDKAPPID and CONCLAVE_SECRET_KEY must be set together');
    const sdkAppId = parseInteger(env, 'CONCLAVE_SDKAPPID', 0, 1, 0xffffffff);
    if (secretKey.length < 16) throw new ConfigError('CONCLAVE_SECRET_KEY must be at least 16 characters');
    const existing = apps.find((app) => app.sdkAppId === sdkAppId);
    if (existing) {
      existing.secretKey = secretKey;
      if (adminKey) existing.adminKey = adminKey;
    } else {
      apps.push({ sdkAppId, secretKey, ...(adminKey ? { adminKey } : {}) });
    }
  } else if (adminKey && apps.length > 0) {
    throw new ConfigError('CONCLAVE_ADMIN_KEY applies to the app of CONCLAVE_SDKAPPID (or the dev app); set adminKey per app in the config file');
  }
  if (apps.length > 0) return { apps, devMode: false };
  if (defaults.apps && defaults.apps.length > 0) return { apps: defaults.apps, devMode: false };
  return {
    apps: [{ sdkAppId: DEV_SDKAPPID, secretKey: randomBytes(32).toString('hex'), adminKey: adminKey ?? randomBytes(24).toString('hex'), name: 'dev' }],
    devMode: true,
  };
}

/**
 * Reads the configuration: the JSON file named by CONCLAVE_CONFIG (if any), then environment variables,
 * which win over the file: PORT (default 8080), HOST (default 0.0.0.0), CONCLAVE_SDKAPPID +
 * CONCLAVE_SECRET_KEY (+ CONCLAVE_ADMIN_KEY) (both or neither; no app anywhere means a dev app with
 * generated keys), CONCLAVE_ICE_ADDRESS, CONCLAVE_HEARTBEAT_TIMEOUT_MS, CONCLAVE_SESSION_GRACE_MS,
 * CONCLAVE_LOG_LEVEL, CONCLAVE_DB, CONCLAVE_SIGNAL_MAIN, CONCLAVE_SIGNAL_BACKUP, CONCLAVE_MAX_CONNECTIONS_PER_IP.
 * `defaults` fill what neither sets. Throws ConfigError naming the bad variable or field.
 */
export function configFromEnv(env: NodeJS.ProcessEnv, defaults: ServerOverrides = {}): ServerConfig {
  const file: ConfigFile = env.CONCLAVE_CONFIG ? readConfigFile(env.CONCLAVE_CONFIG) : {};
  const port = parseInteger(env, 'PORT', defaults.port ?? file.port ?? 8080, 0, 65535);
  const heartbeatTimeoutMs = parseInteger(env, 'CONCLAVE_HEARTBEAT_TIMEOUT_MS', defaults.heartbeatTimeoutMs ?? file.heartbeatTimeoutMs ?? 18_000, 1000, 600_000);
  const sessionGraceMs = parseInteger(env, 'CONCLAVE_SESSION_GRACE_MS', defaults.sessionGraceMs ?? file.sessionGraceMs ?? LIMITS.SESSION_GRACE_MS, 0, 600_000);
  const { apps, devMode } = resolveApps(env, file, defaults);
  const logLevel = env.CONCLAVE_LOG_LEVEL ?? defaults.logLevel ?? file.logLevel ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new ConfigError(`CONCLAVE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const iceAddress = env.CONCLAVE_ICE_ADDRESS ?? defaults.iceAddress ?? file.iceAddress;
  if (iceAddress !== undefined && !/^\d{1,3}(\.\d{1,3}){3}$/.test(iceAddress)) {
    throw new ConfigError(`CONCLAVE_ICE_ADDRESS must be an IPv4 address, got '${iceAddress}'`);
  }
  const domains = { ...file.domains, ...defaults.domains };
  if (env.CONCLAVE_SIGNAL_MAIN) domains.main = env.CONCLAVE_SIGNAL_MAIN;
  if (env.CONCLAVE_SIGNAL_BACKUP) domains.backup = env.CONCLAVE_SIGNAL_BACKUP;
  const limits: LimitsConfig = { ...DEFAULT_LIMITS, ...file.limits, ...defaults.limits };
  limits.connectionsPerIp = parseInteger(env, 'CONCLAVE_MAX_CONNECTIONS_PER_IP', limits.connectionsPerIp, 1, 1_000_000);
  limits.joinsPerSecond = parseInteger(env, 'CONCLAVE_JOINS_PER_SECOND', limits.joinsPerSecond, 1, 1_000_000);
  limits.joinBurst = parseInteger(env, 'CONCLAVE_JOIN_BURST', limits.joinBurst, 1, 1_000_000);
  limits.httpConnectionsPerIp = parseInteger(env, 'CONCLAVE_MAX_HTTP_CONNECTIONS_PER_IP', limits.httpConnectionsPerIp, 1, 1_000_000);
  const storage: StorageConfig = { ...DEFAULT_STORAGE, ...file.storage, ...defaults.storage };
  const engine = engineFromEnv(env, file, defaults);
  const network = networkFromEnv(env, file, defaults, (message) => {
    throw new ConfigError(message);
  });
  if (env.CONCLAVE_DB) storage.path = env.CONCLAVE_DB;
  const media: MediaConfig = { ...DEFAULT_MEDIA, ...file.media, ...defaults.media };
  if (env.CONCLAVE_RECORDINGS) media.recordingPath = env.CONCLAVE_RECORDINGS;
  if (env.CONCLAVE_MIX_IMAGES) media.mixImagePath = env.CONCLAVE_MIX_IMAGES;
  if (env.CONCLAVE_RTMP_INGEST) media.rtmpIngest = env.CONCLAVE_RTMP_INGEST;
  return {
    port,
    host: env.HOST ?? defaults.host ?? file.host ?? '0.0.0.0',
    apps,
    devMode: defaults.devMode ?? devMode,
    iceAddress,
    heartbeatTimeoutMs,
    sessionGraceMs,
    demoDir: defaults.demoDir,
    sdkDir: defaults.sdkDir,
    logLevel,
    ...(domains.main || domains.backup ? { domains } : {}),
    ...(defaults.loggerDomain ?? file.loggerDomain ? { loggerDomain: defaults.loggerDomain ?? file.loggerDomain } : {}),
    ...(defaults.videoDecodeFallback ?? file.videoDecodeFallback ? { videoDecodeFallback: true } : {}),
    ...(defaults.preferHW ?? file.preferHW ? { preferHW: true } : {}),
    trustProxy: trustProxyFromEnv(env, (message) => { throw new ConfigError(message); }) ?? defaults.trustProxy ?? file.trustProxy ?? false,
    limits,
    storage,
    ...engine,
    ...network,
    media,
  };
}

/**
 * CONCLAVE_ENGINE, CONCLAVE_JANUS_URL, CONCLAVE_JANUS_SECRET, CONCLAVE_MEDIA_PORTS ('min-max'), CONCLAVE_DOWNLINK_ALLOCATOR
 * ('on' | 'off'), over the file's fields.
 */
function engineFromEnv(env: NodeJS.ProcessEnv, file: ConfigFile, defaults: ServerOverrides):
  Pick<ServerConfig, 'engine' | 'janusUrl' | 'janusSecret' | 'mediaPorts' | 'downlinkAllocator'> {
  const engine = env.CONCLAVE_ENGINE || defaults.engine || file.engine || 'embedded';
  if (!(ENGINE_KINDS as readonly string[]).includes(engine)) throw new ConfigError(`CONCLAVE_ENGINE must be one of ${ENGINE_KINDS.join(', ')}, got '${engine}'`);
  const janusUrl = env.CONCLAVE_JANUS_URL || defaults.janusUrl || file.janusUrl;
  if (janusUrl !== undefined && !/^wss?:\/\/\S+$/.test(janusUrl)) throw new ConfigError(`CONCLAVE_JANUS_URL must be a ws:// or wss:// URL, got '${janusUrl}'`);
  let mediaPorts = defaults.mediaPorts ?? file.mediaPorts as [number, number] | undefined;
  const rawPorts = env.CONCLAVE_MEDIA_PORTS;
  if (rawPorts) {
    const match = /^(\d+)-(\d+)$/.exec(rawPorts);
    const range = match ? [Number(match[1]), Number(match[2])] as [number, number] : undefined;
    if (!range || range[0] < 1024 || range[1] > 65535 || range[0] > range[1]) {
      throw new ConfigError(`CONCLAVE_MEDIA_PORTS must be a UDP port range 'min-max' within 1024-65535, got '${rawPorts}'`);
    }
    mediaPorts = range;
  }
  const janusSecret = env.CONCLAVE_JANUS_SECRET || defaults.janusSecret;
  const allocator = env.CONCLAVE_DOWNLINK_ALLOCATOR;
  if (allocator !== undefined && allocator !== 'on' && allocator !== 'off') {
    throw new ConfigError(`CONCLAVE_DOWNLINK_ALLOCATOR must be 'on' or 'off', got '${allocator}'`);
  }
  const downlinkAllocator = allocator !== undefined ? allocator === 'on' : defaults.downlinkAllocator ?? file.downlinkAllocator ?? true;
  return {
    engine: engine as EngineKind,
    downlinkAllocator,
    ...(janusUrl ? { janusUrl } : {}),
    ...(janusSecret ? { janusSecret } : {}),
    ...(mediaPorts ? { mediaPorts } : {}),
  };
}

/**
 * The configuration a server runs with: environment and file, then `overrides` on top (limits and
 * storage merged field by field), validated as a whole. Throws ConfigError naming every bad field.
 */
export function resolveConfig(overrides: ServerOverrides = {}, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const base = configFromEnv(env, overrides);
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as ServerOverrides;
  const config: ServerConfig = {
    ...base,
    ...defined,
    limits: { ...base.limits, ...overrides.limits },
    storage: { ...base.storage, ...overrides.storage },
    media: { ...base.media, ...overrides.media },
  };
  validateConfig(config);
  return config;
}

/** Checks a whole configuration; throws ConfigError listing every problem with its field. */
export function validateConfig(config: ServerConfig): void {
  const result = serverConfigSchema.safeParse(config);
  if (!result.success) throw new ConfigError(`invalid configuration: ${formatIssues(result.error)}`);
}
