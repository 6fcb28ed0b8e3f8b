/**
 * userSig generation in the TLSSigAPIv2 format (tencentyun/tls-sig-api-v2-node).
 */
import { encodeBase64 } from './base64url.js';
import { buildSignedContent, encodeSigDocument } from './document.js';
import { hmacSha256 } from './hmac.js';
import { checkString, checkUint, resolveNow, UINT32_MAX } from './validate.js';

/** Default userSig lifetime: 7 days, in seconds. */
export const DEFAULT_EXPIRE = 604800;

/** Options for {@link genUserSig}. */
export interface GenUserSigOptions {
  /** The application id the sig is for (an unsigned 32-bit integer). */
  sdkAppId: number;
  /** The application's secret key; the HMAC key, used as UTF-8 text. Must not be empty. */
  secretKey: string;
  /** The user the sig is for. Must not be empty. */
  userId: string;
  /** Lifetime in seconds, counted from `now`. Default 604800 (7 days). */
  expire?: number;
  /** The current time in seconds since the Unix epoch. Default `Math.floor(Date.now() / 1000)`. */
  now?: number;
  /** Optional opaque user buffer, stored base64-encoded as `TLS.userbuf` and covered by the signature. */
  userbuf?: Uint8Array;
}

/**
 * Generates a userSig: the credential a client presents to prove it may act as `userId` in `sdkAppId`.
 *
 * The output is byte-for-byte the same JSON document the original TLSSigAPIv2 tool produces (only the
 * deflate stream may differ, as any zlib encoder may choose differently), so any TLSSigAPIv2 verifier accepts it.
 * @param opts - see {@link GenUserSigOptions}
 * @returns the userSig string
 * @throws TypeError or RangeError when an option is missing or out of range
 * @example
 * ```ts
 * const sig = await genUserSig({ sdkAppId: 1400000000, secretKey: 'my-secret', userId: 'alice' });
 * ```
 */
export async function genUserSig(opts: GenUserSigOptions): Promise<string> {
  const { sdkAppId, secretKey, userId, expire = DEFAULT_EXPIRE, userbuf } = opts;
  checkUint('sdkAppId', sdkAppId, UINT32_MAX);
  checkString('secretKey', secretKey);
  checkString('userId', userId);
  checkUint('expire', expire);
  const now = resolveNow(opts.now);
  if (userbuf !== undefined && !(userbuf instanceof Uint8Array)) {
    throw new TypeError('userbuf must be a Uint8Array');
  }
  const userbufBase64 = userbuf === undefined ? undefined : encodeBase64(userbuf);
  const content = buildSignedContent({
    identifier: userId,
    sdkappid: String(sdkAppId),
    time: String(now),
    expire: String(expire),
    userbuf: userbufBase64,
  });
  const sig = encodeBase64(await hmacSha256(secretKey, content));
  return encodeSigDocument({ userId, sdkAppId, time: now, expire, userbufBase64, sig });
}
