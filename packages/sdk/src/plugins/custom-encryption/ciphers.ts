/**
 * The region ciphers of CustomEncryption. Built-ins are authenticated (GCM): a wrong key, a wrong salt or a
 * damaged region does not open, and the frame is dropped instead of reaching a decoder. Each sealed region is
 * `ciphertext ‖ tag (16) ‖ IV (12)` with a random IV per region — never a fixed IV, which GCM cannot survive —
 * and the salt, when given, is authenticated as associated data (both sides must use the same one).
 * SM4 is SM4-GCM from sm-crypto-v2 (typed, ESM, maintained; pure JS, no WebCrypto SM4 exists).
 */
import { sm4 } from 'sm-crypto-v2';
import type { RegionCipher } from './frame-layout.js';
import type { Algorithm, CustomCryptors } from './options.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Why a built-in cipher cannot be made from these options (the plugin turns it into INVALID_PARAMETER). */
export class CipherOptionsError extends Error {}

/** The key length an algorithm needs (AES-GCM: 16 or 32, picked by the key, as the original does). */
function checkKey(algorithm: Algorithm, key: Uint8Array): void {
  const wanted: Record<Algorithm, number[]> = { 'AES-GCM': [16, 32], 'AES-128-GCM': [16], 'AES-256-GCM': [32], SM4: [16] };
  const lengths = wanted[algorithm] as number[] | undefined;
  if (!lengths) throw new CipherOptionsError(`builtinOptions.algorithm must be one of ${Object.keys(wanted).join(', ')}`);
  if (!(key instanceof Uint8Array) || !lengths.includes(key.length)) {
    throw new CipherOptionsError(`builtinOptions.secretKey of ${algorithm} must be a Uint8Array of ${lengths.join(' or ')} bytes`);
  }
}

function randomIv(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(IV_BYTES));
}

/** AES-GCM through WebCrypto. */
async function aesGcm(key: Uint8Array, salt: Uint8Array): Promise<RegionCipher> {
  const cryptoKey = await crypto.subtle.importKey('raw', key.slice(), 'AES-GCM', false, ['encrypt', 'decrypt']);
  const params = (iv: Uint8Array<ArrayBuffer>): AesGcmParams => ({ name: 'AES-GCM', iv, additionalData: salt.slice(), tagLength: TAG_BYTES * 8 });
  return {
    async seal(clear) {
      const iv = randomIv();
      const sealed = new Uint8Array(await crypto.subtle.encrypt(params(iv), cryptoKey, clear.slice()));
      const out = new Uint8Array(sealed.length + IV_BYTES);
      out.set(sealed);
      out.set(iv, sealed.length);
      return out;
    },
    async open(sealed) {
      if (sealed.length < TAG_BYTES + IV_BYTES) return undefined;
      const iv = sealed.slice(sealed.length - IV_BYTES);
      try {
        return new Uint8Array(await crypto.subtle.decrypt(params(iv), cryptoKey, sealed.slice(0, sealed.length - IV_BYTES)));
      } catch {
        return undefined; // a frame that does not open (wrong key, damaged): undefined drops it before the decoder
      }
    },
  };
}

/** SM4-GCM through sm-crypto-v2 (synchronous). */
function sm4Gcm(key: Uint8Array, salt: Uint8Array): RegionCipher {
  const keyCopy = key.slice();
  return {
    seal(clear) {
      const iv = randomIv();
      const { output, tag } = sm4.encrypt(clear, keyCopy, { mode: 'gcm', iv, associatedData: salt, padding: 'none', output: 'array', outputTag: true });
      const out = new Uint8Array(output.length + TAG_BYTES + IV_BYTES);
      out.set(output);
      out.set(tag ?? new Uint8Array(TAG_BYTES), output.length);
      out.set(iv, output.length + TAG_BYTES);
      return out;
    },
    open(sealed) {
      if (sealed.length < TAG_BYTES + IV_BYTES) return undefined;
      const ivAt = sealed.length - IV_BYTES;
      const tagAt = ivAt - TAG_BYTES;
      try {
        return sm4.decrypt(sealed.subarray(0, tagAt), keyCopy, { mode: 'gcm', iv: sealed.subarray(ivAt), tag: sealed.subarray(tagAt, ivAt), associatedData: salt, padding: 'none', output: 'array' });
      } catch {
        return undefined; // a frame that does not open (wrong key, damaged): undefined drops it before the decoder
      }
    },
  };
}

/** A built-in cipher; throws CipherOptionsError for a wrong algorithm or key. */
export function builtinCipher(algorithm: Algorithm, secretKey: Uint8Array, salt: Uint8Array = new Uint8Array(0)): Promise<RegionCipher> {
  checkKey(algorithm, secretKey);
  if (!(salt instanceof Uint8Array)) throw new CipherOptionsError('builtinOptions.salt must be a Uint8Array');
  return algorithm === 'SM4' ? Promise.resolve(sm4Gcm(secretKey, salt.slice())) : aesGcm(secretKey, salt.slice());
}

/**
 * An app's own cryptors: called with the region to seal / open, as the original calls them. A decryptor that
 * throws or returns a non-Uint8Array drops the frame; one that returns garbage (a wrong key of an
 * unauthenticated cipher) cannot be told apart here, so the decoder gets it.
 */
export function customCipher(cryptors: CustomCryptors): RegionCipher {
  return {
    seal: (clear) => cryptors.encryptor(clear.slice()),
    open(sealed) {
      try {
        const opened = cryptors.decryptor(sealed.slice());
        return opened instanceof Uint8Array ? opened : undefined;
      } catch {
        return undefined; // a frame that does not open (wrong key, damaged): undefined drops it before the decoder
      }
    },
  };
}
