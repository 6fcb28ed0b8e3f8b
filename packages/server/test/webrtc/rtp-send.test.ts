import { randomBytes } from 'node:crypto';
import {
  GenericNack, RTCDtlsTransport, RTCRtpCodecParameters, RTCRtpSender, RTP_EXTENSION_URI, RtcpTransportLayerFeedback, RtpHeader, RtpPacket,
  SrtpSession,
} from 'werift';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendForwarded } from '../../src/webrtc/rtp-send.js';

/**
 * The forward path's send (rtp-send.ts) against werift's own `sendRtp`: two senders in the same state on two
 * transports with the same SRTP keys, one fed through each; every datagram must be the same bytes, and so must
 * the retransmissions a NACK asks for and the counts werift's sender reports are made from.
 */
type Profile = 1 | 7;
const ONE_BYTE = 0xbede;
const TWO_BYTE = 0x1000;

interface Link {
  sender: RTCRtpSender;
  wire: Buffer[];
  transport: RTCDtlsTransport;
}

function link(profile: Profile, keys: { key: Buffer; salt: Buffer }, extensions: string[], ssrc: number): Link {
  const wire: Buffer[] = [];
  const transport = new RTCDtlsTransport({ debug: {} } as never, {} as never, undefined as never);
  Object.assign(transport, {
    state: 'connected',
    srtp: new SrtpSession({
      keys: { localMasterKey: keys.key, localMasterSalt: keys.salt, remoteMasterKey: keys.key, remoteMasterSalt: keys.salt }, profile,
    }),
    // The ICE connection: what RTCDtlsTransport (patched) hands each packet to.
    iceTransport: { connection: { conclaveSendNow: (data: Buffer) => wire.push(Buffer.from(data)) } },
  });
  const sender = new RTCRtpSender('video');
  Object.assign(sender, { ssrc });
  sender.setDtlsTransport(transport);
  sender.prepareSend({
    codecs: [new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, payloadType: 102 })],
    headerExtensions: extensions.map((uri, i) => ({ id: [9, 2, 5][i], uri })),
    muxId: '4',
    rtcp: { cname: 'c', mux: true },
  } as never);
  return { sender, wire, transport };
}

/** A forwarded packet as ForwardSource hands it over: its own extensions removed, the extension bit as it came. */
function packet(seq: number, i: number, profile: number): RtpPacket {
  return new RtpPacket(new RtpHeader({
    payloadType: 96, sequenceNumber: seq & 0xffff, timestamp: (i * 3000 + 0xfffff000) >>> 0, ssrc: 0x1234, marker: i % 5 === 0,
    extension: i % 3 !== 0, extensionProfile: profile as RtpHeader['extensionProfile'],
  }), randomBytes(1 + ((i * 131) % 1200)));
}

function counts(l: Link): unknown {
  const s = l.sender as unknown as Record<string, unknown>;
  const t = l.transport as unknown as Record<string, unknown>;
  return [s.sequenceNumber, s.timestamp, s.rtpTimestamp, s.octetCount, s.packetCount, s.headerBytesSent, s.conclaveSentAt,
    t.bytesSent, t.packetsSent, t.transportSequenceNumber];
}

describe('forward path send (rtp-send.ts)', () => {
  afterEach(() => vi.restoreAllMocks());

  const cases: [string, Profile, string[], number][] = [
    ['AES-GCM, mid + abs-send-time (a video downlink)', 7, [RTP_EXTENSION_URI.sdesMid, RTP_EXTENSION_URI.absSendTime], ONE_BYTE],
    ['AES-CM, mid only (an audio downlink)', 1, [RTP_EXTENSION_URI.sdesMid], ONE_BYTE],
    ['AES-GCM, no extensions', 7, [], ONE_BYTE],
    ['AES-CM, mid + abs-send-time + transport-wide sequence, two-byte header', 1,
      [RTP_EXTENSION_URI.sdesMid, RTP_EXTENSION_URI.absSendTime, RTP_EXTENSION_URI.transportWideCC], TWO_BYTE],
  ];

  it.each(cases)('sends the bytes werift sends, across a sequence rollover and a change of source: %s', async (_name, profile, extensions, headerProfile) => {
    let clock = 1_000.123;
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const keys = { key: randomBytes(16), salt: randomBytes(profile === 7 ? 12 : 14) };
    const fast = link(profile, keys, extensions, 0xdeadbeef);
    const werift = link(profile, keys, extensions, 0xdeadbeef);
    try {
      const send = (rtp: RtpPacket): void => {
        clock += 7.77;
        sendForwarded(fast.sender, rtp);
        void werift.sender.sendRtp(rtp);
      };
      for (let i = 0; i < 60; i++) send(packet(65_510 + i, i, headerProfile));
      // Another source takes the m-line (a republish, a layer switch): sequence and timestamps continue.
      fast.sender.replaceRTP(new RtpHeader(), false, 3000);
      werift.sender.replaceRTP(new RtpHeader(), false, 3000);
      for (let i = 0; i < 30; i++) send(packet(1_000 + i, 100 + i, headerProfile));
      await Promise.resolve();

      expect(fast.wire).toHaveLength(90);
      expect(werift.wire).toHaveLength(90);
      const differing = fast.wire.filter((bytes, i) => !bytes.equals(werift.wire[i])).length;
      expect(differing).toBe(0);
      expect(counts(fast)).toEqual(counts(werift));
      // A receiver with the same keys reads them (werift's own SRTP, unpatched decryption).
      const receiver = new SrtpSession({
        keys: { localMasterKey: keys.key, localMasterSalt: keys.salt, remoteMasterKey: keys.key, remoteMasterSalt: keys.salt }, profile,
      });
      const first = RtpPacket.deSerialize(receiver.decrypt(fast.wire[0]));
      expect([first.header.ssrc, first.header.payloadType, first.header.sequenceNumber]).toEqual([0xdeadbeef, 102, 65_510]);

      // A NACK is answered from the retransmission cache (emptied by the change of source) with the packet's own bytes again.
      const nack = (l: Link, lost: number[]): void => (l.sender as unknown as { handleRtcpPacket(p: unknown): void }).handleRtcpPacket(
        new RtcpTransportLayerFeedback({ feedback: new GenericNack({ senderSsrc: 1, mediaSourceSsrc: 0xdeadbeef, lost }) }));
      const lostSeq = [(65_510 + 60 + 5) & 0xffff, (65_510 + 60 + 29) & 0xffff];
      nack(fast, lostSeq);
      nack(werift, lostSeq);
      await new Promise((resolve) => setImmediate(resolve));
      const resent = fast.wire.slice(90);
      expect(resent).toHaveLength(2);
      expect(werift.wire).toHaveLength(92);
      expect(resent[0].equals(werift.wire[90])).toBe(true);
      expect(resent[1].equals(werift.wire[91])).toBe(true);
      expect(resent[0].equals(fast.wire[65])).toBe(true);
      expect(resent[1].equals(fast.wire[89])).toBe(true);
    } finally {
      fast.sender.stop();
      werift.sender.stop();
    }
  });

  it('leaves a packet carrying its own extensions, CSRCs or padding to werift, which sends it as before', () => {
    const keys = { key: randomBytes(16), salt: randomBytes(12) };
    const fast = link(7, keys, [RTP_EXTENSION_URI.sdesMid], 7);
    const werift = link(7, keys, [RTP_EXTENSION_URI.sdesMid], 7);
    try {
      const odd = [
        new RtpPacket(new RtpHeader({ sequenceNumber: 1, extensions: [{ id: 12, payload: Buffer.from([1, 2]) }] }), randomBytes(50)),
        new RtpPacket(new RtpHeader({ sequenceNumber: 2, csrc: [5] }), randomBytes(50)),
      ];
      for (const rtp of odd) {
        sendForwarded(fast.sender, rtp);
        void werift.sender.sendRtp(rtp);
      }
      expect(fast.wire).toHaveLength(2);
      expect(fast.wire.filter((bytes, i) => !bytes.equals(werift.wire[i]))).toEqual([]);
    } finally {
      fast.sender.stop();
      werift.sender.stop();
    }
  });

  it('sends nothing before the link is connected (as werift drops it)', () => {
    const fast = link(7, { key: randomBytes(16), salt: randomBytes(12) }, [], 9);
    Object.assign(fast.transport, { state: 'connecting' });
    sendForwarded(fast.sender, packet(5, 1, ONE_BYTE));
    expect(fast.wire).toHaveLength(0);
    fast.sender.stop();
  });
});
