import { Event, RtcpPacketConverter, RtcpTransportLayerFeedback, RtpHeader, RtpPacket, TransportWideCC } from 'werift';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serializeTransportCc, TRANSPORT_CC_URI, TransportCcFeedback } from '../../../src/engine/embedded/transport-cc.js';
import { transportCcExtensionId } from '../../../src/engine/embedded/uplink.js';

/** Parses a serialised feedback with werift's own parser (a second implementation of the format). */
function parse(buf: Buffer): TransportWideCC {
  const [packet] = RtcpPacketConverter.deSerialize(buf);
  expect(packet).toBeInstanceOf(RtcpTransportLayerFeedback);
  return (packet as RtcpTransportLayerFeedback).feedback as TransportWideCC;
}

/** The statuses werift reads (1 small delta, 2 large, 0 not received), `count` of them. */
function statusesOf(fb: TransportWideCC): number[] {
  const symbols = fb.packetChunks.flatMap((chunk) => ('symbolList' in chunk ? chunk.symbolList : []));
  return symbols.slice(0, fb.packetStatusCount);
}

describe('transport-cc feedback', () => {
  afterEach(() => { vi.useRealTimers(); });

  it('serialises statuses, reference time and deltas as werift parses them (lost packets, a large and a negative delta)', () => {
    const ref = 1000; // 64 ms units
    const t0 = ref * 256 + 10; // ticks of 250 µs
    const arrivals = [
      { seq: 100, tick: t0 }, { seq: 101, tick: t0 + 4 }, // 102, 103 lost
      { seq: 104, tick: t0 + 4 + 300 }, { seq: 105, tick: t0 + 4 + 300 - 8 }, { seq: 108, tick: t0 + 500 },
    ];
    const buf = serializeTransportCc(0x11223344, 0x55667788, 100, 9, arrivals, 7);
    expect(buf.length % 4).toBe(0);
    const fb = parse(buf);
    expect(fb.senderSsrc).toBe(0x11223344);
    expect(fb.mediaSourceSsrc).toBe(0x55667788);
    expect(fb.baseSequenceNumber).toBe(100);
    expect(fb.packetStatusCount).toBe(9);
    expect(fb.referenceTime).toBe(ref);
    expect(fb.fbPktCount).toBe(7);
    expect(statusesOf(fb)).toEqual([1, 1, 0, 0, 2, 2, 0, 0, 1]);
    expect(fb.recvDeltas.map((d) => d.delta / 250)).toEqual([10, 4, 300, -8, 500 - 296]);
  });

  it('wraps the base sequence number, and reports packets after a gap lost until they come', () => {
    const buf = serializeTransportCc(1, 2, 0x1fffe, 3, [{ seq: 0x1fffe, tick: 256 }, { seq: 0x20000, tick: 300 }], 255);
    const fb = parse(buf);
    expect(fb.baseSequenceNumber).toBe(0xfffe);
    expect(statusesOf(fb)).toEqual([1, 0, 1]);
  });

  it('sends feedback every 50 ms for the packets of every m-line of the transport, in one sequence', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'performance'] });
    const onRtp = new Event<[RtpPacket]>();
    const sent: Buffer[] = [];
    const transport = { onRtp, sendRtcp: (packets: { serialize(): Buffer }[]) => { sent.push(...packets.map((p) => p.serialize())); return Promise.resolve(); } };
    const feedback = new TransportCcFeedback(transport as never, 9, () => 3);
    const rtp = (ssrc: number, tsn: number | undefined): RtpPacket => {
      const payload = Buffer.alloc(2);
      if (tsn !== undefined) payload.writeUInt16BE(tsn);
      return new RtpPacket(new RtpHeader({ ssrc, extensions: tsn === undefined ? [] : [{ id: 3, payload }] }), Buffer.alloc(10));
    };
    // Audio (ssrc 1) and video (ssrc 2) interleaved; 65535 → 0 wraps; 2 is lost; one packet carries no number.
    for (const [ssrc, tsn] of [[1, 65534], [2, 65535], [2, 0], [1, 1], [2, undefined], [1, 3]] as const) {
      onRtp.execute(rtp(ssrc, tsn));
      vi.advanceTimersByTime(2);
    }
    await vi.advanceTimersByTimeAsync(50);
    expect(sent).toHaveLength(1);
    const first = parse(sent[0]);
    expect(first.baseSequenceNumber).toBe(65534);
    expect(statusesOf(first)).toEqual([1, 1, 1, 1, 0, 1]);
    expect(first.recvDeltas.slice(1).map((d) => d.delta)).toEqual([2000, 2000, 2000, 4000]);
    // The next feedback starts where this one ended; nothing is sent while nothing comes.
    await vi.advanceTimersByTimeAsync(200);
    expect(sent).toHaveLength(1);
    onRtp.execute(rtp(2, 4));
    await vi.advanceTimersByTimeAsync(50);
    const second = parse(sent[1]);
    expect(second.baseSequenceNumber).toBe(4);
    expect(second.fbPktCount).toBe(1);
    // A late packet already reported (lost) is not reported again.
    onRtp.execute(rtp(1, 2));
    await vi.advanceTimersByTimeAsync(50);
    expect(sent).toHaveLength(2);
    feedback.close();
  });

  it('finds the negotiated extension id in an answer', () => {
    expect(transportCcExtensionId(`v=0\r\na=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid\r\na=extmap:5 ${TRANSPORT_CC_URI}\r\n`)).toBe(5);
    expect(transportCcExtensionId('v=0\r\na=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid\r\n')).toBeUndefined();
  });
});
