import { UPLINK_SLOTS } from '@conclave/protocol/media';
import { boundNackGaps, closePeer, createPeer, guardConsentWhileBrowserSends, localSdp, uplinkCodecs, uplinkHeaderExtensions, type ForwardSource, type MediaStreamTrack, type PeerNetworkOptions, type PublisherSources, type RTCDtlsTransport, type RTCPeerConnection } from '../../webrtc/index.js';
import { TRANSPORT_CC_URI, TransportCcFeedback } from './transport-cc.js';

/** A publisher's receive-only peer connection: attaches each incoming track to its forward source. */
export class Uplink {
  readonly #pc: RTCPeerConnection;
  /** The tracks this uplink attached, by source (a concurrent publish may have replaced them since). */
  readonly #attached = new Map<ForwardSource, MediaStreamTrack>();
  #closed = false;
  /** Congestion-control feedback to the publisher (once negotiated with transport-cc). */
  #feedback: TransportCcFeedback | undefined;
  #stopConsentGuard: (() => void) | undefined;

  private constructor(pc: RTCPeerConnection) {
    this.#pc = pc;
  }

  /**
   * Negotiates from the client's offer; returns the uplink and the answer SDP. `onUp` is called when the link
   * connects, `onLost` once when the client closes it (its DTLS close_notify) or it fails (ICE consent expired
   * and no media comes any more: see consent-guard.ts).
   */
  static async negotiate(net: PeerNetworkOptions, sources: PublisherSources, offerSdp: string, onUp: () => void,
    onLost: (detail: string) => void = () => undefined): Promise<{ uplink: Uplink; answer: string }> {
    const codecs = uplinkCodecs();
    const pc = createPeer(net, codecs.video, codecs.audio, uplinkHeaderExtensions());
    const uplink = new Uplink(pc);
    const lose = (detail: string) => {
      if (uplink.#closed) return;
      uplink.#closed = true;
      onLost(detail);
    };
    pc.connectionStateChange.subscribe((state) => {
      // Checked a turn later: the consent guard undoes, in a microtask, a failure while the browser's media still comes.
      if (state === 'failed') setTimeout(() => { if (pc.connectionState === 'failed') lose('the uplink failed (ICE consent expired or DTLS failed)'); }, 0);
      if (state !== 'connected') return;
      for (const slot of ['video', 'small', 'aux'] as const) sources[slot].linkUp();
      onUp();
    });
    pc.onTransceiverAdded.subscribe((transceiver) => {
      // werift's own transport-cc receiver (one per m-line, each seeing part of the transport's sequence) is
      // replaced by the uplink's TransportCcFeedback: it must never start.
      Object.defineProperty(transceiver.receiver, 'twccEnabled', { value: false });
      boundNackGaps(transceiver.receiver);
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
      const sdp = localSdp(pc, net);
      const extensionId = transportCcExtensionId(sdp);
      const transport = pc.dtlsTransports[0];
      if (transport) uplink.#stopConsentGuard = guardConsentWhileBrowserSends(transport);
      if (extensionId !== undefined && transport) {
        uplink.#feedback = new TransportCcFeedback(transport, (Math.random() * 0x100000000) >>> 0, () => extensionId);
      }
      return { uplink, answer: sdp };
    } catch (error) {
      uplink.close();
      throw error;
    }
  }

  /** The uplink's (bundled) DTLS transport, once negotiated: what its media and feedback ride on. */
  get transport(): RTCDtlsTransport | undefined {
    return this.#pc.dtlsTransports[0];
  }

  /** Closes the connection and stops forwarding its tracks. */
  close(): void {
    this.#closed = true;
    for (const [source, track] of this.#attached) source.detach(track);
    this.#feedback?.close();
    this.#stopConsentGuard?.();
    closePeer(this.#pc);
  }
}

/** The id the answer gives the transport-cc header extension (`a=extmap:<id> <uri>`), if negotiated. */
export function transportCcExtensionId(sdp: string): number | undefined {
  const match = new RegExp(`^a=extmap:(\\d+)(?:/\\w+)? ${TRANSPORT_CC_URI.replace(/[.]/g, '\\.')}\\s*$`, 'm').exec(sdp);
  return match ? Number(match[1]) : undefined;
}
