import { randomBytes } from 'node:crypto';
import { LIMITS } from '@conclave/protocol';

/** One application: an sdkAppId and the secret key its userSigs are signed with. */
export interface AppConfig {
  sdkAppId: number;
  secretKey: string;
}

/** Everything the server needs to run. */
export interface ServerConfig {
  /** TCP port; 0 picks a free one. */
  port: number;
  /** Address to listen on. */
  host: string;
  /** Configured apps. */
  apps: AppConfig[];
  /** True when the built-in dev app is in use (its key is printed and offered to the demo). */
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
}

/** Raised when the environment holds an invalid setting; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The sdkAppId of the built-in development app. */
export const DEV_SDKAPPID = 1400000001;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got '${raw}'`);
  }
  return value;
}

/**
 * Reads the configuration from environment variables, validating each:
 * PORT (default 8080), HOST (default 0.0.0.0), CONCLAVE_SDKAPPID + CONCLAVE_SECRET_KEY (both or neither;
 * neither means a dev app with a generated key), CONCLAVE_ICE_ADDRESS, CONCLAVE_HEARTBEAT_TIMEOUT_MS,
 * CONCLAVE_LOG_LEVEL. Throws ConfigError naming the bad variable.
 */
export function configFromEnv(env: NodeJS.ProcessEnv, defaults: Partial<ServerConfig> = {}): ServerConfig {
  const port = parseInteger(env, 'PORT', defaults.port ?? 8080, 0, 65535);
  const heartbeatTimeoutMs = parseInteger(env, 'CONCLAVE_HEARTBEAT_TIMEOUT_MS', defaults.heartbeatTimeoutMs ?? 18_000, 1000, 600_000);
  const sessionGraceMs = parseInteger(env, 'CONCLAVE_SESSION_GRACE_MS', defaults.sessionGraceMs ?? LIMITS.SESSION_GRACE_MS, 0, 600_000);
  const rawAppId = env.CONCLAVE_SDKAPPID;
  const secretKey = env.CONCLAVE_SECRET_KEY;
  let apps: AppConfig[];
  let devMode = false;
  if (rawAppId || secretKey) {
    if (!rawAppId || !secretKey) throw new ConfigError('CONCLAVE_SDKAPPID and CONCLAVE_SECRET_KEY must be set together');
    const sdkAppId = parseInteger(env, 'CONCLAVE_SDKAPPID', 0, 1, 0xffffffff);
    if (secretKey.length < 16) throw new ConfigError('CONCLAVE_SECRET_KEY must be at least 16 characters');
    apps = [{ sdkAppId, secretKey }];
  } else if (defaults.apps && defaults.apps.length > 0) {
    apps = defaults.apps;
  } else {
    apps = [{ sdkAppId: DEV_SDKAPPID, secretKey: randomBytes(32).toString('hex') }];
    devMode = true;
  }
  const logLevel = env.CONCLAVE_LOG_LEVEL ?? defaults.logLevel ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`CONCLAVE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const iceAddress = env.CONCLAVE_ICE_ADDRESS ?? defaults.iceAddress;
  if (iceAddress !== undefined && !/^\d{1,3}(\.\d{1,3}){3}$/.test(iceAddress)) {
    throw new ConfigError(`CONCLAVE_ICE_ADDRESS must be an IPv4 address, got '${iceAddress}'`);
  }
  return {
    port,
    host: env.HOST ?? defaults.host ?? '0.0.0.0',
    apps,
    devMode: defaults.devMode ?? devMode,
    iceAddress,
    heartbeatTimeoutMs,
    sessionGraceMs,
    demoDir: defaults.demoDir,
    sdkDir: defaults.sdkDir,
    logLevel,
  };
}
