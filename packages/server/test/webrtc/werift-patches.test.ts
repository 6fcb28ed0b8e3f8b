import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Connection, DtlsClient, DtlsServer, RTCCertificate, RTCPeerConnection, createSelfSignedCertificate, ntpTime, type Transport } from 'werift';
import { describe, expect, it } from 'vitest';

/**
 * werift is patched on install (patches/werift+<version>.patch, applied by patch-package from the root
 * postinstall; docs/architecture.md "Patched dependencies"): these tests fail if the patch is not in place.
 */
describe('werift patches', () => {
  it('the installed werift carries every Conclave patch', () => {
    const require = createRequire(import.meta.url);
    const bundle = readFileSync(join(dirname(require.resolve('werift')), '../../index.mjs'), 'utf8');
    expect(bundle.match(/Conclave patch:/g)).toHaveLength(18);
  });

  it('a certificate keeps its fingerprint (computed once, same value)', async () => {
    const { certPem, keyPem, signatureHash } = await createSelfSignedCertificate({ signature: 3, hash: 4 }, 23);
    const plain = new RTCCertificate(keyPem, certPem, signatureHash).getFingerprints();
    const cert = new RTCCertificate(keyPem, certPem, signatureHash);
    const first = cert.getFingerprints();
    expect(first).toEqual(plain);
    expect(cert.getFingerprints()).toBe(first);
  });

  it('answers an actpass offer as the DTLS server (passive), keeps the offer\'s choice otherwise, and connects', async () => {
    const offerer = new RTCPeerConnection();
    const answerer = new RTCPeerConnection();
    try {
      offerer.createDataChannel('x');
      await offerer.setLocalDescription(await offerer.createOffer());
      const offer = offerer.localDescription!.sdp;
      expect(offer).toContain('a=setup:actpass');
      await answerer.setRemoteDescription({ type: 'offer', sdp: offer });
      const answer = await answerer.createAnswer();
      expect(answer.sdp).toContain('a=setup:passive');

      // An offer that is itself passive still gets an active answer.
      const other = new RTCPeerConnection();
      await other.setRemoteDescription({ type: 'offer', sdp: offer.replace('a=setup:actpass', 'a=setup:passive') });
      expect((await other.createAnswer()).sdp).toContain('a=setup:active');
      await other.close();

      // The two werift peers still complete ICE and DTLS with the roles swapped.
      offerer.onIceCandidate.subscribe((c) => { if (c) void answerer.addIceCandidate(c); });
      answerer.onIceCandidate.subscribe((c) => { if (c) void offerer.addIceCandidate(c); });
      await answerer.setLocalDescription(answer);
      await offerer.setRemoteDescription(answerer.localDescription!);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('not connected in 10 s')), 10_000);
        offerer.connectionStateChange.subscribe((state) => { if (state === 'connected') { clearTimeout(timer); resolve(); } });
      });
    } finally {
      await offerer.close();
      await answerer.close();
    }
  }, 20_000);

  it('the DTLS server answers a ClientHello with its ServerHello at once (no HelloVerifyRequest round trip) and the handshake completes', async () => {
    const { certPem, keyPem, signatureHash } = await createSelfSignedCertificate({ signature: 3, hash: 4 }, 23);
    // Two in-memory datagram transports wired to each other; the handshake message types each side sent, in order.
    const sent: Record<'client' | 'server', number[]> = { client: [], server: [] };
    const ends: Record<'client' | 'server', Transport> = {} as Record<'client' | 'server', Transport>;
    const end = (self: 'client' | 'server', peer: 'client' | 'server'): Transport => ({
      type: 'memory', address: {} as Transport['address'], closed: false,
      onData: () => undefined,
      send: (data: Buffer) => {
        // Plaintext handshake records: content type 22, epoch 0; the message type is the 14th byte.
        if (data[0] === 22 && data.readUInt16BE(3) === 0) sent[self].push(data[13]);
        setImmediate(() => ends[peer].onData(data, ['memory', 0]));
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    });
    ends.client = end('client', 'server');
    ends.server = end('server', 'client');
    const options = { cert: certPem, key: keyPem, signatureHash, srtpProfiles: [1 as const], extendedMasterSecret: true };
    const server = new DtlsServer({ ...options, transport: ends.server, certificateRequest: true });
    const client = new DtlsClient({ ...options, transport: ends.client });
    const connected = (socket: DtlsServer | DtlsClient) => new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('DTLS not connected in 5 s')), 5_000);
      socket.onConnect.once(() => { clearTimeout(timer); resolve(); });
    });
    const both = Promise.all([connected(server), connected(client)]);
    await client.connect();
    await both;
    // ServerHello (2) first, never a HelloVerifyRequest (3); the client sent one ClientHello (1).
    expect(sent.server[0]).toBe(2);
    expect(sent.server).not.toContain(3);
    expect(sent.client.filter((type) => type === 1)).toHaveLength(1);
    // Both ends derived the same keys: application data goes through.
    const received = new Promise<string>((resolve) => server.onData.subscribe((data) => resolve(data.toString())));
    await client.send(Buffer.from('hello'));
    expect(await received).toBe('hello');
    client.close();
    server.close();
  });

  it('asks no STUN server unless one is configured (werift would ask stun.l.google.com)', () => {
    const plain = new Connection(true, {}) as unknown as { stunServer?: unknown };
    const configured = new Connection(true, { stunServer: ['stun.example.org', 3478] }) as unknown as { stunServer?: unknown };
    expect(plain.stunServer).toBeUndefined();
    expect(configured.stunServer).toEqual(['stun.example.org', 3478]);
  });

  it('makes real NTP timestamps (binary fraction of the second), for a clock reading given or now', () => {
    const toUnixSeconds = (ntp: bigint): number => Number(ntp >> 32n) + Number(ntp & 0xffffffffn) / 2 ** 32 - 2_208_988_800;
    const before = Date.now() / 1000;
    // The patch's clock argument (patches/werift+*.patch): werift's declarations have none.
    const ntpAt = ntpTime as (at?: number) => bigint;
    const now = toUnixSeconds(ntpTime());
    expect(now).toBeGreaterThanOrEqual(before - 0.05);
    expect(now).toBeLessThanOrEqual(Date.now() / 1000 + 0.05);
    // werift wrote the decimal digits of the fraction as the binary fraction (x.5 s became x s + 5/2^32).
    const at = 1000 * Math.ceil(performance.now() / 1000) + 500 - (performance.timeOrigin % 1000);
    const half = Number(ntpAt(at) & 0xffffffffn) / 2 ** 32;
    expect(Math.abs(half - 0.5)).toBeLessThan(1e-6);
    expect(toUnixSeconds(ntpAt(at + 250)) - toUnixSeconds(ntpAt(at))).toBeCloseTo(0.25, 6);
  });
});
