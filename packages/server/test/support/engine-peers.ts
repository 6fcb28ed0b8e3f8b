import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, type RTCRtpTransceiver } from 'werift';
import type { DownlinkNegotiator, UplinkHandle } from '../../src/engine/media-engine.js';

/* Test helpers for the engine tests: werift peers standing in for the SDK's links. */

/** A client-like uplink: opus + three video m-lines of one codec (main, small, aux), sendonly, as the SDK offers it. */
/** Opus and one video codec, as the SDK's links negotiate them. */
function codecs(...video: ('H264' | 'VP8')[]) {
  return {
    audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
    video: video.map((codec) => new RTCRtpCodecParameters({
      mimeType: `video/${codec}`, clockRate: 90000, rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
      ...(codec === 'H264' ? { parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1' } : {}),
    })),
  };
}

export async function uplink(videoCodec: 'H264' | 'VP8'): Promise<{ pc: RTCPeerConnection; audio: RTCRtpTransceiver; video: RTCRtpTransceiver; offer: string }> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: codecs(videoCodec) });
  const audio = pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
  const video = pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  for (let i = 0; i < 2; i++) pc.addTransceiver('video', { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, audio, video, offer: pc.localDescription!.sdp };
}

/** Publishes an uplink and sends a packet per 20 ms on its audio and main video until the returned stop. */
export async function publishAndSend(engine: { publish(participantId: string, offerSdp: string): Promise<Pick<UplinkHandle, 'answerSdp'>> }, participantId: string, videoCodec: 'H264' | 'VP8' = 'H264'): Promise<{ pc: RTCPeerConnection; plis: () => number; stop: () => Promise<void> }> {
  const up = await uplink(videoCodec);
  await up.pc.setRemoteDescription({ type: 'answer', sdp: (await engine.publish(participantId, up.offer)).answerSdp });
  let plis = 0;
  up.video.sender.onRtcp.subscribe((rtcp) => { if (rtcp.type === 206) plis++; });
  const stopSending = sendPackets(up);
  return { pc: up.pc, plis: () => plis, stop: async () => { stopSending(); await up.pc.close(); } };
}

/** Sends a packet per 20 ms on the uplink's main video, and on its audio unless told not to, until the returned stop. */
export function sendPackets(up: { audio: RTCRtpTransceiver; video: RTCRtpTransceiver }, { audio = true } = {}): () => void {
  let seq = 0;
  const timer = setInterval(() => {
    seq++;
    // An IDR NAL header and a few bytes: Janus forwards what it gets; the content does not matter here.
    void up.video.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 1800, marker: true }), Buffer.from([0x65, 1, 2, 3])));
    if (audio) void up.audio.sender.sendRtp(new RtpPacket(new RtpHeader({ sequenceNumber: seq, timestamp: seq * 960, marker: false }), Buffer.from([0xf8, 0xff, 0xfe])));
  }, 20);
  return () => clearInterval(timer);
}

/** A subscriber's downlink as the SDK runs it: answers every offer of the engine (kept), counts the RTP it receives (all, and by kind). */
export function subscriberPeer(): { pc: RTCPeerConnection; negotiate: DownlinkNegotiator; offers: string[]; packets: number[]; byKind: { audio: number; video: number } } {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: codecs('H264', 'VP8') });
  const packets: number[] = [];
  const byKind = { audio: 0, video: 0 };
  pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => {
    packets.push(Date.now());
    byKind[track.kind === 'audio' ? 'audio' : 'video']++;
  }));
  const offers: string[] = [];
  const negotiate: DownlinkNegotiator = async (offerSdp) => {
    offers.push(offerSdp);
    await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    await pc.setLocalDescription(await pc.createAnswer());
    return pc.localDescription!.sdp;
  };
  return { pc, negotiate, offers, packets, byKind };
}

/** Waits (bounded) until `condition` holds. */
export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`${what}: not in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}


/** A WHEP player (a werift peer standing in for a browser): its receive-only audio + video offer, and the RTP it receives by kind. */
export async function whepPlayer(): Promise<{ pc: RTCPeerConnection; offer: string; byKind: { audio: number; video: number } }> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: codecs('H264') });
  const byKind = { audio: 0, video: 0 };
  pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => { byKind[track.kind === 'audio' ? 'audio' : 'video']++; }));
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, offer: pc.localDescription!.sdp, byKind };
}

/** A WHIP client's send-only audio + video offer (a werift peer standing in for OBS or GStreamer). */
export async function whipClient(): Promise<{ pc: RTCPeerConnection; offer: string }> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: codecs('H264') });
  pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
  pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, offer: pc.localDescription!.sdp };
}
