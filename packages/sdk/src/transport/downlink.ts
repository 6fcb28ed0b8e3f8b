import { waitForIceGathering } from './ice.js';

/** A remote track as it arrives on a downlink. */
export interface IncomingTrack {
  slot: 'audio' | 'video' | 'aux';
  track: MediaStreamTrack;
}

/**
 * The receive-only peer connection carrying one remote user's media. The server offers three
 * m-lines (audio, main video, auxiliary video); what flows on them changes without renegotiation.
 */
export class Downlink {
  readonly #pc: RTCPeerConnection;
  readonly tracks: Partial<Record<IncomingTrack['slot'], MediaStreamTrack>> = {};
  /** The receiver of each slot (e.g. for encoded transforms that read SEI). */
  readonly receivers: Partial<Record<IncomingTrack['slot'], RTCRtpReceiver>> = {};

  /**
   * @param encoded with it, the connection exposes encoded frames (encodedInsertableStreams) and each
   * receiver is handed to `encoded` when its track arrives, which must pipe it (SEI extraction).
   */
  constructor(iceServers: RTCIceServer[], iceTransportPolicy: RTCIceTransportPolicy, onTrack: (incoming: IncomingTrack) => void,
    encoded?: (slot: IncomingTrack['slot'], receiver: RTCRtpReceiver) => void) {
    this.#pc = new RTCPeerConnection({ iceServers, iceTransportPolicy, bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require', ...(encoded ? { encodedInsertableStreams: true } : {}) });
    this.#pc.addEventListener('track', (event) => {
      const index = this.#pc.getTransceivers().indexOf(event.transceiver);
      const slot = index === 0 ? 'audio' : index === 1 ? 'video' : index === 2 ? 'aux' : undefined;
      if (!slot) return;
      this.tracks[slot] = event.track;
      this.receivers[slot] = event.receiver;
      encoded?.(slot, event.receiver);
      onTrack({ slot, track: event.track });
    });
  }

  /** Applies the server's offer and returns the answer to send back. */
  async answer(offerSdp: string): Promise<string> {
    await this.#pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    await this.#pc.setLocalDescription(await this.#pc.createAnswer());
    await waitForIceGathering(this.#pc);
    return this.#pc.localDescription?.sdp ?? '';
  }

  get peerConnection(): RTCPeerConnection {
    return this.#pc;
  }

  close(): void {
    this.#pc.close();
  }
}
