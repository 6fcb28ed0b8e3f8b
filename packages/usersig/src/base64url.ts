/**
 * Base64 helpers built on `btoa`/`atob`, so they work in Node 20 and in browsers.
 *
 * TLSSigAPIv2 uses two alphabets: standard base64 (with `=` padding) for the `TLS.sig` and `TLS.userbuf`
 * fields, and a URL-safe variant for the outer userSig string where `+` becomes `*`, `/` becomes `-` and
 * `=` becomes `_`. Note this is not RFC 4648 base64url (which maps `+` to `-` and `/` to `_`).
 */
import { UserSigError } from './errors.js';

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const CHUNK = 0x8000;

/**
 * Encodes bytes as standard base64 with `=` padding (what Node's `Buffer#toString('base64')` produces).
 * @param bytes - the data to encode
 * @returns the base64 text
 */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/**
 * Decodes standard base64. Padding is optional; any character outside the alphabet (including whitespace)
 * is rejected.
 * @param text - the base64 text
 * @param what - what is being decoded, used in the error message (e.g. `"TLS.sig"`)
 * @returns the decoded bytes
 * @throws {@link UserSigError} with reason `malformed` when `text` is not valid base64
 */
export function decodeBase64(text: string, what = 'the input'): Uint8Array {
  const body = text.replace(/=+$/, '');
  if (!STANDARD.test(text) || body.length % 4 === 1) {
    throw new UserSigError('malformed', `${what} is not valid base64`);
  }
  let binary: string;
  try {
    binary = atob(body);
  } catch {
    throw new UserSigError('malformed', `${what} is not valid base64`);
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Encodes bytes in the TLSSigAPIv2 URL-safe alphabet (`+`→`*`, `/`→`-`, `=`→`_`).
 * @param bytes - the data to encode
 * @returns the URL-safe text
 */
export function encodeBase64Url(bytes: Uint8Array): string {
  return encodeBase64(bytes).replace(/\+/g, '*').replace(/\//g, '-').replace(/=/g, '_');
}

/**
 * Decodes text in the TLSSigAPIv2 URL-safe alphabet (`*`→`+`, `-`→`/`, `_`→`=`). Standard base64 characters
 * are accepted too, and padding is optional.
 * @param text - the URL-safe text
 * @param what - what is being decoded, used in the error message
 * @returns the decoded bytes
 * @throws {@link UserSigError} with reason `malformed` when `text` is not valid
 */
export function decodeBase64Url(text: string, what = 'the input'): Uint8Array {
  return decodeBase64(text.replace(/\*/g, '+').replace(/-/g, '/').replace(/_/g, '='), what);
}
