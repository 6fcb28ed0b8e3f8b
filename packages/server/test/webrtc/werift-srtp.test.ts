import { randomBytes } from 'node:crypto';
import { RtpHeader, RtpPacket, SrtpSession } from 'werift';
import { describe, expect, it } from 'vitest';
import { originalEncryptRtp } from '../../src/webrtc/werift-patches.js';

/**
 * The SRTP fast path (werift-patches.ts) against known answers and against werift's own ciphers. Vectors: libSRTP's
 * srtp_validate (AES_CM_128_HMAC_SHA1_80, RFC 3711) and srtp_validate_gcm (AEAD_AES_128_GCM, RFC 7714), SSRC
 * 0xcafebabe, sequence number 0x1234, ROC 0.
 */
const hex = (s: string): Buffer => Buffer.from(s.replace(/\s/g, ''), 'hex');
const PLAIN = hex('800f1234 decafbad cafebabe abababab abababab abababab abababab');

function session(profile: 1 | 7, key: Buffer, salt: Buffer): SrtpSession {
  return new SrtpSession({ keys: { localMasterKey: key, localMasterSalt: salt, remoteMasterKey: key, remoteMasterSalt: salt }, profile });
}

function protect(s: SrtpSession, packet: Buffer): Buffer {
  const rtp = RtpPacket.deSerialize(packet);
  return s.encrypt(rtp.payload, rtp.header);
}

describe('werift SRTP fast path', () => {
  it('AES_CM_128_HMAC_SHA1_80 matches the known answer (RFC 3711, libSRTP srtp_validate)', () => {
    const [key, salt] = [hex('e1f97a0d3e018be0d64fa32c06de4139'), hex('0ec675ad498afeebb6960b3aabe6')];
    const out = protect(session(1, key, salt), PLAIN);
    expect(out.toString('hex')).toBe('800f1234decafbadcafebabe4e55dc4ce79978d88ca4d215949d2402b78d6acc99ea179b8dbb');
    // werift's own (unpatched) decryption reads it back.
    expect(session(1, key, salt).decrypt(out)).toEqual(PLAIN);
  });

  it('AEAD_AES_128_GCM matches the known answer (RFC 7714, libSRTP srtp_validate_gcm)', () => {
    const s = session(7, hex('000102030405060708090a0b0c0d0e0f'), hex('a0a1a2a3a4a5a6a7a8a9aaab'));
    expect(protect(s, PLAIN).toString('hex')).toBe('800f1234decafbadcafebabec5002ede04cfdd2eb91159e0880aa06ed2976826f796b201df3131a127e8a392');
  });

  it('encrypts byte for byte as werift did, across profiles, header extensions, padding and a sequence rollover', () => {
    for (const profile of [1, 7] as const) {
      const key = randomBytes(16);
      const salt = randomBytes(profile === 7 ? 12 : 14);
      const patched = session(profile, key, salt);
      const plain = session(profile, key, salt);
      const original = profile === 1 ? originalEncryptRtp.ctr : originalEncryptRtp.gcm;
      const reference = plain.localContext.cipher;
      // werift's own cipher code on the reference session.
      Object.defineProperty(reference, 'encryptRtp', { value: original });
      let differing = 0;
      for (let i = 0; i < 300; i++) {
        const header = new RtpHeader({
          ssrc: 0xcafebabe + (i % 3), sequenceNumber: (65400 + i) & 0xffff, timestamp: (i * 3000) >>> 0, payloadType: 96, marker: i % 7 === 0,
          extension: i % 2 === 0, extensions: i % 2 === 0 ? [{ id: 3, payload: randomBytes(3) }] : [],
          padding: i % 11 === 0, paddingSize: i % 11 === 0 ? 4 : 0,
        });
        const payload = randomBytes(1 + ((i * 37) % 1200));
        // Buffer.equals: vitest's deep equality is slow on 600 buffers.
        if (!patched.encrypt(payload, header).equals(plain.encrypt(payload, header))) differing++;
      }
      expect(differing).toBe(0);
      // Both still decrypt what the patched side wrote (the receiving side is werift's, unpatched).
      const header = new RtpHeader({ ssrc: 1, sequenceNumber: 7, timestamp: 9, payloadType: 111 });
      const payload = randomBytes(100);
      const out = patched.encrypt(payload, header);
      expect(session(profile, key, salt).decrypt(out).equals(Buffer.concat([header.serialize(header.serializeSize), payload]))).toBe(true);
    }
  });
});
