import { RTCPeerConnection, RtpHeader, RtpPacket, TransportWideCC } from 'werift';
import { afterAll, describe, expect, it } from 'vitest';
import { serializeTransportCc } from '../../src/engine/embedded/transport-cc.js';
import { boundNackGaps, originalRtpHeaderDeSerialize, originalTransportCcDeSerialize, REFUSED_MEDIA_INPUTS } from '../../src/webrtc/werift-input-guards.js';

/**
 * The guards found by the media fuzz (tests/fuzz/media-fuzz.ts): each input below cost werift time that grew with a
 * number its sender wrote (werift-input-guards.ts says how much); each is refused or bounded now, and well-formed
 * input is handled exactly as werift handles it. hostile-rtp.test.ts sends the worst of them through a running engine.
 */

/** An RTP header with a one-byte extension block whose length field says `words`, followed by `body`. */
function withExtension(words: number, body: Buffer = Buffer.alloc(24)): Buffer {
  const head = Buffer.alloc(16);
  head[0] = 0x90; // V=2, X=1
  head[1] = 96;
  head.writeUInt16BE(7, 2);
  head.writeUInt32BE(1234, 8);
  head.writeUInt16BE(0xbede, 12);
  head.writeUInt16BE(words, 14);
  return Buffer.concat([head, body]);
}

/** A transport-cc feedback's body (after the RTCP header) reporting `count` statuses with `chunks`, then `deltas`. */
function transportCcBody(count: number, chunks: number[], deltas: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.writeUInt32BE(2, 4);
  head.writeUInt16BE(100, 8);
  head.writeUInt16BE(count, 10);
  return Buffer.concat([head, Buffer.from(chunks.flatMap((c) => [c >> 8, c & 0xff])), deltas]);
}
const RTPFB_TWCC = { type: 205, count: 15 } as Parameters<typeof TransportWideCC.deSerialize>[1];

describe('werift input guards: RTP headers', () => {
  it('38.beyond a header extension whose length runs past the packet is refused at once (it froze the node, unauthenticated)', () => {
    // 4,000 words: werift took ~1 s on it and returned 7,996 phantom extensions; 65,535 took ~10 minutes.
    const refused = REFUSED_MEDIA_INPUTS['rtp-header'];
    for (const words of [4000, 0xffff]) {
      const started = performance.now();
      expect(() => RtpHeader.deSerialize(withExtension(words))).toThrow(/runs past/);
      expect(performance.now() - started).toBeLessThan(100);
    }
    expect(REFUSED_MEDIA_INPUTS['rtp-header']).toBe(refused + 2); // counted for /metrics
  });

  it('38.beyond a block of more header extension elements than there are ids, inside a 64 KB datagram, is refused', () => {
    // 16,000 one-byte elements (id 1, one byte each) in 32,000 bytes: werift copied its list 16,000 times (~1 s; the
    // largest datagram holds twice as many: ~4 s).
    const body = Buffer.alloc(32_000);
    for (let i = 0; i < body.length; i += 2) body[i] = 0x10;
    expect(() => RtpHeader.deSerialize(withExtension(body.length / 4, body))).toThrow(/elements/);
  });

  it('a CSRC list that runs past the packet is refused (werift threw on it too)', () => {
    const packet = Buffer.alloc(20);
    packet[0] = 0x8f; // CC=15: 60 bytes of CSRCs, 8 here
    expect(() => RtpHeader.deSerialize(packet)).toThrow(/runs past/);
  });

  it('parses ordinary headers exactly as werift does: CSRCs, one- and two-byte extensions, padding, no extension', () => {
    const oneByte = Buffer.concat([withExtension(2, Buffer.from([0x10, 0x31, 0x22, 0x01, 0x02, 0x03, 0x00, 0x00])), Buffer.from([1, 2, 3])]);
    const twoByte = Buffer.from(oneByte);
    twoByte.writeUInt16BE(0x1000, 12);
    const csrcs = Buffer.alloc(12 + 8 + 4);
    csrcs[0] = 0xa2; // padding, CC=2
    csrcs[csrcs.length - 1] = 4;
    const plain = Buffer.alloc(12 + 10);
    plain[0] = 0x80;
    for (const packet of [oneByte, twoByte, csrcs, plain]) {
      expect(RtpHeader.deSerialize(packet)).toEqual(originalRtpHeaderDeSerialize(packet));
    }
  });
});

describe('werift input guards: transport-cc feedback', () => {
  it('38.beyond a 44-byte feedback claiming 65,535 received packets is refused (werift made 65,535 objects of it: ~24 ms)', () => {
    const hostile = transportCcBody(0xffff, Array(8).fill(0x3fff)); // run-length chunks: 8,191 × "received, small delta"
    expect(() => TransportWideCC.deSerialize(hostile, RTPFB_TWCC)).toThrow(/statuses/);
    // Within the count, but no receive deltas for the packets it says arrived; a run longer than the count.
    expect(() => TransportWideCC.deSerialize(transportCcBody(8191, [0x3fff]), RTPFB_TWCC)).toThrow(/deltas/);
    expect(() => TransportWideCC.deSerialize(transportCcBody(10, [0x1fff]), RTPFB_TWCC)).toThrow(/more packets/);
    expect(() => TransportWideCC.deSerialize(transportCcBody(20, [0xc000]), RTPFB_TWCC)).toThrow(/run past/);
  });

  it('parses well-formed feedback exactly as werift does (the server\'s own serializer: small and large deltas, losses)', () => {
    const arrivals = [{ seq: 100, tick: 1000 }, { seq: 101, tick: 1010 }, { seq: 105, tick: 1000 }, { seq: 130, tick: 5000 }];
    const packet = serializeTransportCc(1, 2, 100, 31, arrivals, 3);
    const body = packet.subarray(4);
    expect(TransportWideCC.deSerialize(body, RTPFB_TWCC)).toEqual(originalTransportCcDeSerialize(body, RTPFB_TWCC));
  });
});

describe('werift input guards: NACK bookkeeping of an uplink', () => {
  const pcs: RTCPeerConnection[] = [];
  afterAll(async () => {
    for (const pc of pcs) await pc.close();
  });

  /** A video receiver's NACK handler whose lost-marking is counted; NACKs are not sent. */
  function nackOf(guarded: boolean) {
    const pc = new RTCPeerConnection({});
    pcs.push(pc);
    const { receiver } = pc.addTransceiver('video', { direction: 'recvonly' });
    // werift's NACK handler, whose members its declarations keep private.
    const { nack } = receiver as unknown as { nack: { sendNack: () => Promise<void>; setLost(seq: number, count: number): void; _lost: Record<number, number>; addPacket(p: RtpPacket): void; close(): void } };
    nack.sendNack = async () => undefined;
    let marked = 0;
    const setLost = nack.setLost.bind(nack);
    nack.setLost = (seq, count) => {
      marked++;
      setLost(seq, count);
    };
    if (guarded) boundNackGaps(receiver);
    const feed = (seqs: number[]) => { for (const seq of seqs) nack.addPacket(new RtpPacket(new RtpHeader({ sequenceNumber: seq, ssrc: 1 }), Buffer.alloc(1))); };
    return { nack, feed, marked: () => marked };
  }

  it('38.beyond sequence numbers that jump across the whole space mark at most the 150 numbers werift keeps (it marked every one: ~9 ms a packet)', () => {
    const { nack, feed, marked } = nackOf(true);
    const jumps = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? [65534, 65535, 0] : [1])).flat();
    feed([1, ...jumps]);
    expect(marked()).toBeLessThanOrEqual(150 * 10);
    expect(Object.keys(nack._lost).length).toBeLessThanOrEqual(150);
    nack.close();
  });

  it('marks small gaps and their recovery exactly as werift does', () => {
    const seqs = [10, 11, 15, 16, 12, 40, 41, 13, 180, 181, 300, 14];
    const [guarded, plain] = [nackOf(true), nackOf(false)];
    guarded.feed(seqs);
    plain.feed(seqs);
    expect(guarded.nack._lost).toEqual(plain.nack._lost);
    expect(guarded.marked()).toBe(plain.marked());
    guarded.nack.close();
    plain.nack.close();
  });
});
