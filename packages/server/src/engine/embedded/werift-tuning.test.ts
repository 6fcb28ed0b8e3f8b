import nacl from 'tweetnacl';
import { Connection, RTCCertificate, createSelfSignedCertificate } from 'werift';
import { describe, expect, it } from 'vitest';
import { tuneWerift } from './werift-tuning.js';

describe('werift tuning', () => {
  it("native X25519 gives tweetnacl's shared secrets and consistent key pairs", () => {
    const a = nacl.box.keyPair();
    const b = nacl.box.keyPair();
    const expected = Buffer.from(nacl.scalarMult(a.secretKey, b.publicKey));
    tuneWerift();
    expect(Buffer.from(nacl.scalarMult(a.secretKey, b.publicKey))).toEqual(expected);
    const fresh = nacl.box.keyPair();
    expect(fresh.secretKey).toHaveLength(32);
    expect(Buffer.from(nacl.scalarMult.base(fresh.secretKey))).toEqual(Buffer.from(fresh.publicKey));
    // Both sides of a new exchange agree.
    const c = nacl.box.keyPair();
    expect(Buffer.from(nacl.scalarMult(fresh.secretKey, c.publicKey))).toEqual(Buffer.from(nacl.scalarMult(c.secretKey, fresh.publicKey)));
  });

  it('a certificate keeps its fingerprint (computed once, same value)', async () => {
    const { certPem, keyPem, signatureHash } = await createSelfSignedCertificate({ signature: 3, hash: 4 }, 23);
    const plain = new RTCCertificate(keyPem, certPem, signatureHash).getFingerprints();
    tuneWerift();
    const cert = new RTCCertificate(keyPem, certPem, signatureHash);
    const first = cert.getFingerprints();
    expect(first).toEqual(plain);
    expect(cert.getFingerprints()).toBe(first);
  });

  it('asks no STUN server unless one is configured (werift would ask stun.l.google.com)', () => {
    tuneWerift();
    const plain = new Connection(true, {}) as unknown as { stunServer?: unknown };
    const configured = new Connection(true, { stunServer: ['stun.example.org', 3478] }) as unknown as { stunServer?: unknown };
    expect(plain.stunServer).toBeUndefined();
    expect(configured.stunServer).toEqual(['stun.example.org', 3478]);
  });
});
