/**
 * Runtime patches of werift's hot path (issue 26; docs/architecture.md "Patched dependencies"): SRTP encryption
 * of outgoing RTP, which the SFU does once per forwarded packet per subscriber. Applied once, on import.
 * Byte-identical output (werift-srtp.test.ts checks RFC vectors and werift's own ciphers): only the per-packet
 * overhead of werift's node:crypto use is gone. Imported by rtp-send.ts, so werift's own sends (retransmissions,
 * other senders) share the forwarded path's SRTP (srtp-protect.ts). The 12-user room of media-plane.e2e.ts that
 * once failed with it on a loaded machine failed the same way without it there, and passes either way on a quiet
 * host (issue 26).
 */
import { SrtpSession, type RtpHeader } from 'werift';
import { protectRtp, srtpTagLength, type SrtpCipherFields } from './srtp-protect.js';

/** werift's SRTP cipher objects (CipherAesCtr, CipherAesGcm): the fields read and the method replaced. */
interface CipherFields extends SrtpCipherFields {
  encryptRtp(header: RtpHeader, payload: Buffer, rolloverCounter: number): Buffer;
}

/** werift's encryptRtp of both profiles, through srtp-protect.ts: the header serialized once into the packet's buffer. */
function encryptRtp(this: CipherFields, header: RtpHeader, payload: Buffer, rolloverCounter: number): Buffer {
  const headLength = header.serializeSize;
  // werift's serialize allocates the size it is given and writes the header at its start.
  const out = header.serialize(headLength + payload.length + srtpTagLength(this));
  protectRtp(this, out, headLength, payload, header.ssrc, header.sequenceNumber, rolloverCounter);
  return out;
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
  ctr.encryptRtp = encryptRtp;
  gcm.encryptRtp = encryptRtp;
  return original;
})();
