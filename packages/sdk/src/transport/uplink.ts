import { waitForIceGathering, preferCodecs } from './ice.js';

/** The uplink's slots, in the m-line order the server expects (0 audio, 1 main video, 2 auxiliary). */
export type UplinkSlot = 'audio' | 'video' | 'aux';

/** Sends the offer to the server and returns its answer. */
export type Negotiator = (offerSdp: string) => Promise<string>;

/**
 * The send-only peer connection. All three transceivers exist from the start, so starting,
 * switching or stopping a track is a replaceTrack, never a renegotiation.
 */
export class Uplink {
  readonly #pc: RTCPeerConnection;
  readonly #senders: Record<UplinkSlot, RTCRtpSender>;
  #connected: Promise<void> | undefined;

  constructor(iceServers: RTCIceServer[], iceTransportPolicy: RTCIceTransportPolicy = 'all') {
    this.#pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    const audio = this.#pc.addTransceiver('audio', { direction: 'sendonly' });
    const video = this.#pc.addTransceiver('video', { direction: 'sendonly' });
    const aux = this.#pc.addTransceiver('video', { direction: 'sendonly' });
    // H264 by default, VP8 as the fallback (SPEC §3 codecs).
    preferCodecs(video, 'video', ['video/h264', 'video/vp8']);
    preferCodecs(aux, 'video', ['video/h264', 'video/vp8']);
    this.#senders = { audio: audio.sender, video: video.sender, aux: aux.sender };
  }

  /** Negotiates once; later calls return the same promise. */
  connect(negotiate: Negotiator): Promise<void> {
    this.#connected ??= (async () => {
      await this.#pc.setLocalDescription(await this.#pc.createOffer());
      await waitForIceGathering(this.#pc);
      const answer = await negotiate(this.#pc.localDescription?.sdp ?? '');
      await this.#pc.setRemoteDescription({ type: 'answer', sdp: answer });
    })();
    return this.#connected;
  }

  /** Puts a track on a slot (null stops sending) and applies its bitrate cap in kbit/s. */
  async setTrack(slot: UplinkSlot, track: MediaStreamTrack | null, maxBitrateKbps?: number): Promise<void> {
    const sender = this.#senders[slot];
    await sender.replaceTrack(track);
    if (track && maxBitrateKbps) {
      const params = sender.getParameters();
      if (params.encodings && params.encodings.length > 0) {
        params.encodings[0].maxBitrate = maxBitrateKbps * 1000;
        await sender.setParameters(params).catch(() => undefined);
      }
    }
  }

  get peerConnection(): RTCPeerConnection {
    return this.#pc;
  }

  close(): void {
    this.#pc.close();
  }
}
