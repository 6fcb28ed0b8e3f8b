import { createSocket, type Socket } from 'node:dgram';
import { MediaStreamTrack, RtpPacket, type RTCRtpReceiver } from 'werift';
import type { ForwardSource } from './forward-source.js';

/** What an RtpFeed carries: its kind, the codec its packets are in, the source it feeds. */
export interface RtpFeedInit {
  kind: 'video' | 'audio';
  /** e.g. 'video/H264': what the source's players' links negotiate. */
  codecMimeType: string;
  source: ForwardSource;
  /** Asks the sender of the datagrams for a key frame (the source's PLIs). */
  keyframe: () => void;
}

/**
 * One stream of RTP datagrams (a media job's rtp output) fed into a ForwardSource, as a publisher's track feeds
 * it: a loopback UDP socket whose packets become the track's, and whose key-frame requests (the ForwardSource's
 * PLIs) go to `keyframe`. A new SSRC (the sender restarted) is a new track, so players' senders rewrite their RTP
 * state.
 */
export class RtpFeed {
  /** The loopback UDP port the datagrams are to be sent to. */
  readonly port: number;
  readonly #socket: Socket;
  readonly #init: RtpFeedInit;
  readonly #receiver: RTCRtpReceiver;
  #track: MediaStreamTrack | undefined;

  private constructor(init: RtpFeedInit, socket: Socket, port: number) {
    this.#init = init;
    this.#socket = socket;
    this.port = port;
    // The only part of a receiver a ForwardSource uses: its PLI, which here asks the sender.
    this.#receiver = { sendRtcpPLI: () => { init.keyframe(); return Promise.resolve(); } } as unknown as RTCRtpReceiver;
    socket.on('message', (buffer) => this.#receive(buffer));
  }

  /** Binds a UDP socket on a free loopback port. */
  static open(init: RtpFeedInit): Promise<RtpFeed> {
    return new Promise((resolve, reject) => {
      const socket = createSocket('udp4');
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => {
        socket.removeListener('error', reject);
        socket.on('error', () => undefined);
        resolve(new RtpFeed(init, socket, socket.address().port));
      });
    });
  }

  #receive(buffer: Buffer): void {
    let rtp: RtpPacket;
    try {
      rtp = RtpPacket.deSerialize(buffer);
    } catch {
      return; // not RTP: nothing else is sent to this port
    }
    const { kind, source, codecMimeType } = this.#init;
    if (this.#track?.ssrc !== rtp.header.ssrc) {
      this.#track = new MediaStreamTrack({ kind, ssrc: rtp.header.ssrc, remote: true });
      source.attach(this.#track, this.#receiver, codecMimeType);
      // A player that came before the first packet asked for a key frame nobody could send yet: ask now.
      if (kind === 'video') source.linkUp();
    }
    this.#track.onReceiveRtp.execute(rtp);
  }

  close(): void {
    this.#init.source.detach();
    this.#socket.close();
  }
}
