import { UPLINK_SLOTS } from '@conclave/protocol/media';
import { RELAY_LAYERS_CHANNEL, serializeRelayLayers, type RelayLayers } from './relay-layers.js';
import { boundNackGaps, closePeerNotifying, createPeer, guardConsentWhileBrowserSends, headerExtensions, localSdp, videoCodecs, audioCodecs, type ForwardSource, type MediaStreamTrack, type PeerNetworkOptions, type PublisherSources, type RTCDataChannel, type RTCPeerConnection } from '../../webrtc/index.js';

/**
 * The importing side of an embedded node-to-node relay: a werift peer offering audio and three video m-lines,
 * receive-only, in the uplink's slot order (UPLINK_SLOTS: audio, big, small, auxiliary), whose tracks feed this
 * engine's forward sources of the relayed source exactly as a publisher's uplink does. Local subscribers' key-frame
 * requests reach the exporting node through the forward sources (coalesced there, one per key-frame interval);
 * werift's receivers ask for lost packets (NACK) on this link.
 */
export class RelayImportLink {
  readonly #pc: RTCPeerConnection;
  readonly #attached = new Map<ForwardSource, MediaStreamTrack>();
  #closed = false;
  #stopGuard: (() => void) | undefined;
  #channel: RTCDataChannel | undefined;
  /** What the exporter was last told (or is told once the channel opens). */
  #layers: string | undefined;
  readonly #lose: (detail: string) => void;

  private constructor(pc: RTCPeerConnection, onLost: (detail: string) => void) {
    this.#pc = pc;
    this.#lose = (detail) => {
      if (this.#closed) return;
      this.#closed = true;
      onLost(detail);
    };
  }

  /**
   * Makes the offer; `onLost` is told once when the link fails or the exporting side closes it (its DTLS
   * close_notify), never after `close`. `accept` then takes the exporting engine's answer.
   */
  static async offer(net: PeerNetworkOptions, sources: PublisherSources, onLost: (detail: string) => void): Promise<{ link: RelayImportLink; offer: string }> {
    const pc = createPeer(net, videoCodecs(), audioCodecs(), headerExtensions());
    const link = new RelayImportLink(pc, onLost);
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed') setTimeout(() => { if (pc.connectionState === 'failed') link.#lose('the relay link failed (ICE consent expired or DTLS failed)'); }, 0);
      if (state === 'connected') for (const slot of ['video', 'small', 'aux'] as const) sources[slot].linkUp();
    });
    pc.onTransceiverAdded.subscribe((transceiver) => {
      boundNackGaps(transceiver.receiver);
      transceiver.onTrack.subscribe((track) => {
        const slot = UPLINK_SLOTS[transceiver.mLineIndex ?? pc.getTransceivers().indexOf(transceiver)];
        if (!slot) return;
        const source = sources[slot];
        source.attach(track, transceiver.receiver, transceiver.codecs[0]?.mimeType);
        link.#attached.set(source, track);
        if (track.kind === 'video') source.requestKeyframe();
      });
    });
    try {
      pc.addTransceiver('audio', { direction: 'recvonly' });
      for (let i = 0; i < 3; i++) pc.addTransceiver('video', { direction: 'recvonly' });
      const channel = pc.createDataChannel(RELAY_LAYERS_CHANNEL);
      link.#channel = channel;
      channel.stateChanged.subscribe((state) => { if (state === 'open') link.#send(); });
      await pc.setLocalDescription(await pc.createOffer());
      // werift names an SSRC on receive-only m-lines too (its unused senders'): the exporting werift peer would then
      // route this link's PLIs, whose sender SSRC is that one, to a receiver of its own instead of its sender. A
      // browser's receive-only offer names none.
      return { link, offer: localSdp(pc, net).replace(/^a=ssrc(-group)?:.*\r\n/gm, '') };
    } catch (error) {
      link.close();
      throw error;
    }
  }

  /** Takes the exporting engine's answer: media flows once the link connects. */
  async accept(answerSdp: string): Promise<void> {
    await this.#pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
    for (const dtls of this.#pc.dtlsTransports) {
      dtls.onStateChange.subscribe((state) => {
        if (state === 'closed' || state === 'failed') this.#lose(`the relay link's DTLS ${state}`);
      });
    }
    const transport = this.#pc.dtlsTransports[0];
    if (transport) this.#stopGuard = guardConsentWhileBrowserSends(transport);
  }

  /** Tells the exporter which streams to send (RelayLayers); sent once the link's data channel is open. */
  want(layers: RelayLayers): void {
    const message = serializeRelayLayers(layers);
    if (message === this.#layers) return;
    this.#layers = message;
    this.#send();
  }

  #send(): void {
    const channel = this.#channel;
    if (this.#layers === undefined || channel?.readyState !== 'open') return;
    try {
      channel.send(this.#layers);
    } catch {
      // The channel closed since the check: the link is going, and what flows on it with it.
    }
  }

  /** Closes the connection and stops feeding the forward sources. */
  close(): void {
    this.#closed = true;
    for (const [source, track] of this.#attached) source.detach(track);
    this.#stopGuard?.();
    closePeerNotifying(this.#pc);
  }
}
