/**
 * SRTP protection of outgoing RTP (RFC 3711 AES_CM_128_HMAC_SHA1_80, RFC 7714 AEAD_AES_128_GCM) with werift's
 * session keys, for the forward path (rtp-send.ts) and werift's own cipher classes (werift-patches.ts). The SFU
 * encrypts once per forwarded packet per subscriber: key objects are made once per session and the packet is
 * written in place into one buffer, where werift made key objects, IVs, counters and three buffers per packet.
 * Output is byte-identical to werift's (werift-srtp.test.ts: libSRTP's known answers and werift's own ciphers).
 */
import { createCipheriv, createHmac, createSecretKey, type KeyObject } from 'node:crypto';

/** The fields of werift's SRTP cipher objects (CipherAesCtr, CipherAesGcm) that encryption reads. */
export interface SrtpCipherFields {
  srtpSessionKey: Buffer;
  srtpSessionSalt: Buffer;
  /** AES-CM only: the session's authentication key. */
  srtpSessionAuthTag?: Buffer;
}

/** What a session protects with, made once per cipher object. */
interface SessionKeys {
  key: KeyObject;
  /** HMAC-SHA1 key of AES-CM; undefined for AES-GCM. */
  auth: KeyObject | undefined;
  tagLength: number;
}

const sessions = new WeakMap<SrtpCipherFields, SessionKeys>();

function sessionKeys(cipher: SrtpCipherFields): SessionKeys {
  let keys = sessions.get(cipher);
  if (!keys) {
    const auth = cipher.srtpSessionAuthTag ? createSecretKey(cipher.srtpSessionAuthTag) : undefined;
    keys = { key: createSecretKey(cipher.srtpSessionKey), auth, tagLength: auth ? 10 : 16 };
    sessions.set(cipher, keys);
  }
  return keys;
}

/** Bytes an SRTP packet of `cipher`'s session carries after the payload (its authentication tag). */
export function srtpTagLength(cipher: SrtpCipherFields): number {
  return sessionKeys(cipher).tagLength;
}

// Scratch buffers: node:crypto copies an IV or counter into its context when the cipher is made.
const iv = Buffer.alloc(12);
const counter = Buffer.alloc(16);
const rocBytes = Buffer.alloc(4);

/** RFC 7714 §8.1: 00 00 ‖ SSRC ‖ ROC ‖ SEQ, XOR the 12-byte session salt (into a scratch buffer). */
function gcmRtpIv(salt: Buffer, ssrc: number, roc: number, seq: number): Buffer {
  iv.writeUInt16BE(0, 0);
  iv.writeUInt32BE(ssrc >>> 0, 2);
  iv.writeUInt32BE(roc >>> 0, 6);
  iv.writeUInt16BE(seq & 0xffff, 10);
  for (let i = 0; i < 12; i++) iv[i] ^= salt[i];
  return iv;
}

/** RFC 3711 §4.1.1: (SSRC ‖ ROC ‖ SEQ) · 2^16, XOR the 14-byte session salt, as a 128-bit counter block (scratch). */
function ctrRtpCounter(salt: Buffer, ssrc: number, roc: number, seq: number): Buffer {
  counter.fill(0);
  counter.writeUInt32BE(ssrc >>> 0, 4);
  counter.writeUInt32BE(roc >>> 0, 8);
  counter.writeUInt16BE(seq & 0xffff, 12);
  for (let i = 0; i < 14; i++) counter[i] ^= salt[i];
  return counter;
}

/**
 * Protects an RTP packet in place: `out` holds the serialized header in its first `headLength` bytes and has room
 * for the payload and the tag after it (`headLength + payload.length + srtpTagLength(cipher)` bytes); the encrypted
 * payload and the tag are written there. `roc` is the packet's rollover counter (werift's SRTP context keeps it).
 */
export function protectRtp(cipher: SrtpCipherFields, out: Buffer, headLength: number, payload: Buffer, ssrc: number, seq: number, roc: number): void {
  const { key, auth } = sessionKeys(cipher);
  const end = headLength + payload.length;
  if (auth) {
    // AES_CM_128_HMAC_SHA1_80: the payload in counter mode, HMAC-SHA1 of header ‖ payload ‖ ROC cut to 10 bytes.
    createCipheriv('aes-128-ctr', key, ctrRtpCounter(cipher.srtpSessionSalt, ssrc, roc, seq)).update(payload).copy(out, headLength);
    rocBytes.writeUInt32BE(roc >>> 0, 0);
    createHmac('sha1', auth).update(out.subarray(0, end)).update(rocBytes).digest().copy(out, end, 0, 10);
    return;
  }
  // AEAD_AES_128_GCM: the header authenticated, the payload encrypted, a 16-byte tag after it.
  const gcm = createCipheriv('aes-128-gcm', key, gcmRtpIv(cipher.srtpSessionSalt, ssrc, roc, seq));
  gcm.setAAD(out.subarray(0, headLength));
  gcm.update(payload).copy(out, headLength);
  gcm.final();
  gcm.getAuthTag().copy(out, end);
}
