/**
 * Runtime patches of werift's hot path (issue 26; docs/architecture.md "Patched dependencies"): SRTP encryption
 * of outgoing RTP, which the SFU does once per forwarded packet per subscriber. Applied once, on import.
 * Byte-identical output (werift-srtp.test.ts checks RFC vectors and werift's own ciphers): only the per-packet
 * overhead of werift's node:crypto use is gone. NOT imported by the server yet: with it, the 12-user room of
 * media-plane.e2e.ts failed three times in a row on a loaded machine (the viewer's downlink failed) and passed
 * without it; the cause is not found (issue 26).
 */
import { createCipheriv, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { SrtpSession, type RtpHeader } from 'werift';

/** The fields of werift's SRTP ciphers (CipherAesCtr, CipherAesGcm) that encryption reads. */
interface CipherFields {
  srtpSessionKey: Buffer;
  srtpSessionSalt: Buffer;
  srtpSessionAuthTag?: Buffer;
  encryptRtp(header: RtpHeader, payload: Buffer, rolloverCounter: number): Buffer;
}

/**
 * Key objects made once per cipher: node:crypto makes one from a raw key Buffer on every createCipheriv /
 * createHmac call otherwise (a good part of the per-packet cost).
 */
interface CachedKeys {
  key: KeyObject;
  auth: KeyObject | undefined;
}

const keys = new WeakMap<CipherFields, CachedKeys>();

function cachedKeys(cipher: CipherFields): CachedKeys {
  let cached = keys.get(cipher);
  if (!cached) {
    cached = {
      key: createSecretKey(cipher.srtpSessionKey),
      auth: cipher.srtpSessionAuthTag ? createSecretKey(cipher.srtpSessionAuthTag) : undefined,
    };
    keys.set(cipher, cached);
  }
  return cached;
}

/** RFC 7714 §8.1: 00 00 ‖ SSRC ‖ ROC ‖ SEQ, XOR the 12-byte session salt. */
export function gcmRtpIv(salt: Buffer, ssrc: number, roc: number, seq: number): Buffer {
  const iv = Buffer.allocUnsafe(12);
  iv.writeUInt16BE(0, 0);
  iv.writeUInt32BE(ssrc >>> 0, 2);
  iv.writeUInt32BE(roc >>> 0, 6);
  iv.writeUInt16BE(seq & 0xffff, 10);
  for (let i = 0; i < 12; i++) iv[i] ^= salt[i];
  return iv;
}

/** RFC 3711 §4.1.1: (SSRC ‖ ROC ‖ SEQ) · 2^16, XOR the 14-byte session salt, as a 128-bit counter block. */
export function ctrRtpCounter(salt: Buffer, ssrc: number, roc: number, seq: number): Buffer {
  const counter = Buffer.alloc(16);
  counter.writeUInt32BE(ssrc >>> 0, 4);
  counter.writeUInt32BE(roc >>> 0, 8);
  counter.writeUInt16BE(seq & 0xffff, 12);
  for (let i = 0; i < salt.length; i++) counter[i] ^= salt[i];
  return counter;
}

/** AEAD_AES_128_GCM (RFC 7714): the header is authenticated, the payload encrypted, a 16-byte tag appended. */
function encryptRtpGcm(this: CipherFields, header: RtpHeader, payload: Buffer, rolloverCounter: number): Buffer {
  const head = header.serialize(header.serializeSize);
  const cipher = createCipheriv('aes-128-gcm', cachedKeys(this).key, gcmRtpIv(this.srtpSessionSalt, header.ssrc, rolloverCounter, header.sequenceNumber));
  cipher.setAAD(head);
  const body = cipher.update(payload);
  cipher.final();
  const tag = cipher.getAuthTag();
  return Buffer.concat([head, body, tag], head.length + body.length + tag.length);
}

/** AES_CM_128_HMAC_SHA1_80 (RFC 3711): the payload encrypted in counter mode, HMAC-SHA1 of header ‖ payload ‖ ROC cut to 10 bytes. */
function encryptRtpCtr(this: CipherFields, header: RtpHeader, payload: Buffer, rolloverCounter: number): Buffer {
  const head = header.serialize(header.serializeSize);
  const { key, auth } = cachedKeys(this);
  if (!auth) throw new Error('AES-CM SRTP cipher without an authentication key');
  const body = createCipheriv('aes-128-ctr', key, ctrRtpCounter(this.srtpSessionSalt, header.ssrc, rolloverCounter, header.sequenceNumber)).update(payload);
  const roc = Buffer.allocUnsafe(4);
  roc.writeUInt32BE(rolloverCounter >>> 0, 0);
  const tag = createHmac('sha1', auth).update(head).update(body).update(roc).digest();
  return Buffer.concat([head, body, tag.subarray(0, 10)], head.length + body.length + 10);
}

/** werift's cipher class of each SRTP profile, found through a throwaway session (the classes are not exported). */
function cipherPrototype(profile: 1 | 7): CipherFields {
  const session = new SrtpSession({
    keys: { localMasterKey: Buffer.alloc(16), localMasterSalt: Buffer.alloc(14), remoteMasterKey: Buffer.alloc(16), remoteMasterSalt: Buffer.alloc(14) },
    profile,
  });
  return Object.getPrototypeOf(session.localContext.cipher) as CipherFields;
}

/** werift's own encryptRtp of each profile (kept so tests can compare the patched one with it). */
export const originalEncryptRtp: Readonly<Record<'ctr' | 'gcm', CipherFields['encryptRtp']>> = (() => {
  const ctr = cipherPrototype(1);
  const gcm = cipherPrototype(7);
  const original = { ctr: ctr.encryptRtp, gcm: gcm.encryptRtp };
  ctr.encryptRtp = encryptRtpCtr;
  gcm.encryptRtp = encryptRtpGcm;
  return original;
})();
