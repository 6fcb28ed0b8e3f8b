import type { RTCPeerConnection, RTCRtpTransceiver } from 'werift';
import type { SubscriptionWants } from '@conclave/protocol/media';
import { DownlinkGroup, type ForwardCounter } from './downlink-group.js';
import { watchSendLink, type SendLinkWatch } from './consent-guard.js';
import { closePeer, createSendPeer, localSdp, type PeerNetworkOptions } from './peer-factory.js';
import type { PublisherSources } from './forward-source.js';

/**
 * A client-offered playback link (WHEP): a werift peer connection answering the client's receive-only offer,
 * whose first audio and first video m-lines form one DownlinkGroup fed from the source's forward sources, the
 * same forwarding (key-frame hold until connected, PLI relay, layer rewrite) as the engine's own downlinks.
 * The auxiliary stream rides on the video m-line: the group's main-video and auxiliary senders are that one
 * m-line's sender, and only the wanted one of them ever sends.
 */
export class PlaybackLink {
  readonly #pc: RTCPeerConnection;
  readonly #group: DownlinkGroup;
  readonly #link: SendLinkWatch;

  private constructor(pc: RTCPeerConnection, group: DownlinkGroup, link: SendLinkWatch) {
    this.#pc = pc;
    this.#group = group;
    this.#link = link;
  }

  /**
   * Answers `offerSdp`, carrying what `wanted` names of the sources (the engine contract's playbackWants: one video,
   * the main or the auxiliary); `onFailed` is told once when the link fails. Throws on an offer it cannot answer.
   */
  static async answer(net: PeerNetworkOptions, counter: ForwardCounter, sources: PublisherSources, wanted: SubscriptionWants,
    offerSdp: string, onFailed: (detail: string) => void): Promise<{ link: PlaybackLink; answer: string }> {
    const codec = (wanted.auxVideo ? sources.aux : sources.video).codecMimeType ?? sources.video.codecMimeType ?? sources.aux.codecMimeType;
    const pc = createSendPeer(net, codec);
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      const transceivers = pc.getTransceivers();
      const audio = transceivers.find((t) => t.kind === 'audio');
      const video = transceivers.find((t) => t.kind === 'video');
      const first = video ?? audio;
      if (!first) throw new Error('the offer has no audio or video m-line');
      const wants = { ...wanted };
      if (!audio) wants.audio = false;
      if (!video) Object.assign(wants, { bigVideo: false, auxVideo: false });
      // An m-line with nothing it may carry is answered inactive: the answer says what the player gets.
      for (const t of transceivers) t.setDirection((t === audio && wants.audio) || (t === video && (wants.bigVideo || wants.auxVideo)) ? 'sendonly' : 'inactive');
      const senderOf = (t: RTCRtpTransceiver | undefined) => (t ?? first).sender;
      // The link's state changes only once negotiated, after the group exists.
      const watch = watchSendLink(pc, (state) => {
        if (state === 'connected') group.linkUp();
        if (state === 'failed') onFailed('the playback peer connection failed');
      });
      const group = new DownlinkGroup({ audio: senderOf(audio), video: senderOf(video), aux: senderOf(video) },
        { audio: audio?.mid ?? '', video: video?.mid ?? '', aux: video?.mid ?? '' }, counter, () => watch.state === 'connected');
      const link = new PlaybackLink(pc, group, watch);
      group.assign(sources, wants);
      await pc.setLocalDescription(await pc.createAnswer());
      watch.guard();
      return { link, answer: localSdp(pc, net) };
    } catch (error) {
      closePeer(pc);
      throw error;
    }
  }

  /** Stops forwarding and closes the connection. */
  close(): void {
    this.#link.stop();
    this.#group.release();
    closePeer(this.#pc);
  }
}
