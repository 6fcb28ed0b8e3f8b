import { createSendPeer, linkState, localSdp, sendForwarded, type MediaStreamTrack, type PeerNetworkOptions, type RTCPeerConnection, type RTCRtpReceiver, type RTCRtpSender, type RTCRtpTransceiver } from '../../webrtc/index.js';
import { playbackWants, type PlaybackStream, type PlaybackWants } from '../client-offer.js';
import type { DownlinkMids, DownlinkNegotiator, SubscriptionWants } from '../media-engine.js';

/** How the relay subscribes: the engine's own server-offered subscribe, for the viewer. */
export type RelaySubscribe = (wants: SubscriptionWants, negotiate: DownlinkNegotiator) => Promise<DownlinkMids>;

/** How often the relay asks for a key frame until the player's first one has gone out. */
const KEYFRAME_RETRY_MS = 500;

/**
 * A client-offered playback link on Janus. Janus's VideoRoom always offers to its subscribers and, its authors
 * say, will not take subscriber offers; so the server relays: a werift peer connection in this process
 * subscribes like any client (it answers Janus's offer on the viewer's downlink), and a second one answers the
 * player's offer and sends it the packets the first receives (RTP is forwarded as is; werift's sender rewrites
 * SSRC, payload type and sequence numbers). The player's PLIs go upstream as the relay's PLIs. One more hop
 * than the embedded engine's playback link, which reads the publisher's packets directly.
 */
export class JanusPlayback {
  readonly #upstream: RTCPeerConnection;
  readonly #player: RTCPeerConnection;
  #closed = false;
  #timer: ReturnType<typeof setInterval> | undefined;

  private constructor(upstream: RTCPeerConnection, player: RTCPeerConnection) {
    this.#upstream = upstream;
    this.#player = player;
  }

  /**
   * Subscribes through `subscribe` and answers the player's `offerSdp`. `relayNet` is where the relay reaches
   * Janus (its host interfaces), `playerNet` where players reach the server. `onFailed` is told once. The relay
   * subscribes to at most `allowed`, so nothing else reaches the player.
   */
  static async answer(subscribe: RelaySubscribe, stream: PlaybackStream, offerSdp: string, relayNet: PeerNetworkOptions,
    playerNet: PeerNetworkOptions, onFailed: (detail: string) => void, allowed?: PlaybackWants): Promise<{ playback: JanusPlayback; answer: string }> {
    const upstream = createSendPeer(relayNet);
    const player = createSendPeer(playerNet);
    const playback = new JanusPlayback(upstream, player);
    try {
      await player.setRemoteDescription({ type: 'offer', sdp: offerSdp });
      const transceivers = player.getTransceivers();
      const out = { audio: transceivers.find((t) => t.kind === 'audio'), video: transceivers.find((t) => t.kind === 'video') };
      if (!out.audio && !out.video) throw new Error('the offer has no audio or video m-line');
      const wants = playbackWants(stream, allowed);
      if (!out.audio) wants.audio = false;
      if (!out.video) Object.assign(wants, { bigVideo: false, auxVideo: false });
      // An m-line with nothing it may carry is answered inactive: the answer says what the player gets.
      for (const t of transceivers) t.setDirection((t === out.audio && wants.audio) || (t === out.video && (wants.bigVideo || wants.auxVideo)) ? 'sendonly' : 'inactive');
      const tracks = new Map<string, { track: MediaStreamTrack; receiver: RTCRtpReceiver }>();
      const got: { mids?: DownlinkMids } = {};
      const connect = () => {
        const { mids } = got;
        if (!mids) return;
        const audio = tracks.get(mids.audio);
        const video = tracks.get(stream === 'aux' ? mids.aux : mids.video);
        if (audio && out.audio && wants.audio) playback.#pipe(audio, out.audio.sender);
        if (video && out.video && (wants.bigVideo || wants.auxVideo)) playback.#pipe(video, out.video.sender, true);
        if (audio) tracks.delete(mids.audio);
        if (video) tracks.delete(stream === 'aux' ? mids.aux : mids.video);
      };
      upstream.onTransceiverAdded.subscribe((transceiver: RTCRtpTransceiver) => {
        transceiver.onTrack.subscribe((track) => {
          if (transceiver.mid) tracks.set(transceiver.mid, { track, receiver: transceiver.receiver });
          connect();
        });
      });
      for (const pc of [upstream, player]) {
        pc.connectionStateChange.subscribe((state) => {
          if (linkState(state) === 'failed' && !playback.#closed) onFailed('the playback relay lost a peer connection');
        });
      }
      got.mids = await subscribe(wants, async (janusOffer) => {
        await upstream.setRemoteDescription({ type: 'offer', sdp: janusOffer });
        await upstream.setLocalDescription(await upstream.createAnswer());
        return localSdp(upstream, relayNet);
      });
      connect();
      await player.setLocalDescription(await player.createAnswer());
      return { playback, answer: localSdp(player, playerNet) };
    } catch (error) {
      playback.close();
      throw error;
    }
  }

  /** Sends what `from` receives on `sender`; video asks for key frames until the player gets one. */
  #pipe(from: { track: MediaStreamTrack; receiver: RTCRtpReceiver }, sender: RTCRtpSender, video = false): void {
    let first = true;
    from.track.onReceiveRtp.subscribe((rtp) => {
      if (this.#closed) return;
      if (first) {
        sender.replaceRTP(rtp.header);
        first = false;
      }
      sendForwarded(sender, rtp);
    });
    if (!video) return;
    const pli = () => {
      // A PLI lost on a closing link: the retries below or the player's own PLI ask again.
      if (!this.#closed && from.track.ssrc !== undefined) from.receiver.sendRtcpPLI(from.track.ssrc).catch(() => undefined);
    };
    sender.onPictureLossIndication.subscribe(pli);
    // Janus sends the key frame it was asked for when the subscriber connects, possibly before the player
    // has: ask again until the player's link is up and a little after.
    let tries = 0;
    this.#timer = setInterval(() => {
      pli();
      if (++tries >= 10) clearInterval(this.#timer);
    }, KEYFRAME_RETRY_MS);
    this.#timer.unref();
  }

  /** Closes both peer connections (the owner ends the Janus subscription). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
    // Closing connections that may be failing or closed already: nothing is left to release.
    this.#upstream.close().catch(() => undefined);
    this.#player.close().catch(() => undefined); // likewise
  }
}
