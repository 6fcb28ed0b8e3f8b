import { isIP } from 'node:net';
import { z } from 'zod';
import type { ConfigFile } from './schema.js';

/** TURN servers handed out by scheduling, with time-limited credentials (coturn `use-auth-secret`). */
export interface TurnConfig {
  /** turn: / turns: URLs, e.g. ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349']. */
  urls: string[];
  /** coturn's `static-auth-secret`. */
  secret: string;
  /** How long a credential stays valid (86400 s). */
  ttlSeconds: number;
  /**
   * When clients switch to TURN (docs/behaviour.md §4): media round trip above `rttRatioThreshold` × signalling's and
   * above `rttThreshold` ms for 5 checks (default ratio 3, 400 ms), or media loss above `loss` % for `lossCount` checks
   * while signalling stays fast (default 30 %, 5). Sent as the schedule's useTurnTcpInfo.
   */
  useTurnTcpInfo?: TurnTcpInfo;
}

/** The schedule's useTurnTcpInfo: the relay switch's thresholds (docs/behaviour.md §4.9). */
export interface TurnTcpInfo { rttRatioThreshold: number; rttThreshold: number; loss?: number; lossCount?: number }

/** Default relay-switch thresholds: a media path 3× slower than signalling and above 400 ms, or 30 % loss for 5 checks. */
export const DEFAULT_TURN_TCP_INFO = { rttRatioThreshold: 3, rttThreshold: 400, loss: 30, lossCount: 5 } as const;

/** Cluster, TLS, TURN and public-address settings (all optional: without them one process serves everything). */
export interface NetworkConfig {
  /** redis:// URL: this server becomes a node of the cluster sharing that Redis. */
  redisUrl?: string;
  /** This node's id in the cluster (default: random at start). */
  nodeId?: string;
  /** This node's own base URL as other nodes and clients reach it (http(s)://host:port); default from host and port. */
  nodeUrl?: string;
  /** Signs node-to-node requests (the same on every node, ≥ 16 chars); unset: a random one the nodes share through Redis. */
  clusterSecret?: string;
  /** How long SIGTERM waits for a cluster node's rooms to empty before it moves them to other nodes (30 s). */
  drainTimeoutMs: number;
  /** Public IPv4 address advertised in ICE candidates when the server sits behind 1:1 NAT (cloud VMs). */
  announcedAddress?: string;
  /** PEM certificate and key files: https and wss on the server's port. */
  tls?: { cert: string; key: string };
  turn?: TurnConfig;
}

export const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const TURN_URL = z.string().regex(/^turns?:[^\s]+$/, 'must be a turn: or turns: URL, e.g. turn:turn.example.com:3478');

export const turnSchema = z.strictObject({
  urls: z.array(TURN_URL).min(1, 'must list at least one URL'),
  secret: z.string().min(8, 'must be at least 8 characters'),
  ttlSeconds: z.number().int().min(60).max(7 * 24 * 3600),
  useTurnTcpInfo: z.strictObject({
    rttRatioThreshold: z.number().min(1).max(100), rttThreshold: z.number().int().min(0).max(10_000),
    loss: z.number().min(0).max(100).optional(), lossCount: z.number().int().min(1).max(100).optional(),
  }).optional(),
});

/** One trusted proxy of `trustProxy`: an IPv4 or IPv6 address, or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
export function isProxyRange(entry: string): boolean {
  const match = /^([^/\s]+)(?:\/(\d{1,3}))?$/.exec(entry);
  const family = match ? isIP(match[1]) : 0;
  return family !== 0 && (match?.[2] === undefined || Number(match[2]) <= (family === 4 ? 32 : 128));
}

/** `trustProxy`: false (no proxy), true (the direct peer is the one proxy), or the proxies' addresses and ranges. */
export const TRUST_PROXY = z.union([z.boolean(), z.array(z.string().refine(isProxyRange, 'must be an IPv4 or IPv6 address or CIDR range, e.g. 10.0.0.0/8')).min(1).max(256)]);

/** CONCLAVE_TRUST_PROXY: `true`, `false`, or comma-separated proxy addresses and CIDR ranges; undefined when unset. */
export function trustProxyFromEnv(env: NodeJS.ProcessEnv, fail: Fail): boolean | string[] | undefined {
  const raw = env.CONCLAVE_TRUST_PROXY?.trim();
  if (!raw) return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  const ranges = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (ranges.length === 0 || !ranges.every(isProxyRange)) {
    fail(`CONCLAVE_TRUST_PROXY must be true, false or comma-separated proxy addresses and CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1), got '${raw}'`);
  }
  return ranges;
}

/** Fields of NetworkConfig in the whole configuration's schema. */
export const networkSchemaFields = {
  redisUrl: z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL').optional(),
  nodeId: z.string().regex(/^[\w.-]{1,64}$/, 'must be 1-64 letters, digits, dots, dashes or underscores').optional(),
  nodeUrl: z.string().regex(/^https?:\/\/[^\s/]+\/?$/, 'must be an http:// or https:// origin, e.g. https://rtc-a.example.com').optional(),
  clusterSecret: z.string().min(16, 'must be at least 16 characters').max(1024, 'must be at most 1024 characters').optional(),
  drainTimeoutMs: z.number().int().min(0).max(3_600_000),
  announcedAddress: z.string().regex(IPV4, 'must be an IPv4 address').optional(),
  tls: z.strictObject({ cert: z.string().min(1), key: z.string().min(1) }).optional(),
  turn: turnSchema.optional(),
};

/** The same fields in the configuration file (drainTimeoutMs optional there). */
export const networkFileFields = {
  ...networkSchemaFields,
  drainTimeoutMs: networkSchemaFields.drainTimeoutMs.optional(),
  turn: turnSchema.partial({ ttlSeconds: true }).optional(),
};

/** Error type the caller throws (ConfigError), injected to avoid an import cycle. */
type Fail = (message: string) => never;

/**
 * CONCLAVE_REDIS_URL, CONCLAVE_NODE_ID, CONCLAVE_NODE_URL, CONCLAVE_CLUSTER_SECRET, CONCLAVE_DRAIN_TIMEOUT_MS, CONCLAVE_ANNOUNCED_ADDRESS,
 * CONCLAVE_TLS_CERT + CONCLAVE_TLS_KEY, CONCLAVE_TURN_URLS (comma-separated) + CONCLAVE_TURN_SECRET
 * (+ CONCLAVE_TURN_TTL), over the file's fields and under the code's.
 */
export function networkFromEnv(env: NodeJS.ProcessEnv, file: ConfigFile, defaults: Partial<NetworkConfig>, fail: Fail): NetworkConfig {
  const pick = <K extends keyof NetworkConfig>(key: K, envName: string): NetworkConfig[K] | undefined =>
    (env[envName] || undefined) as NetworkConfig[K] | undefined ?? defaults[key] ?? file[key] as NetworkConfig[K] | undefined;
  const drainRaw = env.CONCLAVE_DRAIN_TIMEOUT_MS;
  let drainTimeoutMs = defaults.drainTimeoutMs ?? file.drainTimeoutMs ?? 30_000;
  if (drainRaw) {
    drainTimeoutMs = Number(drainRaw);
    if (!Number.isInteger(drainTimeoutMs) || drainTimeoutMs < 0 || drainTimeoutMs > 3_600_000) fail(`CONCLAVE_DRAIN_TIMEOUT_MS must be an integer between 0 and 3600000, got '${drainRaw}'`);
  }
  const announcedAddress = pick('announcedAddress', 'CONCLAVE_ANNOUNCED_ADDRESS');
  if (announcedAddress !== undefined && !IPV4.test(announcedAddress)) fail(`CONCLAVE_ANNOUNCED_ADDRESS must be an IPv4 address, got '${announcedAddress}'`);
  let tls = defaults.tls ?? file.tls;
  if (env.CONCLAVE_TLS_CERT || env.CONCLAVE_TLS_KEY) {
    if (!env.CONCLAVE_TLS_CERT || !env.CONCLAVE_TLS_KEY) fail('CONCLAVE_TLS_CERT and CONCLAVE_TLS_KEY must be set together');
    tls = { cert: env.CONCLAVE_TLS_CERT, key: env.CONCLAVE_TLS_KEY };
  }
  let turn: TurnConfig | undefined = defaults.turn ?? (file.turn ? { ttlSeconds: 86_400, ...file.turn } : undefined);
  if (env.CONCLAVE_TURN_URLS || env.CONCLAVE_TURN_SECRET) {
    if (!env.CONCLAVE_TURN_URLS || !env.CONCLAVE_TURN_SECRET) fail('CONCLAVE_TURN_URLS and CONCLAVE_TURN_SECRET must be set together');
    const ttl = env.CONCLAVE_TURN_TTL ? Number(env.CONCLAVE_TURN_TTL) : turn?.ttlSeconds ?? 86_400;
    if (!Number.isInteger(ttl) || ttl < 60) fail(`CONCLAVE_TURN_TTL must be an integer of at least 60 seconds, got '${env.CONCLAVE_TURN_TTL}'`);
    turn = { urls: env.CONCLAVE_TURN_URLS.split(',').map((u) => u.trim()).filter(Boolean), secret: env.CONCLAVE_TURN_SECRET, ttlSeconds: ttl, ...(turn?.useTurnTcpInfo ? { useTurnTcpInfo: turn.useTurnTcpInfo } : {}) };
  }
  if (turn && (env.CONCLAVE_TURN_RTT_RATIO || env.CONCLAVE_TURN_RTT_MS)) {
    const ratio = Number(env.CONCLAVE_TURN_RTT_RATIO ?? turn.useTurnTcpInfo?.rttRatioThreshold ?? DEFAULT_TURN_TCP_INFO.rttRatioThreshold);
    const rtt = Number(env.CONCLAVE_TURN_RTT_MS ?? turn.useTurnTcpInfo?.rttThreshold ?? DEFAULT_TURN_TCP_INFO.rttThreshold);
    if (!(ratio >= 1 && ratio <= 100)) fail(`CONCLAVE_TURN_RTT_RATIO must be a number between 1 and 100, got '${env.CONCLAVE_TURN_RTT_RATIO}'`);
    if (!Number.isInteger(rtt) || rtt < 0 || rtt > 10_000) fail(`CONCLAVE_TURN_RTT_MS must be an integer between 0 and 10000, got '${env.CONCLAVE_TURN_RTT_MS}'`);
    turn = { ...turn, useTurnTcpInfo: { ...turn.useTurnTcpInfo, rttRatioThreshold: ratio, rttThreshold: rtt } };
  }
  if (turn && (env.CONCLAVE_TURN_LOSS || env.CONCLAVE_TURN_LOSS_COUNT)) {
    const loss = Number(env.CONCLAVE_TURN_LOSS ?? turn.useTurnTcpInfo?.loss ?? DEFAULT_TURN_TCP_INFO.loss);
    const lossCount = Number(env.CONCLAVE_TURN_LOSS_COUNT ?? turn.useTurnTcpInfo?.lossCount ?? DEFAULT_TURN_TCP_INFO.lossCount);
    if (!(loss >= 0 && loss <= 100)) fail(`CONCLAVE_TURN_LOSS must be a percentage between 0 and 100, got '${env.CONCLAVE_TURN_LOSS}'`);
    if (!Number.isInteger(lossCount) || lossCount < 1 || lossCount > 100) fail(`CONCLAVE_TURN_LOSS_COUNT must be an integer between 1 and 100, got '${env.CONCLAVE_TURN_LOSS_COUNT}'`);
    const base = turn.useTurnTcpInfo ?? { rttRatioThreshold: DEFAULT_TURN_TCP_INFO.rttRatioThreshold, rttThreshold: DEFAULT_TURN_TCP_INFO.rttThreshold };
    turn = { ...turn, useTurnTcpInfo: { ...base, loss, lossCount } };
  }
  const redisUrl = pick('redisUrl', 'CONCLAVE_REDIS_URL');
  const nodeId = pick('nodeId', 'CONCLAVE_NODE_ID');
  const nodeUrl = pick('nodeUrl', 'CONCLAVE_NODE_URL');
  const clusterSecret = pick('clusterSecret', 'CONCLAVE_CLUSTER_SECRET');
  return {
    drainTimeoutMs,
    ...(redisUrl ? { redisUrl } : {}),
    ...(nodeId ? { nodeId } : {}),
    ...(nodeUrl ? { nodeUrl: nodeUrl.replace(/\/$/, '') } : {}),
    ...(clusterSecret ? { clusterSecret } : {}),
    ...(announcedAddress ? { announcedAddress } : {}),
    ...(tls ? { tls } : {}),
    ...(turn ? { turn } : {}),
  };
}
