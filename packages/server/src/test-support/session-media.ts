import { FLAG } from '@conclave/protocol';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters } from 'werift';
import type { sessionClient } from './session-client.js';
import { sendPackets, uplink } from './engine-peers.js';

/**
 * Publishes real media from a signalling session (a werift uplink through its `publish` command, a packet per 20 ms
 * of audio and video), then sets its flags (audio and video unless `flag` says). Resolves to the stop.
 */
export async function publishMedia(client: ReturnType<typeof sessionClient>, flag = FLAG.AUDIO | FLAG.VIDEO): Promise<() => Promise<void>> {
  const up = await uplink('H264');
  const reply = await client.send('publish', { sdp: up.offer });
  if (reply.code !== 0) throw new Error(`publish failed: ${reply.code} ${reply.message}`);
  await up.pc.setRemoteDescription({ type: 'answer', sdp: (reply.data as { sdp: string }).sdp });
  const stopSending = sendPackets(up);
  const flagged = await client.send('mute-flag', { flag });
  if (flagged.code !== 0) throw new Error(`mute-flag failed: ${flagged.code} ${flagged.message}`);
  return async () => {
    stopSending();
    await up.pc.close();
  };
}

/** H264 and opus, as the SDK's links negotiate them. */
const CODECS = {
  audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
  video: [new RTCRtpCodecParameters({
    mimeType: 'video/H264', clockRate: 90000, rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }],
    parameters: 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1',
  })],
};

/** A WHEP player (a werift peer standing in for a browser): its receive-only audio + video offer, and the RTP it receives by kind. */
export async function whepPlayer(): Promise<{ pc: RTCPeerConnection; offer: string; byKind: { audio: number; video: number } }> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: CODECS });
  const byKind = { audio: 0, video: 0 };
  pc.onTrack.subscribe((track) => track.onReceiveRtp.subscribe(() => { byKind[track.kind === 'audio' ? 'audio' : 'video']++; }));
  pc.addTransceiver('audio', { direction: 'recvonly' });
  pc.addTransceiver('video', { direction: 'recvonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, offer: pc.localDescription!.sdp, byKind };
}

/** A WHIP client's send-only audio + video offer (a werift peer standing in for OBS or GStreamer). */
export async function whipClient(): Promise<{ pc: RTCPeerConnection; offer: string }> {
  const pc = new RTCPeerConnection({ iceUseIpv6: false, codecs: CODECS });
  pc.addTransceiver(new MediaStreamTrack({ kind: 'audio' }), { direction: 'sendonly' });
  pc.addTransceiver(new MediaStreamTrack({ kind: 'video' }), { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  return { pc, offer: pc.localDescription!.sdp };
}
