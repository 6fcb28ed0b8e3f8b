/**
 * userSig and privateMapKey verification.
 */
import { decodeBase64 } from './base64url.js';
import { decodeUserSig, type SigDocument } from './document.js';
import { UserSigError, type VerifyFailure } from './errors.js';
import { constantTimeEqual, hmacSha256 } from './hmac.js';
import { parsePrivateMapKeyUserBuf, type PrivateMapKeyInfo } from './private-map-key.js';
import { checkString, checkUint, resolveNow } from './validate.js';

/** A failed verification: the reason category and a human-readable explanation. */
export interface VerifyFailureResult {
  /** Always false. */
  ok: false;
  /** Why the credential was rejected. */
  reason: VerifyFailure;
  /** A human-readable explanation, suitable for logs and for developers. */
  message: string;
}

/** A successful userSig verification. */
export interface VerifySuccess {
  /** Always true. */
  ok: true;
  /** The userId the sig was made for (equal to the one asked about). */
  userId: string;
  /** The sdkAppId the sig was made for (equal to the one asked about). */
  sdkAppId: number;
  /** When the sig was made, seconds since the Unix epoch. */
  time: number;
  /** Lifetime in seconds from `time`. */
  expire: number;
  /** `time + expire`: the second after which the sig is expired. */
  expiresAt: number;
  /** The `TLS.userbuf` bytes, when the sig carries one. */
  userbuf?: Uint8Array;
}

/** The outcome of {@link verifyUserSig}. */
export type VerifyResult = VerifySuccess | VerifyFailureResult;

/** Options for {@link verifyUserSig}. */
export interface VerifyUserSigOptions {
  /** The userSig to check (untrusted input). */
  sig: string;
  /** The application the sig must be for. */
  sdkAppId: number;
  /** The user the sig must be for. */
  userId: string;
  /** The application's secret key. Must not be empty. */
  secretKey: string;
  /** The current time in seconds since the Unix epoch. Default `Math.floor(Date.now() / 1000)`. */
  now?: number;
}

/** Options for {@link verifyPrivateMapKey}. */
export interface VerifyPrivateMapKeyOptions {
  /** The privateMapKey to check (untrusted input). */
  key: string;
  /** The application the key must be for. */
  sdkAppId: number;
  /** The user the key must be for. */
  userId: string;
  /** The application's secret key. Must not be empty. */
  secretKey: string;
  /** The current time in seconds since the Unix epoch. Default `Math.floor(Date.now() / 1000)`. */
  now?: number;
}

/** A successful privateMapKey verification: the userSig fields plus the decoded privileges. */
export interface PrivateMapKeyVerifySuccess extends VerifySuccess {
  /** The raw userbuf (always present for a privateMapKey). */
  userbuf: Uint8Array;
  /** The decoded userbuf: room, privileges and their expiry. */
  info: PrivateMapKeyInfo;
}

/** The outcome of {@link verifyPrivateMapKey}. */
export type PrivateMapKeyVerifyResult = PrivateMapKeyVerifySuccess | VerifyFailureResult;

/**
 * Verifies a userSig for `sdkAppId` and `userId` with `secretKey`.
 *
 * Checks run in this order, and the first failure is returned: decoding (`malformed`), the sdkAppId and userId
 * it was made for (`mismatch`), the HMAC signature, compared in constant time (`wrong-key`), the expiry,
 * `time + expire < now` (`expired`), and last that it is not a privateMapKey (`not-a-usersig`: a document whose
 * userbuf has the privateMapKey layout). Untrusted input never makes this throw; only invalid options do.
 * @param opts - see {@link VerifyUserSigOptions}
 * @returns `{ ok: true, ... }` with the sig's fields, or `{ ok: false, reason, message }`
 * @throws TypeError or RangeError when `sdkAppId`, `userId`, `secretKey` or `now` is of the wrong type, or
 *   `secretKey` is empty
 * @example
 * ```ts
 * const r = await verifyUserSig({ sig, sdkAppId: 1400000000, userId: 'alice', secretKey: 'my-secret' });
 * if (!r.ok) console.warn(`rejected (${r.reason}): ${r.message}`);
 * ```
 */
export async function verifyUserSig(opts: VerifyUserSigOptions): Promise<VerifyResult> {
  const result = await verifyDocument(opts.sig, opts, 'userSig');
  if (result.ok && result.userbuf !== undefined && isPrivateMapKeyUserBuf(result.userbuf)) {
    return fail('not-a-usersig', 'this is a privateMapKey, not a userSig: send it as the privateMapKey, with the user\'s userSig');
  }
  return result;
}

function isPrivateMapKeyUserBuf(userbuf: Uint8Array): boolean {
  try {
    parsePrivateMapKeyUserBuf(userbuf);
    return true;
  } catch {
    return false; // not a privateMapKey's userbuf: the answer to the question asked
  }
}

/**
 * Verifies a privateMapKey for `sdkAppId` and `userId` with `secretKey`, and decodes its privileges.
 *
 * Runs the {@link verifyUserSig} checks, then also requires a well-formed userbuf (`malformed`) made for the
 * same sdkAppId and userId (`mismatch`) whose own expire time has not passed (`expired`). Checking the room id
 * and privileges against what the user is doing is up to the caller.
 * @param opts - see {@link VerifyPrivateMapKeyOptions}
 * @returns `{ ok: true, info, ... }` with the decoded userbuf, or `{ ok: false, reason, message }`
 * @throws TypeError or RangeError on invalid options, as {@link verifyUserSig}
 */
export async function verifyPrivateMapKey(opts: VerifyPrivateMapKeyOptions): Promise<PrivateMapKeyVerifyResult> {
  const what = 'privateMapKey';
  const now = resolveNow(opts.now);
  const result = await verifyDocument(opts.key, { ...opts, now }, what);
  if (!result.ok) return result;
  if (result.userbuf === undefined) {
    return fail('malformed', `${what} has no TLS.userbuf; it looks like a plain userSig, not a privateMapKey`);
  }
  let info: PrivateMapKeyInfo;
  try {
    info = parsePrivateMapKeyUserBuf(result.userbuf);
  } catch (e) {
    if (e instanceof UserSigError) return fail(e.reason, e.message);
    throw e;
  }
  const mismatch = checkOwner(what + ' userbuf', info, opts);
  if (mismatch) return mismatch;
  if (info.expireTime < now) {
    return fail('expired', `${what} privileges expired at ${formatTime(info.expireTime)}; it is now ${formatTime(now)}`);
  }
  return { ...result, userbuf: result.userbuf, info };
}

async function verifyDocument(
  sig: unknown,
  opts: { sdkAppId: number; userId: string; secretKey: string; now?: number },
  what: string,
): Promise<VerifyResult> {
  checkUint('sdkAppId', opts.sdkAppId);
  checkString('userId', opts.userId, true);
  checkString('secretKey', opts.secretKey);
  const now = resolveNow(opts.now);

  if (typeof sig !== 'string') return fail('malformed', `${what} must be a string, got ${typeof sig}`);
  let doc: SigDocument;
  try {
    doc = decodeUserSig(sig);
  } catch (e) {
    if (e instanceof UserSigError) return fail(e.reason, e.message.replace(/^userSig\b/, what));
    throw e;
  }

  const mismatch = checkOwner(what, doc, opts);
  if (mismatch) return mismatch;

  const expected = await hmacSha256(opts.secretKey, doc.signedContent);
  if (!constantTimeEqual(expected, decodeBase64(doc.sig, 'TLS.sig'))) {
    return fail(
      'wrong-key',
      `${what} signature does not match: it was not made with this sdkAppId's secret key, or it was altered`,
    );
  }

  if (doc.expiresAt < now) {
    return fail(
      'expired',
      `${what} expired at ${formatTime(doc.expiresAt)} (issued ${formatTime(doc.time)}, valid for ${doc.expire} s); ` +
        `it is now ${formatTime(now)}`,
    );
  }

  const ok: VerifySuccess = {
    ok: true,
    userId: doc.userId,
    sdkAppId: doc.sdkAppId,
    time: doc.time,
    expire: doc.expire,
    expiresAt: doc.expiresAt,
  };
  if (doc.userbuf !== undefined) ok.userbuf = doc.userbuf;
  return ok;
}

function checkOwner(
  what: string,
  got: { sdkAppId: number; userId: string },
  want: { sdkAppId: number; userId: string },
): VerifyFailureResult | undefined {
  if (got.sdkAppId !== want.sdkAppId) {
    return fail('mismatch', `${what} was made for sdkAppId ${got.sdkAppId}, not ${want.sdkAppId}`);
  }
  if (got.userId !== want.userId) {
    return fail('mismatch', `${what} was made for userId '${got.userId}', not '${want.userId}'`);
  }
  return undefined;
}

function fail(reason: VerifyFailure, message: string): VerifyFailureResult {
  return { ok: false, reason, message };
}

function formatTime(seconds: number): string {
  const ms = seconds * 1000;
  return Math.abs(ms) <= 8.64e15 ? `${new Date(ms).toISOString()} (${seconds})` : String(seconds);
}
