import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The algorithm name TencentCloud API 3.0 requests are signed with. */
export const TC3_ALGORITHM = 'TC3-HMAC-SHA256';

/** What an `Authorization: TC3-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…` header says. */
export interface Tc3Authorization {
  secretId: string;
  /** The credential scope's date, `YYYY-MM-DD` (UTC), which must be the date of X-TC-Timestamp. */
  date: string;
  /** The credential scope's service (the first label of the host the client was pointed at, e.g. `trtc`). */
  service: string;
  /** Lower-case header names, in the order they were signed. */
  signedHeaders: string[];
  /** Hex HMAC-SHA256. */
  signature: string;
}

/** What a signature covers besides the headers. */
export interface Tc3Request {
  method: string;
  /** The URL path (`/`). */
  path: string;
  /** The query string without `?` (empty for POST). */
  query: string;
  /** `name:value` lines of the signed headers, in signing order (see canonicalHeader). */
  canonicalHeaders: string[];
  signedHeaders: string[];
  /** The body exactly as received. */
  payload: Buffer;
  /** X-TC-Timestamp, seconds. */
  timestamp: number;
  date: string;
  service: string;
}

/** Parses the Authorization header; undefined when it is not a well-formed TC3-HMAC-SHA256 one. */
export function parseTc3Authorization(header: string | undefined): Tc3Authorization | undefined {
  if (!header) return undefined;
  const match = /^TC3-HMAC-SHA256\s+Credential=([^/\s,]+)\/(\d{4}-\d{2}-\d{2})\/([A-Za-z0-9_.-]+)\/tc3_request\s*,\s*SignedHeaders=([a-z0-9;-]+)\s*,\s*Signature=([0-9a-f]{64})\s*$/.exec(header.trim());
  if (!match) return undefined;
  const signedHeaders = match[4].split(';').filter(Boolean);
  if (signedHeaders.length === 0) return undefined;
  return { secretId: match[1], date: match[2], service: match[3], signedHeaders, signature: match[5] };
}

/** The UTC date of a timestamp in seconds, `YYYY-MM-DD`: the credential scope's date. */
export function tc3Date(timestamp: number): string {
  return new Date(timestamp * 1000).toISOString().slice(0, 10);
}

/** One canonical header line: lower-case name, trimmed lower-case value. */
export function canonicalHeader(name: string, value: string): string {
  return `${name.toLowerCase()}:${value.trim().toLowerCase()}`;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** The hex signature of a request under a SecretKey (TencentCloud API 3.0, signature version 3). */
export function tc3Signature(request: Tc3Request, secretKey: string): string {
  const canonicalRequest = [
    request.method.toUpperCase(), request.path, request.query,
    `${request.canonicalHeaders.join('\n')}\n`, request.signedHeaders.join(';'), sha256Hex(request.payload),
  ].join('\n');
  const scope = `${request.date}/${request.service}/tc3_request`;
  const stringToSign = [TC3_ALGORITHM, String(request.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(`TC3${secretKey}`, request.date), request.service), 'tc3_request');
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}

/** Compares two hex signatures in constant time. */
export function sameSignature(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
