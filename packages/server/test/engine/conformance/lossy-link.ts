import { createSocket } from 'node:dgram';

/** A UDP relay on loopback between a relay link's two ends, dropping some of the RTP one end sends (a lossy node link). */
export interface LossyLink {
  /** The loopback port B is told is A's. */
  towardsA: number;
  /** The loopback port A is told is B's. */
  towardsB: number;
  /** A's ICE port, once its answer told it. */
  setA(port: number): void;
  /** RTP packets dropped so far. */
  dropped(): number;
  close(): void;
}

/** RTP, not RTCP (RFC 5761: RTCP packet types 200–206 read 72–78 in the low seven bits of the second byte). */
function isRtp(packet: Buffer): boolean {
  if (packet.length < 12 || (packet[0]! & 0xc0) !== 0x80) return false;
  const type = packet[1]! & 0x7f;
  return type < 72 || type > 78;
}

/**
 * A node link through two loopback sockets: `towardsA` stands for A's ICE port to B, `towardsB` for B's (`b`) to A; every
 * datagram is passed on from the other socket (each end sees the other at the port it was told of), and every
 * `dropEvery`-th RTP packet A sends is dropped. ICE runs through it like media.
 */
export async function lossyLink(b: number, dropEvery: number): Promise<LossyLink> {
  const host = '127.0.0.1';
  const towardsA = createSocket('udp4');
  const towardsB = createSocket('udp4');
  let a: number | undefined;
  let rtp = 0;
  let dropped = 0;
  // From B (to A's stand-in): on to A, from B's stand-in.
  towardsA.on('message', (packet) => { if (a !== undefined) towardsB.send(packet, a, host); });
  // From A (to B's stand-in): on to B, from A's stand-in, less the dropped RTP.
  towardsB.on('message', (packet) => {
    if (isRtp(packet) && ++rtp % dropEvery === 0) {
      dropped++;
      return;
    }
    towardsA.send(packet, b, host);
  });
  await Promise.all([towardsA, towardsB].map((socket) => new Promise<void>((resolve) => socket.bind(0, host, resolve))));
  return {
    towardsA: towardsA.address().port, towardsB: towardsB.address().port, dropped: () => dropped,
    setA: (port) => { a = port; },
    close: () => { towardsA.close(); towardsB.close(); },
  };
}

/** `sdp` with its host candidates' port replaced by `port` (on every candidate line), and the first such port. */
export function throughPort(sdp: string, port: number): { sdp: string; original: number | undefined } {
  let original: number | undefined;
  const lines = sdp.split('\r\n').map((line) => {
    if (!line.startsWith('a=candidate:')) return line;
    const parts = line.split(' ');
    original ??= Number(parts[5]);
    parts[5] = String(port);
    return parts.join(' ');
  });
  return { sdp: lines.join('\r\n'), original };
}
