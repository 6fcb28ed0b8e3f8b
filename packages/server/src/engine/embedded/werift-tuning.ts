import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync } from 'node:crypto';
import nacl from 'tweetnacl';
import { Connection, RTCCertificate, RTCDtlsTransport, SDPManager } from 'werift';

/*
 * Two hot spots of werift's DTLS handshake, measured on the join path (every downlink, uplink and data link
 * runs one, on the server's single event loop, while the newcomer waits for its first frame):
 * - X25519 in tweetnacl (pure JavaScript): ~4 ms per key pair and ~2 ms per shared secret. Node's own
 *   X25519 (OpenSSL) does both in well under 0.1 ms. werift calls tweetnacl's `box.keyPair` and `scalarMult`
 *   through the module object, so replacing those two functions is enough; results are byte-identical
 *   (both clamp the scalar as RFC 7748 says).
 * - The certificate's fingerprint is parsed from its PEM on every call (~1 ms), and werift asks for it for
 *   every SDP it writes. One process-wide certificate, so its fingerprint is computed once.
 * - werift's ICE agent (controlling: it offers the downlinks) goes on starting checks on the remaining
 *   candidate pairs, one per 20 ms, after a pair is nominated, and starts DTLS only when it has started them
 *   all: with a few interfaces, 40–80 ms in which the browser's first ClientHello finds no DTLS server and is
 *   lost (its retransmission comes 50–100 ms later). Once a pair is nominated no further checks are started.
 *   The same race remains on a smaller scale (the browser sends its ClientHello as it answers the nominating
 *   check, before werift has read the answer): a ClientHello that arrives while the link has no DTLS server
 *   yet is kept and handed to the server when it starts.
 * - werift answers an `actpass` offer as the DTLS client, and its client sleeps a fixed 100 ms (in
 *   RTCDtlsTransport.start) before its ClientHello: every uplink and data link (the browser offers those)
 *   connected 100 ms later than it could. As answerer it takes the server role here (a=setup:passive), so
 *   the browser's ClientHello starts the handshake as soon as its check succeeds.
 * And one default that is wrong for a self-hosted server: with no STUN server configured, werift asks Google's
 * (stun.l.google.com:19302) for a server-reflexive candidate on every peer connection — traffic to a third
 * party for each call, and a wait for its answer before the offer. The server's own address is known (host
 * candidates, or CONCLAVE_ANNOUNCED_ADDRESS), so no STUN server is asked unless one is configured.
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
  // Private members of werift's ICE connection (typed here by hand).
  type IceInternals = {
    options: { stunServer?: unknown }; stunServer?: unknown; nominated?: unknown;
    applyStunTurnServersFromOptions(): void; schedulingChecks(): boolean;
  };
  const proto = Connection.prototype as unknown as IceInternals;
  const schedule = proto.schedulingChecks;
  proto.schedulingChecks = function checksUntilNominated(this: IceInternals): boolean {
    return this.nominated ? false : schedule.call(this);
  };
  const applyServers = proto.applyStunTurnServersFromOptions;
  proto.applyStunTurnServersFromOptions = function withoutDefaultStun(this: IceInternals): void {
    applyServers.call(this);
    if (!this.options.stunServer) this.stunServer = undefined;
  };
  holdEarlyClientHellos();
  answerAsDtlsServer();
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

/** Answers take the DTLS server role (passive) wherever the offer leaves the choice to us (actpass). */
function answerAsDtlsServer(): void {
  type Media = { dtlsParams?: { role?: string } };
  type Manager = { _remoteDescription?: { media: Media[] }; buildAnswerSdp(...args: unknown[]): { media: Media[] } };
  const proto = SDPManager.prototype as unknown as Manager;
  const build = proto.buildAnswerSdp;
  proto.buildAnswerSdp = function answerPassive(this: Manager, ...args: unknown[]) {
    const description = build.apply(this, args);
    const offered = this._remoteDescription?.media ?? [];
    description.media.forEach((media, i) => {
      // 'auto' is the offer's actpass; an offer saying passive or active keeps werift's answer.
      if (media.dtlsParams?.role === 'client' && offered[i]?.dtlsParams?.role === 'auto') media.dtlsParams.role = 'server';
    });
    return description;
  };
}

/** A DTLS record of a handshake (22) whose first message is a ClientHello (1). */
const isClientHello = (data: Buffer) => data.length > 13 && data[0] === 22 && data[13] === 1;

/** At most this many early ClientHellos are kept per link (retransmissions of one). */
const MAX_HELD = 4;

/** Keeps the ClientHellos a link receives between the start of ICE and the start of its DTLS server. */
function holdEarlyClientHellos(): void {
  type Data = { subscribe(f: (data: Buffer) => void): { unSubscribe(): void }; execute(data: Buffer): void };
  type IceConnection = { onData: Data; connect(): Promise<void> };
  const held = new WeakMap<IceConnection, { packets: Buffer[]; stop(): void }>();
  const ice = Connection.prototype as unknown as IceConnection;
  const connect = ice.connect;
  ice.connect = function connectHoldingHellos(this: IceConnection): Promise<void> {
    if (!held.has(this)) {
      const packets: Buffer[] = [];
      const { unSubscribe } = this.onData.subscribe((data) => {
        if (isClientHello(data) && packets.length < MAX_HELD) packets.push(data);
      });
      held.set(this, { packets, stop: unSubscribe });
    }
    return connect.call(this);
  };
  type Dtls = { iceTransport: { connection: IceConnection }; role: string; start(): Promise<void> };
  const dtls = RTCDtlsTransport.prototype as unknown as Dtls;
  const start = dtls.start;
  dtls.start = function startWithHeldHellos(this: Dtls): Promise<void> {
    const { connection } = this.iceTransport;
    const early = held.get(connection);
    held.delete(connection);
    early?.stop();
    // start() creates and subscribes the DTLS server synchronously, before its first await.
    const started = start.call(this);
    if (early && this.role === 'server') for (const packet of early.packets) connection.onData.execute(packet);
    return started;
  };
}
