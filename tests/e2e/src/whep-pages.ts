import type { Page } from 'playwright-core';
import { genPrivateMapKey, PRIVILEGE } from '@conclave/usersig';
import { TEST_APP } from './harness/server.js';

/**
 * WHEP and WHIP from a plain page: only RFC 9725's HTTP exchange (POST the SDP offer with a bearer token, read
 * the 201's answer and Location) and an RTCPeerConnection; no SDK. The offer is sent once ICE gathering is
 * complete (the server takes no trickle).
 */

/** A token as an operator mints it: a privateMapKey of the app (what mint-token does). */
export function mediaToken(userId: string, roomId: number, purpose: 'play' | 'publish', secretKey = TEST_APP.secretKey): Promise<string> {
  const privilegeMap = purpose === 'play'
    ? PRIVILEGE.ENTER_ROOM | PRIVILEGE.RECV_AUDIO | PRIVILEGE.RECV_VIDEO | PRIVILEGE.RECV_SUB_VIDEO
    : PRIVILEGE.ENTER_ROOM | PRIVILEGE.SEND_AUDIO | PRIVILEGE.SEND_VIDEO;
  return genPrivateMapKey({ sdkAppId: TEST_APP.sdkAppId, secretKey, userId, roomId, privilegeMap });
}

/** The WHEP URL of a room user's main stream. */
export const whepUrl = (serverUrl: string, roomId: number, userId: string): string => `${serverUrl}/whep/v1/${TEST_APP.sdkAppId}/rooms/${roomId}/users/${encodeURIComponent(userId)}`;
/** The WHIP URL of a room. */
export const whipUrl = (serverUrl: string, roomId: number): string => `${serverUrl}/whip/v1/${TEST_APP.sdkAppId}/rooms/${roomId}`;

/** What the page's POST got. */
export interface Exchange {
  status: number;
  location: string | null;
  contentType: string | null;
  body: string;
}

/** A page without the SDK, on `origin` (a loopback http origin is a secure context: the camera works). */
export async function plainPage(page: Page, origin: string): Promise<Page> {
  await page.goto(`${origin}/healthz`);
  await page.setContent('<!doctype html><html><body><video id="v" autoplay playsinline muted></video></body></html>');
  return page;
}

/** Runs one exchange in the page: `direction` 'recvonly' plays (WHEP), 'sendonly' publishes camera and microphone (WHIP). */
export function exchange(page: Page, url: string, token: string | undefined, direction: 'recvonly' | 'sendonly'): Promise<Exchange> {
  return page.evaluate(async ({ url, token, direction }) => {
    const pc = new RTCPeerConnection();
    const w = window as unknown as { pc: RTCPeerConnection; postedAt: number };
    w.pc = pc;
    if (direction === 'sendonly') {
      const media = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 640, height: 480 } });
      for (const track of media.getTracks()) pc.addTransceiver(track, { direction: 'sendonly' });
      // WHIP carries H264 video (what OBS sends): prefer it.
      const video = pc.getTransceivers().find((t) => t.sender.track?.kind === 'video');
      const h264 = RTCRtpSender.getCapabilities('video')?.codecs.filter((c) => c.mimeType === 'video/H264') ?? [];
      video?.setCodecPreferences(h264);
    } else {
      pc.addTransceiver('audio', { direction: 'recvonly' });
      pc.addTransceiver('video', { direction: 'recvonly' });
      const stream = new MediaStream();
      pc.ontrack = (e) => {
        stream.addTrack(e.track);
        const v = document.getElementById('v') as HTMLVideoElement;
        v.srcObject = stream;
        void v.play().catch(() => undefined);
      };
    }
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') resolve();
      pc.addEventListener('icegatheringstatechange', () => { if (pc.iceGatheringState === 'complete') resolve(); });
    });
    w.postedAt = performance.now();
    const res = await fetch(url, {
      method: 'POST', body: pc.localDescription!.sdp,
      headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    const body = await res.text();
    if (res.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: body });
    return { status: res.status, location: res.headers.get('location'), contentType: res.headers.get('content-type'), body };
  }, { url, token, direction });
}

/** Inbound figures of the page's peer connection. */
export function inbound(page: Page): Promise<{ framesDecoded: number; audioBytes: number; width: number }> {
  return page.evaluate(async () => {
    const stats = await (window as unknown as { pc: RTCPeerConnection }).pc.getStats();
    const out = { framesDecoded: 0, audioBytes: 0, width: 0 };
    stats.forEach((s: { type: string; kind?: string; framesDecoded?: number; bytesReceived?: number; frameWidth?: number }) => {
      if (s.type !== 'inbound-rtp') return;
      if (s.kind === 'video') Object.assign(out, { framesDecoded: s.framesDecoded ?? 0, width: s.frameWidth ?? 0 });
      if (s.kind === 'audio') out.audioBytes = s.bytesReceived ?? 0;
    });
    return out;
  });
}

/** Outbound bytes of the page's peer connection (a WHIP publisher sends). */
export function outboundBytes(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let bytes = 0;
    (await (window as unknown as { pc: RTCPeerConnection }).pc.getStats()).forEach((s: { type: string; bytesSent?: number }) => {
      if (s.type === 'outbound-rtp') bytes += s.bytesSent ?? 0;
    });
    return bytes;
  });
}

/** An HTTP request to a session's resource URL from the page (DELETE ends it). */
export function resourceRequest(page: Page, url: string, method: 'DELETE' | 'PATCH'): Promise<number> {
  return page.evaluate(async ({ url, method }) => (await fetch(url, { method, headers: { 'content-type': 'application/trickle-ice-sdpfrag' }, body: method === 'PATCH' ? 'a=end-of-candidates\r\n' : undefined })).status, { url, method });
}
