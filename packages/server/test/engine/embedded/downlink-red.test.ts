import { afterEach, describe, expect, it } from 'vitest';
import { Red, RTCPeerConnection, RTCRtpCodecParameters, type RtpPacket } from 'werift';
import { publishAndSend, waitFor } from '../../support/engine-peers.js';
import type { DownlinkNegotiator, SubscribeOptions } from '../../../src/engine/media-engine.js';
import { EmbeddedEngine } from '../../../src/engine/embedded/embedded-engine.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A werift subscriber that answers RED (as Chromium does), keeping the packets as they came on the wire (audio only here). */
function redSubscriber(): { pc: RTCPeerConnection; negotiate: DownlinkNegotiator; wire: RtpPacket[]; answers: string[] } {
  const pc = new RTCPeerConnection({
    iceUseIpv6: false,
    codecs: {
      audio: [new RTCRtpCodecParameters({ mimeType: 'audio/red', clockRate: 48000, channels: 2 }), new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
      video: [new RTCRtpCodecParameters({ mimeType: 'video/H264', clockRate: 90000, parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1' })],
    },
  });
  const wire: RtpPacket[] = [];
  const answers: string[] = [];
  const negotiate: DownlinkNegotiator = async (offerSdp) => {
    await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    await pc.setLocalDescription(await pc.createAnswer());
    for (const transport of pc.dtlsTransports) transport.onRtp.subscribe((rtp) => wire.push(rtp));
    answers.push(pc.localDescription!.sdp);
    return pc.localDescription!.sdp;
  };
  return { pc, negotiate, wire, answers };
}

/** A publisher sending and a RED-answering subscriber of its audio on one engine, once the subscriber answered. */
async function audioSubscription(options?: SubscribeOptions): Promise<ReturnType<typeof redSubscriber>> {
  const engine = new EmbeddedEngine({ iceAddress: '127.0.0.1' });
  cleanups.push(() => engine.close());
  for (const id of ['publisher', 'subscriber']) engine.joinRoom(id, 'room');
  const publisher = await publishAndSend(engine, 'publisher');
  cleanups.push(publisher.stop);
  const subscriber = redSubscriber();
  cleanups.push(() => subscriber.pc.close());
  await engine.subscribe('subscriber', 'publisher', { audio: true, bigVideo: false, smallVideo: false, auxVideo: false }, subscriber.negotiate, options);
  await waitFor(() => subscriber.answers.length > 0, 10_000, 'the subscriber\'s answer');
  return subscriber;
}

describe('43 RED: the embedded engine\'s downlink to a subscriber that answered red/48000/2', () => {
  it('43 RED: each Opus packet forwarded goes out as RED carrying the previous two frames, timestamps 960 ticks apart', async () => {
    const subscriber = await audioSubscription();
    expect(subscriber.answers[0]).toMatch(/a=rtpmap:63 red\/48000\/2/);
    const red = () => subscriber.wire.filter((rtp) => rtp.header.payloadType === 63);
    await waitFor(() => red().length >= 5, 10_000, 'RED packets at the subscriber');
    const blocks = red().slice(-3).map((rtp) => Red.deSerialize(rtp.payload).blocks);
    for (const packet of blocks) {
      expect(packet.length).toBe(3);
      expect(packet.map((b) => b.timestampOffset ?? 0)).toEqual([1920, 960, 0]);
      // The publisher's Opus payload (3 bytes) in every block.
      for (const block of packet) expect(block.block.equals(Buffer.from([0xf8, 0xff, 0xfe]))).toBe(true);
    }
  }, 20_000);

  it('43 RED: an end-to-end encrypted subscription (opaque) gets no RED: none offered on its downlink, its audio forwarded as the publisher sent it', async () => {
    const subscriber = await audioSubscription({ opaque: true });
    expect(subscriber.answers[0]).not.toMatch(/red\/48000/);
    await waitFor(() => subscriber.wire.length >= 5, 10_000, 'audio packets at the subscriber');
    for (const rtp of subscriber.wire.slice(-3)) {
      expect(rtp.header.payloadType).not.toBe(63);
      expect(rtp.payload.equals(Buffer.from([0xf8, 0xff, 0xfe]))).toBe(true);
    }
  }, 20_000);
});
