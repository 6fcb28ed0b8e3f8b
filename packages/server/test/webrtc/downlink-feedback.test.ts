import { describe, expect, it } from 'vitest';
import { GenericNack, RTCRtpSender, RtcpPacketConverter, RtcpTransportLayerFeedback, RtpHeader, RtpPacket } from 'werift';
import { DownlinkFeedback } from '../../src/webrtc/downlink-feedback.js';
import { serializeTransportCc } from '../../src/engine/embedded/transport-cc.js';

describe('43 allocator: the downlink estimate from the subscriber\'s transport-cc feedback', () => {
  it('43 allocator: reads the acknowledged rate, the loss share of what was sent and the queueing delay', () => {
    let now = 0;
    const feedback = new DownlinkFeedback(() => now);
    // 100 packets of 1000 bytes, one per 10 ms; every fifth lost; arrival 5 ms after sending — from the 41st on,
    // 100 ms later (a queue).
    const arrivals: { seq: number; tick: number }[] = [];
    for (let seq = 0; seq < 100; seq++) {
      now = seq * 10;
      feedback.sent(seq, 1000);
      if (seq % 5 !== 4) arrivals.push({ seq, tick: (now + 5 + (seq >= 40 ? 100 : 0)) * 4 });
    }
    now = 1000;
    const [packet] = RtcpPacketConverter.deSerialize(serializeTransportCc(1, 2, 0, 100, arrivals, 0));
    feedback.receive(packet);
    const estimate = feedback.estimate();
    expect(estimate.source).toBe('transport-cc');
    expect(estimate.loss).toBeCloseTo(0.2, 5);
    // The rate they came at over the last 500 ms of arrivals (the last, 98, sent at 980 and in at 1085): from 585 ms
    // on, packets 48–98 less every fifth, 41 of them — the first one's bytes not counted (it opens the span).
    const inSpan = arrivals.filter((a) => a.tick / 4 >= 1085 - 500);
    expect(inSpan.length).toBe(41);
    expect(estimate.ackedBps).toBeCloseTo(((inSpan.length - 1) * 8000 * 1000) / (1085 - inSpan[0].tick / 4), 0);
    expect(estimate.queueMs).toBeGreaterThan(90);
    expect(estimate.sentBps).toBeGreaterThan(700_000);
  });

  it('43 allocator: without transport-cc nothing is claimed', () => {
    const feedback = new DownlinkFeedback(() => 0);
    expect(feedback.estimate()).toMatchObject({ source: 'none', ackedBps: undefined, loss: 0 });
  });
});

describe('43 allocator: the NACK cap', () => {
  /** A werift sender with `count` packets of 1000 bytes in its retransmission cache, its transport counting what it resends. */
  function senderWithCache(count: number): { sender: RTCRtpSender; resent: number[] } {
    const sender = new RTCRtpSender('video');
    const resent: number[] = [];
    const fields = sender as unknown as { rtpCache: RtpPacket[]; dtlsTransport: unknown };
    for (let seq = 0; seq < count; seq++) fields.rtpCache[seq] = new RtpPacket(new RtpHeader({ sequenceNumber: seq, ssrc: sender.ssrc }), Buffer.alloc(1000));
    fields.dtlsTransport = { sendRtp: async (_payload: Buffer, header: RtpHeader) => { resent.push(header.sequenceNumber); return 1000; } };
    return { sender, resent };
  }
  const nack = (ssrc: number, lost: number[]) => new RtcpTransportLayerFeedback({ feedback: new GenericNack({ mediaSourceSsrc: ssrc, lost }) });

  it('43 allocator: the NACK cap — retransmissions of an overloaded link stay within their share of the estimate; unbounded while the link is not known to be short', async () => {
    let now = 0;
    const feedback = new DownlinkFeedback(() => now);
    const { sender, resent } = senderWithCache(100);
    feedback.watchSender(sender);
    // Not known to be short: every packet asked for is sent again.
    sender.handleRtcpPacket(nack(sender.ssrc, [0, 1, 2, 3, 4]));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resent).toEqual([0, 1, 2, 3, 4]);
    // 80 kbit/s for retransmissions (10 kB a second, a quarter second of it at once): of 50 asked, 2 go.
    feedback.retransmitBudgetBps = 80_000;
    now = 1000;
    sender.handleRtcpPacket(nack(sender.ssrc, Array.from({ length: 50 }, (_, i) => 10 + i)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resent.length).toBe(5 + 2);
    expect(feedback.refusedRetransmissions).toBe(48);
    // A second later the budget has refilled (to its quarter second): two more.
    now = 2000;
    sender.handleRtcpPacket(nack(sender.ssrc, [70, 71, 72, 73]));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resent.slice(7)).toEqual([70, 71]);
  });
});
