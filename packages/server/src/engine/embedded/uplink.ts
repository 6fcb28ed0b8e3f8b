import { UPLINK_SLOTS } from '@conclave/protocol/media';
import type { MediaStreamTrack, RTCPeerConnection } from 'werift';
import { audioCodecs, headerExtensions, videoCodecs } from './codecs.js';
import type { ForwardSource } from './forward-source.js';
import { closePeer, createPeer, localSdp, type PeerNetworkOptions } from './peer-factory.js';

/** The four slots of a publisher, in uplink m-line order (0 audio, 1 big video, 2 small video, 3 auxiliary). */
export interface PublisherSources {
  audio: ForwardSource;
  video: ForwardSource;
  small: ForwardSource;
  aux: ForwardSource;
}


/** A publisher's receive-only peer connection: attaches each incoming track to its forward source. */
export class Uplink {
  readonly #pc: RTCPeerConnection;
  /** The tracks this uplink attached, by source (a concurrent publish may have replaced them since). */
  readonly #attached = new Map<ForwardSource, MediaStreamTrack>();
  #closed = false;

  private constructor(pc: RTCPeerConnection) {
    this.#pc = pc;
  }

  /**
   * Negotiates from the client's offer; returns the uplink and the answer SDP. `onUp` is called when the link
   * connects, `onLost` once when the client closes it (its DTLS close_notify) or it fails (ICE consent expired).
   */
  static async negotiate(net: PeerNetworkOptions, sources: PublisherSources, offerSdp: string, onUp: () => void,
    onLost: (detail: string) => void = () => undefined): Promise<{ uplink: Uplink; answer: string }> {
    const pc = createPeer(net, videoCodecs(), audioCodecs(), headerExtensions());
    const uplink = new Uplink(pc);
    const lose = (detail: string) => {
      if (uplink.#closed) return;
      uplink.#closed = true;
      onLost(detail);
    };
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed') lose('the uplink failed (ICE consent expired or DTLS failed)');
      if (state !== 'connected') return;
      for (const slot of ['video', 'small', 'aux'] as const) sources[slot].linkUp();
      onUp();
    });
    pc.onTransceiverAdded.subscribe((transceiver) => {
      transceiver.onTrack.subscribe((track) => {
        const index = transceiver.mLineIndex ?? pc.getTransceivers().indexOf(transceiver);
        const slot = UPLINK_SLOTS[index];
        if (!slot) return;
        const source = sources[slot];
        const codec = transceiver.codecs[0]?.mimeType;
        source.attach(track, transceiver.receiver, codec);
        uplink.#attached.set(source, track);
        // A subscriber that is already waiting needs a key frame to start decoding.
        if (track.kind === 'video') source.requestKeyframe();
      });
    });
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      // werift's connection state ignores DTLS: a client's close_notify (it closed its peer connection) shows
      // only on the DTLS transport.
      for (const dtls of pc.dtlsTransports) {
        dtls.onStateChange.subscribe((state) => { if (state === 'closed' || state === 'failed') lose(`the client ${state === 'closed' ? 'closed' : 'broke'} the uplink (DTLS ${state})`); });
      }
      return { uplink, answer: localSdp(pc, net) };
    } catch (error) {
      uplink.close();
      throw error;
    }
  }

  /** Closes the connection and stops forwarding its tracks. */
  close(): void {
    this.#closed = true;
    for (const [source, track] of this.#attached) source.detach(track);
    closePeer(this.#pc);
  }
}
