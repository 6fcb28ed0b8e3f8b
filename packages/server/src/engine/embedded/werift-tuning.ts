import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync } from 'node:crypto';
import nacl from 'tweetnacl';
import { RTCCertificate } from 'werift';

/*
 * Two hot spots of werift's DTLS handshake, measured on the join path (every downlink, uplink and data link
 * runs one, on the server's single event loop, while the newcomer waits for its first frame):
 * - X25519 in tweetnacl (pure JavaScript): ~4 ms per key pair and ~2 ms per shared secret. Node's own
 *   X25519 (OpenSSL) does both in well under 0.1 ms. werift calls tweetnacl's `box.keyPair` and `scalarMult`
 *   through the module object, so replacing those two functions is enough; results are byte-identical
 *   (both clamp the scalar as RFC 7748 says).
 * - The certificate's fingerprint is parsed from its PEM on every call (~1 ms), and werift asks for it for
 *   every SDP it writes. One process-wide certificate, so its fingerprint is computed once.
 */

const PKCS8_X25519 = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_X25519 = Buffer.from('302a300506032b656e032100', 'hex');

/** X25519(scalar, point) with Node's crypto; inputs and output are raw 32-byte values as in tweetnacl. */
function nativeScalarMult(scalar: Uint8Array, point: Uint8Array): Uint8Array {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_X25519, scalar]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_X25519, point]), format: 'der', type: 'spki' });
  return new Uint8Array(diffieHellman({ privateKey, publicKey }));
}

/** A fresh X25519 key pair as tweetnacl's box.keyPair returns it (raw 32-byte keys). */
function nativeKeyPair(): { publicKey: Uint8Array; secretKey: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('x25519');
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return { secretKey: new Uint8Array(der.subarray(der.length - 32)), publicKey: new Uint8Array(spki.subarray(spki.length - 32)) };
}

type Fingerprints = ReturnType<RTCCertificate['getFingerprints']>;
const fingerprints = new WeakMap<RTCCertificate, Fingerprints>();

let applied = false;

/** Applies the tuning once per process (idempotent). Called before the first werift peer connection. */
export function tuneWerift(): void {
  if (applied) return;
  applied = true;
  // Keep tweetnacl's other members (fromSecretKey, base, lengths): only the two calls werift makes change.
  nacl.box.keyPair = Object.assign(nativeKeyPair, { fromSecretKey: nacl.box.keyPair.fromSecretKey });
  nacl.scalarMult = Object.assign(nativeScalarMult, {
    base: nacl.scalarMult.base, scalarLength: nacl.scalarMult.scalarLength, groupElementLength: nacl.scalarMult.groupElementLength,
  });
  const parse = RTCCertificate.prototype.getFingerprints;
  RTCCertificate.prototype.getFingerprints = function cachedFingerprints(this: RTCCertificate): Fingerprints {
    let known = fingerprints.get(this);
    if (!known) {
      known = parse.call(this);
      fingerprints.set(this, known);
    }
    return known;
  };
}
