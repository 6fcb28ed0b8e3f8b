import type { RTCPeerConnection, RTCRtpSender, RtpPacket } from 'werift';
import type { ForwardWants, LinkState } from '../media-engine.js';
import { chooseLayer, type Layer } from '../layers.js';
import { audioCodecs, headerExtensions, videoCodecs } from './codecs.js';
import type { ForwardSource, PacketSink } from './forward-source.js';
import { createPeer, linkState, localSdp, type PeerNetworkOptions } from './peer-factory.js';
import type { PublisherSources } from './uplink.js';

/** Counts what downlinks forward, for metrics. */
export interface ForwardCounter {
  packets: number;
  bytes: number;
}

type Slot = 'audio' | 'video' | 'aux';
export { chooseLayer, type Layer };

/**
 * A subscriber's send-only peer connection for one source user: three m-lines (audio, main
 * video, auxiliary video), fed from the source's forward points according to what is wanted.
 * The main-video m-line carries the small video instead of the big one when only the small one
 * is wanted and the publisher sends it; a layer switch rewrites the sender's RTP state
 * (replaceRTP) on the first packet of the new layer and asks that layer for a key frame.
 */
export class Downlink {
  readonly #pc: RTCPeerConnection;
  #wants: ForwardWants;
  readonly #sources: PublisherSources;
  readonly #removeSinks: (() => void)[] = [];
  readonly #counter: ForwardCounter;
  #state: LinkState = 'connecting';
  readonly #net: PeerNetworkOptions;
  /** The layer whose packets the main-video sender sent last. */
  #sentLayer: Layer | undefined;

  constructor(net: PeerNetworkOptions, sources: PublisherSources, wants: ForwardWants, counter: ForwardCounter) {
    this.#net = net;
    this.#sources = sources;
    this.#wants = wants;
    this.#counter = counter;
    this.#pc = createPeer(net, videoCodecs(sources.video.codecMimeType ?? sources.aux.codecMimeType), audioCodecs(), headerExtensions());
    const slots: Slot[] = ['audio', 'video', 'aux'];
    for (const slot of slots) {
      const transceiver = this.#pc.addTransceiver(slot === 'audio' ? 'audio' : 'video', { direction: 'sendonly' });
      this.#wire(slot, slot, transceiver.sender);
      if (slot === 'video') this.#wire(slot, 'small', transceiver.sender);
    }
    this.#pc.connectionStateChange.subscribe((state) => {
      this.#state = linkState(state);
      if (this.#state === 'connected') this.#requestKeyframes();
    });
  }

  /** The server's offer. */
  async createOffer(): Promise<string> {
    const offer = await this.#pc.createOffer();
    await this.#pc.setLocalDescription(offer);
    return localSdp(this.#pc, this.#net);
  }

  /** Applies the subscriber's answer. */
  async applyAnswer(sdp: string): Promise<void> {
    await this.#pc.setRemoteDescription({ type: 'answer', sdp });
  }

  /** Changes which streams flow; newly wanted video starts at a key frame. */
  update(wants: ForwardWants): void {
    const videoAdded = (wants.bigVideo || wants.smallVideo) && !(this.#wants.bigVideo || this.#wants.smallVideo);
    const auxAdded = wants.auxVideo && !this.#wants.auxVideo;
    const layerBefore = this.#layer;
    this.#wants = wants;
    // Before the link is up a key frame would be dropped; the connect handler asks then.
    if (this.#state !== 'connected') return;
    if (videoAdded || this.#layer !== layerBefore) this.#sources[this.#layer].requestKeyframe();
    if (auxAdded) this.#sources.aux.requestKeyframe();
  }

  /** The camera layer to forward now. */
  get #layer(): Layer {
    return chooseLayer(this.#wants, this.#sources.small.active);
  }

  /** The camera layer this downlink currently forwards (for tests and metrics). */
  get layer(): Layer {
    return this.#layer;
  }

  get state(): LinkState {
    return this.#state;
  }

  close(): void {
    for (const remove of this.#removeSinks) remove();
    this.#pc.close().catch(() => undefined);
  }

  #wanted(slot: Slot): boolean {
    if (slot === 'audio') return this.#wants.audio;
    if (slot === 'video') return this.#wants.bigVideo || this.#wants.smallVideo;
    return this.#wants.auxVideo;
  }

  /** Feeds `sender` (the m-line of `slot`) from the publisher's `from` stream. */
  #wire(slot: Slot, from: keyof PublisherSources, sender: RTCRtpSender): void {
    const source: ForwardSource = this.#sources[from];
    const sink: PacketSink = (rtp: RtpPacket, restarted: boolean) => {
      if (!this.#wanted(slot) || this.#state !== 'connected') return;
      if (slot === 'video') {
        const layer = this.#layer;
        if (layer !== from) return;
        // Another layer (or a new track of this one) continues the sequence and timestamps of the last.
        if (this.#sentLayer !== layer) {
          restarted = true;
          this.#sentLayer = layer;
        }
      }
      if (restarted) sender.replaceRTP(rtp.header);
      const out = rtp.clone();
      // The publisher's extension ids mean nothing on this link; the sender writes its own.
      out.header.extensions = [];
      this.#counter.packets++;
      this.#counter.bytes += out.payload.length;
      sender.sendRtp(out).catch(() => undefined);
    };
    this.#removeSinks.push(source.addSink(sink));
    // A lost picture on the subscriber side is relayed to the publisher (of the layer being forwarded).
    if (from !== 'small') sender.onPictureLossIndication.subscribe(() => (slot === 'video' ? this.#sources[this.#layer] : source).requestKeyframe());
  }

  #requestKeyframes(): void {
    if (this.#wants.bigVideo || this.#wants.smallVideo) this.#sources[this.#layer].requestKeyframe();
    if (this.#wants.auxVideo) this.#sources.aux.requestKeyframe();
  }
}
