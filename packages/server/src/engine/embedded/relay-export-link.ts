import { parseRelayLayers, RELAY_LAYERS_CHANNEL, type RelayLayers } from './relay-layers.js';
import { closePeer, closePeerNotifying, createSendPeer, DownlinkGroup, localSdp, watchSendLink, type ForwardCounter, type PeerNetworkOptions, type PublisherSources, type RTCPeerConnection, type SendLinkWatch } from '../../webrtc/index.js';

/** What the main group carries of `layers`: audio, big and auxiliary video (the small video has an m-line of its own). */
const main = (layers: RelayLayers) => ({ audio: layers.audio, bigVideo: layers.big, smallVideo: false, auxVideo: layers.aux });
/** The small video alone, on the third m-line. */
const small = (layers: RelayLayers) => ({ audio: false, bigVideo: false, smallVideo: layers.small, auxVideo: false });

/**
 * The exporting side of an embedded node-to-node relay: a werift peer answering the importing engine's offer
 * (RelayImportLink: audio and three video m-lines, receive-only, the uplink's slot order) with the source's four
 * streams, from its forward sources — the engine's own forwarding (DownlinkGroup: key frame held until connected,
 * PLIs relayed to the publisher, NACKs answered from the sender's retransmission cache), DTLS-SRTP encrypted. One
 * group carries audio, big video and auxiliary video; a second one the small video on its own m-line. What flows is
 * what the importer says it needs (RelayLayers, on the link's data channel), everything until it says.
 */
export class RelayExportLink {
  readonly #pc: RTCPeerConnection;
  readonly #groups: DownlinkGroup[];
  readonly #watch: SendLinkWatch;

  private constructor(pc: RTCPeerConnection, groups: DownlinkGroup[], watch: SendLinkWatch) {
    this.#pc = pc;
    this.#groups = groups;
    this.#watch = watch;
  }

  /**
   * Answers `offerSdp`, sending `initial` until the importer says what it needs (then told to `onLayers`); `onLost` is
   * told once when the link fails or the importer closes it. Throws on an offer it cannot answer.
   */
  static async answer(net: PeerNetworkOptions, counter: ForwardCounter, sources: PublisherSources, offerSdp: string,
    onLost: (detail: string) => void, initial: RelayLayers, onLayers: (layers: RelayLayers) => void = () => undefined): Promise<{ link: RelayExportLink; answer: string }> {
    const pc = createSendPeer(net, sources.video.codecMimeType ?? sources.aux.codecMimeType);
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      const [audio, video, smallVideo, aux] = pc.getTransceivers();
      if (audio?.kind !== 'audio' || video?.kind !== 'video' || smallVideo?.kind !== 'video' || aux?.kind !== 'video') {
        throw new Error('a relay offer has one audio and three video m-lines');
      }
      for (const t of [audio, video, smallVideo, aux]) t.setDirection('sendonly');
      let lost = false;
      const lose = (detail: string) => { if (!lost) { lost = true; onLost(detail); } };
      const watch = watchSendLink(pc, (state) => {
        if (state === 'connected') for (const group of groups) group.linkUp();
        if (state === 'failed') lose('the relay link failed (ICE consent or DTLS)');
        if (state === 'closed') lose('the importing node closed the relay link');
      });
      const connected = () => watch.state === 'connected';
      const groups = [
        new DownlinkGroup({ audio: audio.sender, video: video.sender, aux: aux.sender }, { audio: audio.mid ?? '', video: video.mid ?? '', aux: aux.mid ?? '' }, counter, connected),
        new DownlinkGroup({ audio: smallVideo.sender, video: smallVideo.sender, aux: smallVideo.sender }, { audio: smallVideo.mid ?? '', video: smallVideo.mid ?? '', aux: smallVideo.mid ?? '' }, counter, connected),
      ];
      groups[0]!.assign(sources, main(initial));
      groups[1]!.assign(sources, small(initial));
      pc.onDataChannel.subscribe((channel) => {
        if (channel.label !== RELAY_LAYERS_CHANNEL) return;
        channel.onMessage.subscribe((message) => {
          const layers = typeof message === 'string' ? parseRelayLayers(message) : undefined;
          // Only an engine that held the cluster's credential speaks here: what flows stays as it was.
          if (!layers) return;
          groups[0]!.update(main(layers));
          groups[1]!.update(small(layers));
          onLayers(layers);
        });
      });
      await pc.setLocalDescription(await pc.createAnswer());
      // werift's connection state ignores DTLS: the importer's close_notify shows only on the DTLS transport.
      for (const dtls of pc.dtlsTransports) {
        dtls.onStateChange.subscribe((state) => { if (state === 'closed' || state === 'failed') lose(`the relay link's DTLS ${state}`); });
      }
      watch.guard();
      return { link: new RelayExportLink(pc, groups, watch), answer: localSdp(pc, net) };
    } catch (error) {
      closePeer(pc);
      throw error;
    }
  }

  /** Stops forwarding and closes the connection. */
  close(): void {
    this.#watch.stop();
    for (const group of this.#groups) group.release();
    closePeerNotifying(this.#pc);
  }
}
