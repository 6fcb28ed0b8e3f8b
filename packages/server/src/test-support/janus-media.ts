import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, type RTCRtpTransceiver } from 'werift';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { JanusEngine } from '../engine/janus/janus-engine.js';
import type { DownlinkNegotiator } from '../engine/media-engine.js';

/* Test helpers for the real-Janus tests: werift peers standing in for the SDK's links. */

/** A client-like uplink: opus + three video m-lines of one codec (main, small, aux), sendonly, as the SDK offers it. */
export async function uplink(videoCodec: 'H264' | 'VP8'): Promise<{ pc: RTCPeerConnection; audio: RTCRtpTransceiver; video: RTCRtpTransceiver; offer: string }> {
  const pc = new RTCPeerConnection({
    iceUseIpv6: false,
    codecs: {
      audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
      video: [new RTCRtpCodecParameters({
        mimeType: `video/${videoCodec}`, clockRate: 90000, rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
        ...(videoCodec === 'H264' ? { parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1' } : {}),
      })],
    },
  });
  const audio = pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
  const video = pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  for (let i = 0; i < 2; i++) pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, audio, video, offer: pc.localDescription!.sdp };
}

/** Publishes an uplink and sends a packet per 20 ms on its audio and main video until the returned stop. */
export async function publishAndSend(engine: JanusEngine, participantId: string, videoCodec: 'H264' | 'VP8' = 'H264'): Promise<{ pc: RTCPeerConnection; plis: () => number; stop: () => Promise<void> }> {
  const up = await uplink(videoCodec);
  await up.pc.setRemoteDescription({ type: 'answer', sdp: await engine.publish(participantId, up.offer) });
  let plis = 0;
  up.video.sender.onRtcp.subscribe((rtcp) => { if (rtcp.type === 206) plis++; });
  let seq = 0;
  const timer = setInterval(() => {
    seq++;
    // An IDR NAL header and a few bytes: Janus forwards what it gets; the content does not matter here.
    void up.video.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 1800, marker: true }), Buffer.from([0x65, 1, 2, 3])));
    void up.audio.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 960, marker: false }), Buffer.from([0xf8, 0xff, 0xfe])));
  }, 20);
  return { pc: up.pc, plis: () => plis, stop: async () => { clearInterval(timer); await up.pc.close(); } };
}

/** Waits (bounded) until `condition` holds. */
/** A subscriber's downlink as the SDK runs it: answers every offer of the engine (kept), counts the RTP it receives. */
export function subscriberPeer(): { pc: RTCPeerConnection; negotiate: DownlinkNegotiator; offers: string[]; packets: number[] } {
  const pc = new RTCPeerConnection({ iceUseIpv6: false });
  const packets: number[] = [];
  pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => packets.push(Date.now())));
  const offers: string[] = [];
  const negotiate: DownlinkNegotiator = async (offerSdp) => {
    offers.push(offerSdp);
    await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    await pc.setLocalDescription(await pc.createAnswer());
    return pc.localDescription!.sdp;
  };
  return { pc, negotiate, offers, packets };
}

export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A real Janus engine for the tests of a describe block, and what they leave to close (last first). */
export interface RealJanus {
  /** The engine, once the block's beforeAll has started it. */
  engine: JanusEngine;
  cleanups: (() => unknown)[];
}

/** Starts a Janus engine on loopback before the block's tests and closes it, after their cleanups, at the end. */
export function realJanus(): RealJanus {
  const janus = { cleanups: [] } as unknown as RealJanus;
  beforeAll(async () => {
    janus.engine = await JanusEngine.start({ iceAddress: '127.0.0.1', logger: pino({ level: 'silent' }) });
  }, 30_000);
  afterAll(async () => {
    for (const cleanup of janus.cleanups.reverse()) await cleanup();
    await (janus.engine as JanusEngine | undefined)?.close();
  });
  return janus;
}
