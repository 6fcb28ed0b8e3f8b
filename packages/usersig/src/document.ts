/**
 * The TLSSigAPIv2 document: a JSON object of `TLS.*` fields, zlib-deflated and base64-encoded in a URL-safe
 * alphabet. This module encodes and decodes it; it does not check signatures (see verify.ts).
 */
import { Unzlib, zlibSync } from 'fflate';
import { decodeBase64, decodeBase64Url, encodeBase64Url } from './base64url.js';
import { UserSigError } from './errors.js';

/**
 * Longest userSig or privateMapKey string accepted for decoding. The official TLSSigAPIv2 tool makes userSigs of
 * at most 232 characters and privateMapKeys of at most 408 (a 32-character userId, a 64-character strRoomId,
 * 32-bit ids and times); 1024 leaves room for other tools' encoders and bounds what a crafted string can cost
 * before its signature is checked.
 */
export const MAX_USERSIG_LENGTH = 1024;

/**
 * Largest decompressed document accepted. A real one is at most about 350 bytes of JSON; decompression stops as
 * soon as a crafted string (a zlib bomb) inflates past this, before the rest of it is decompressed.
 */
export const MAX_INFLATED_BYTES = 4096;

/** Compressed bytes handed to the decompressor at a time: each step inflates to at most ~66 KB. */
const INFLATE_STEP = 64;

/** A decoded userSig or privateMapKey. Numeric fields arrive as JSON numbers or numeric strings and are
 * normalised to numbers here. */
export interface SigDocument {
  /** `TLS.ver`; always `"2.0"` for this format. */
  version: string;
  /** `TLS.identifier`: the userId the sig was made for. */
  userId: string;
  /** `TLS.sdkappid`: the application the sig was made for. */
  sdkAppId: number;
  /** `TLS.time`: when the sig was made, in seconds since the Unix epoch. */
  time: number;
  /** `TLS.expire`: how long the sig is valid, in seconds from `time`. */
  expire: number;
  /** `time + expire`: the moment (seconds since the epoch) after which the sig is expired. */
  expiresAt: number;
  /** `TLS.userbuf` decoded, when present (privateMapKeys carry one). */
  userbuf?: Uint8Array;
  /** `TLS.userbuf` exactly as it appears in the document (base64); it is signed verbatim. */
  userbufBase64?: string;
  /** `TLS.sig`: base64 of HMAC-SHA256(secretKey, signedContent). */
  sig: string;
  /** The exact text `TLS.sig` is a MAC of, rebuilt from the document's fields. */
  signedContent: string;
}

/** Field values, as text, that go into the signed content. */
export interface SignedFields {
  /** The userId. */
  identifier: string;
  /** The sdkAppId as written in the document. */
  sdkappid: string;
  /** The creation time as written in the document. */
  time: string;
  /** The lifetime as written in the document. */
  expire: string;
  /** The base64 userbuf, when there is one. */
  userbuf?: string;
}

/**
 * Builds the text that `TLS.sig` authenticates, as TLSSigAPIv2's `_hmacsha256` does.
 * @param f - the field values
 * @returns the content to be signed
 */
export function buildSignedContent(f: SignedFields): string {
  let content =
    `TLS.identifier:${f.identifier}\n` +
    `TLS.sdkappid:${f.sdkappid}\n` +
    `TLS.time:${f.time}\n` +
    `TLS.expire:${f.expire}\n`;
  if (f.userbuf !== undefined) content += `TLS.userbuf:${f.userbuf}\n`;
  return content;
}

/** What goes into a new document. */
export interface NewDocument {
  /** The userId. */
  userId: string;
  /** The application id. */
  sdkAppId: number;
  /** Creation time, seconds. */
  time: number;
  /** Lifetime, seconds. */
  expire: number;
  /** Base64 userbuf, if any. */
  userbufBase64?: string;
  /** Base64 HMAC. */
  sig: string;
}

/**
 * Serialises a document exactly as the original tool does: the same field order and JSON types, zlib format
 * deflate, then base64 in the URL-safe alphabet.
 * @param doc - the document fields
 * @returns the userSig string
 */
export function encodeSigDocument(doc: NewDocument): string {
  const json: Record<string, string | number> = {
    'TLS.ver': '2.0',
    'TLS.identifier': doc.userId,
    'TLS.sdkappid': doc.sdkAppId,
    'TLS.time': doc.time,
    'TLS.expire': doc.expire,
  };
  if (doc.userbufBase64 !== undefined) json['TLS.userbuf'] = doc.userbufBase64;
  json['TLS.sig'] = doc.sig;
  return encodeBase64Url(zlibSync(new TextEncoder().encode(JSON.stringify(json))));
}

/**
 * Decodes a userSig or privateMapKey without checking its signature, expiry or owner.
 *
 * Accepts what the original TLSSigAPIv2 tools emit: `TLS.sdkappid`, `TLS.time` and `TLS.expire` as JSON
 * numbers or as strings of decimal digits. Unknown extra fields are ignored.
 * @param sig - the userSig string
 * @returns the decoded document
 * @throws {@link UserSigError} with reason `malformed` when the string is not a well-formed userSig
 */
export function decodeUserSig(sig: string): SigDocument {
  if (typeof sig !== 'string' || sig.length === 0) {
    throw new UserSigError('malformed', 'userSig is empty');
  }
  if (sig.length > MAX_USERSIG_LENGTH) {
    throw new UserSigError(
      'malformed',
      `userSig is ${sig.length} characters long; at most ${MAX_USERSIG_LENGTH} are accepted`,
    );
  }
  const compressed = decodeBase64Url(sig, 'userSig');
  const text = inflate(compressed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UserSigError('malformed', 'userSig does not contain valid JSON after decompression');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UserSigError('malformed', 'userSig does not contain a JSON object');
  }
  const obj = parsed as Record<string, unknown>;

  const ver = obj['TLS.ver'];
  if (ver === undefined) throw missing('TLS.ver');
  if (ver !== '2.0' && ver !== 2) {
    throw new UserSigError('malformed', `userSig has unsupported TLS.ver ${JSON.stringify(ver)}; only "2.0" is supported`);
  }
  const userId = obj['TLS.identifier'];
  if (userId === undefined) throw missing('TLS.identifier');
  if (typeof userId !== 'string') throw wrongType('TLS.identifier', 'a string', userId);
  const sdkAppId = integerField(obj, 'TLS.sdkappid');
  const time = integerField(obj, 'TLS.time');
  const expire = integerField(obj, 'TLS.expire');

  const sigField = obj['TLS.sig'];
  if (sigField === undefined) throw missing('TLS.sig');
  if (typeof sigField !== 'string') throw wrongType('TLS.sig', 'a string', sigField);
  decodeBase64(sigField, 'TLS.sig');

  const userbufField = obj['TLS.userbuf'];
  let userbuf: Uint8Array | undefined;
  if (userbufField !== undefined) {
    if (typeof userbufField !== 'string') throw wrongType('TLS.userbuf', 'a string', userbufField);
    userbuf = decodeBase64(userbufField, 'TLS.userbuf');
  }

  const doc: SigDocument = {
    version: String(ver === 2 ? '2.0' : ver),
    userId,
    sdkAppId: sdkAppId.value,
    time: time.value,
    expire: expire.value,
    expiresAt: time.value + expire.value,
    sig: sigField,
    signedContent: buildSignedContent({
      identifier: userId,
      sdkappid: sdkAppId.text,
      time: time.text,
      expire: expire.text,
      userbuf: typeof userbufField === 'string' ? userbufField : undefined,
    }),
  };
  if (userbuf !== undefined && typeof userbufField === 'string') {
    doc.userbuf = userbuf;
    doc.userbufBase64 = userbufField;
  }
  return doc;
}

function inflate(compressed: Uint8Array): string {
  const out = inflateBounded(compressed, MAX_INFLATED_BYTES);
  // fflate does not check the Adler-32 trailer (and accepts some truncated streams), so check it here.
  const n = compressed.length;
  const trailer = n >= 6 ? ((compressed[n - 4] << 24) | (compressed[n - 3] << 16) | (compressed[n - 2] << 8) | compressed[n - 1]) >>> 0 : -1;
  if (trailer !== adler32(out)) {
    throw new UserSigError('malformed', 'userSig zlib data is truncated or corrupt (checksum mismatch)');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(out);
  } catch {
    throw new UserSigError('malformed', 'userSig does not contain UTF-8 text after decompression');
  }
}

/**
 * Inflates zlib data a few bytes at a time and stops once the output passes `maxBytes`, so a small input that
 * would inflate to megabytes costs no more than `maxBytes` plus one step.
 */
function inflateBounded(compressed: Uint8Array, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Unzlib((chunk) => {
    total += chunk.length;
    if (total <= maxBytes) chunks.push(chunk);
  });
  try {
    for (let at = 0; at < compressed.length && total <= maxBytes; at += INFLATE_STEP) {
      stream.push(compressed.subarray(at, at + INFLATE_STEP), at + INFLATE_STEP >= compressed.length);
    }
  } catch {
    throw new UserSigError('malformed', 'userSig is not zlib-compressed data');
  }
  if (total > maxBytes) throw new UserSigError('malformed', `userSig inflates to more than ${maxBytes} bytes`);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 3800, data.length);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function integerField(obj: Record<string, unknown>, key: string): { value: number; text: string } {
  const v = obj[key];
  if (v === undefined) throw missing(key);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return { value: v, text: String(v) };
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return { value: Number(v), text: v };
  throw wrongType(key, 'a non-negative integer', v);
}

function missing(key: string): UserSigError {
  return new UserSigError('malformed', `userSig is missing the ${key} field`);
}

function wrongType(key: string, expected: string, got: unknown): UserSigError {
  let shown = JSON.stringify(got) ?? typeof got;
  if (shown.length > 60) shown = `${shown.slice(0, 57)}...`;
  return new UserSigError('malformed', `userSig field ${key} should be ${expected}, got ${shown}`);
}
