import type { IncomingHttpHeaders } from 'node:http';
import type { AppConfig, CloudApiKey } from '../config/config.js';
import { CloudApiError } from './cloud-api-error.js';
import { canonicalHeader, parseTc3Authorization, sameSignature, tc3Date, tc3Signature } from './tc3-signature.js';

/** A request whose signature checked out. */
export interface VerifiedRequest {
  app: AppConfig;
  secretId: string;
  action: string;
  /** The request's signature (hex): accepted once (ReplayGuard). */
  signature: string;
  /** X-TC-Timestamp, seconds. */
  timestamp: number;
}

/** Who signs: each SecretId of each app, with its SecretKey. */
export type KeyRing = ReadonlyMap<string, { app: AppConfig; key: CloudApiKey }>;

/** The key ring of a configuration (SecretIds are unique across apps; the schema checks it). */
export function keyRing(apps: readonly AppConfig[]): KeyRing {
  const ring = new Map<string, { app: AppConfig; key: CloudApiKey }>();
  for (const app of apps) for (const key of app.cloudApiKeys ?? []) ring.set(key.secretId, { app, key });
  return ring;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * The Host values a client may have signed: as sent, and without its port (tencentcloud-sdk-nodejs signs
 * the host name alone while sending host:port).
 */
function hostCandidates(host: string): string[] {
  const bare = host.replace(/:\d+$/, '');
  return bare === host ? [host] : [host, bare];
}

/**
 * Checks a request's TC3-HMAC-SHA256 signature: the SecretId must be configured, X-TC-Timestamp within
 * `skewSeconds` of `nowSeconds`, the credential scope's date that of the timestamp, and the signature that of
 * the SecretKey over the method, path, signed headers and the body as received; an app with
 * `cloudApiRequireSignedAction` also needs x-tc-action among the signed headers. Throws CloudApiError with the
 * API's AuthFailure.* / MissingParameter codes.
 */
export function verifyRequest(ring: KeyRing, req: { method: string; path: string; query: string; headers: IncomingHttpHeaders }, payload: Buffer, nowSeconds: number, skewSeconds: number): VerifiedRequest {
  const { headers } = req;
  const rawAuthorization = header(headers, 'authorization');
  if (!rawAuthorization) throw new CloudApiError('AuthFailure.SignatureFailure', 'the request is not signed (no Authorization header)');
  const auth = parseTc3Authorization(rawAuthorization);
  if (!auth) throw new CloudApiError('AuthFailure.InvalidAuthorization', 'the Authorization header is not a TC3-HMAC-SHA256 one');
  const entry = ring.get(auth.secretId);
  if (!entry) throw new CloudApiError('AuthFailure.SecretIdNotFound', 'this SecretId does not exist (or was removed)');
  const action = header(headers, 'x-tc-action');
  if (!action) throw new CloudApiError('MissingParameter', 'the X-TC-Action header is required');
  const rawTimestamp = header(headers, 'x-tc-timestamp');
  if (!rawTimestamp || !/^\d{1,12}$/.test(rawTimestamp)) throw new CloudApiError('MissingParameter', 'the X-TC-Timestamp header (seconds) is required');
  const timestamp = Number(rawTimestamp);
  if (Math.abs(nowSeconds - timestamp) > skewSeconds) {
    throw new CloudApiError('AuthFailure.SignatureExpire', `the signature has expired: X-TC-Timestamp ${timestamp} is more than ${skewSeconds} s from the server time ${nowSeconds}`);
  }
  if (header(headers, 'x-tc-token')) throw new CloudApiError('AuthFailure.TokenFailure', 'temporary credentials (X-TC-Token) are not supported here; sign with a SecretId/SecretKey pair');
  if (auth.date !== tc3Date(timestamp)) throw new CloudApiError('AuthFailure.SignatureFailure', 'the credential scope date is not the date of X-TC-Timestamp');
  const values: string[][] = [];
  for (const name of auth.signedHeaders) {
    const value = header(headers, name);
    if (value === undefined) throw new CloudApiError('AuthFailure.SignatureFailure', `the signed header ${name} is missing`);
    values.push(name === 'host' ? hostCandidates(value) : [value]);
  }
  // One canonical form per Host candidate (at most two).
  const hostIndex = auth.signedHeaders.indexOf('host');
  const variants = hostIndex < 0 ? [values.map((v) => v[0])] : values[hostIndex].map((host) => values.map((v, i) => (i === hostIndex ? host : v[0])));
  const ok = variants.some((vals) => sameSignature(auth.signature, tc3Signature({
    method: req.method, path: req.path, query: req.query, payload, timestamp, date: auth.date, service: auth.service,
    signedHeaders: auth.signedHeaders, canonicalHeaders: auth.signedHeaders.map((name, i) => canonicalHeader(name, vals[i])),
  }, entry.key.secretKey)));
  if (!ok) throw new CloudApiError('AuthFailure.SignatureFailure', 'the signature does not match the request (check the SecretKey and the signing steps)');
  if (entry.app.cloudApiRequireSignedAction && !auth.signedHeaders.includes('x-tc-action')) {
    throw new CloudApiError('AuthFailure.InvalidAuthorization', 'this app requires X-TC-Action to be signed: SignedHeaders must include x-tc-action');
  }
  return { app: entry.app, secretId: auth.secretId, action, signature: auth.signature, timestamp };
}
