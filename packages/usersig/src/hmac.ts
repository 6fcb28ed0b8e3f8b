/**
 * HMAC-SHA256 through WebCrypto (`globalThis.crypto.subtle`), available in Node 20 and in browsers.
 */

const encoder = new TextEncoder();

/**
 * Computes HMAC-SHA256 of `message` with `key`, both taken as UTF-8 text (as the original tool's
 * `crypto.createHmac('sha256', key).update(content)` does).
 * @param key - the secret key; must not be empty (WebCrypto rejects zero-length HMAC keys)
 * @param message - the text to authenticate
 * @returns the 32-byte MAC
 */
export async function hmacSha256(key: string, message: string): Promise<Uint8Array> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new Error('WebCrypto (globalThis.crypto.subtle) is not available; a secure context or Node 20+ is required');
  }
  const cryptoKey = await subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await subtle.sign('HMAC', cryptoKey, encoder.encode(message)));
}

/**
 * Compares two byte arrays in time that depends only on their lengths, not on where they differ.
 * @param a - first array
 * @param b - second array
 * @returns whether the arrays are equal
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}
