import { ForwardSource, PlaybackLink, RtpFeed, type PeerNetworkOptions, type PublisherSources } from '../webrtc/index.js';
import { playbackWants, type PlaybackWants } from '../engine/client-offer.js';
import type { RoomId } from '../ids/room-ref.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { MediaJob } from '../jobs/media-job.js';

/** The payload types a mix job's rtp output sends (gst-job.py): H264 96, opus 111. */
const CODECS = { video: 'video/H264', audio: 'audio/opus' } as const;

/**
 * A CDN mix played over WHEP by its streamId: a hidden source of no room (no user sees it, no mix includes it)
 * fed by the mix job's rtp output on two loopback UDP ports (the toolkit's RtpFeeds). Each player gets a
 * PlaybackLink on its sources, the toolkit's client-offered link the embedded engine answers WHEP with too (the same
 * forwarding: key frames held until connected, PLIs turned into key-frame requests of the job's encoder). The link is the server's own werift peer whatever the engine: on Janus too,
 * where it is the player-facing half of the engine's WHEP relay (the mix never passes through Janus).
 */
export class MixStream {
  readonly sdkAppId: number;
  readonly streamId: string;
  /** The room the mix is of: a player's token must be for it. */
  readonly room: RoomId;
  readonly videoPort: number;
  readonly audioPort: number;
  readonly #net: PeerNetworkOptions;
  readonly #sources: PublisherSources;
  readonly #feeds: RtpFeed[];
  readonly #links = new Map<string, { link: PlaybackLink; onEnded: () => void }>();
  readonly #counter = { packets: 0, bytes: 0 };
  /** The mix job that feeds this source, once bound (its encoder is asked for key frames). */
  readonly #job: { current?: MediaJob };
  #closed = false;
  readonly #onClose: () => void;

  private constructor(init: { sdkAppId: number; streamId: string; room: RoomId; net: PeerNetworkOptions; sources: PublisherSources; feeds: { video: RtpFeed; audio: RtpFeed }; job: { current?: MediaJob }; onClose: () => void }) {
    this.sdkAppId = init.sdkAppId;
    this.streamId = init.streamId;
    this.room = init.room;
    this.#net = init.net;
    this.#onClose = init.onClose;
    this.#sources = init.sources;
    this.#job = init.job;
    this.videoPort = init.feeds.video.port;
    this.audioPort = init.feeds.audio.port;
    this.#feeds = [init.feeds.video, init.feeds.audio];
  }

  /** Binds the two ports (the rtp output of the mix job to start). */
  static async open(init: { sdkAppId: number; streamId: string; room: RoomId; net: PeerNetworkOptions; onClose: () => void }): Promise<MixStream> {
    const sources: PublisherSources = { audio: new ForwardSource(), video: new ForwardSource(), small: new ForwardSource(), aux: new ForwardSource() };
    const job: { current?: MediaJob } = {};
    const keyframe = () => job.current?.requestOutputKeyframe();
    const [video, audio] = await Promise.all((['video', 'audio'] as const).map((kind) => RtpFeed.open({ kind, codecMimeType: CODECS[kind], source: sources[kind], keyframe })));
    return new MixStream({ ...init, sources, feeds: { video, audio }, job });
  }

  /** The mix job that feeds this source (started): key frames are asked of it, and its end closes the source. */
  bindJob(job: MediaJob): void {
    this.#job.current = job;
    if (job.state === 'stopped' || job.state === 'failed') this.close();
  }

  /** The id of the job that feeds this source. */
  get jobId(): string | undefined {
    return this.#job.current?.id;
  }

  /** Players now. */
  get players(): number {
    return this.#links.size;
  }

  /**
   * Answers a WHEP player's receive-only offer with a link carrying the mix's video and sound, at most `allowed`
   * of them (what the player's token may receive). `onEnded` is told when the link fails or the mix ends. Throws on
   * an offer that cannot be answered, or when the mix has ended.
   */
  async answer(viewerId: string, offerSdp: string, onEnded: () => void, allowed?: PlaybackWants): Promise<string> {
    if (this.#closed) throw new Error('the mix has ended');
    const { link, answer } = await PlaybackLink.answer(this.#net, this.#counter, this.#sources, playbackWants('main', allowed), offerSdp, () => this.end(viewerId));
    if (this.#closed) {
      link.close();
      throw new Error('the mix has ended');
    }
    this.#links.set(viewerId, { link, onEnded });
    return answer;
  }

  /** Ends one player's link (DELETE, or its failure). */
  end(viewerId: string): void {
    const entry = this.#links.get(viewerId);
    if (!entry) return;
    this.#links.delete(viewerId);
    entry.link.close();
    entry.onEnded();
  }

  /** The mix ended: every player's link and the ports close. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const viewerId of [...this.#links.keys()]) this.end(viewerId);
    for (const feed of this.#feeds) feed.close();
    this.#onClose();
  }
}

/** Every mix played over WHEP on this node, by app and streamId. */
export class MixStreams {
  readonly #net: PeerNetworkOptions;
  readonly #streams = new Map<string, MixStream>();

  /** `net`: where players reach the server (the engine's ICE settings). A mix's source closes when its job ends. */
  constructor(net: PeerNetworkOptions, jobs: JobManager) {
    this.#net = net;
    jobs.onJobEnd((job) => {
      for (const stream of [...this.#streams.values()]) if (stream.jobId === job.id) stream.close();
    });
  }

  static #key(sdkAppId: number, streamId: string): string {
    return `${sdkAppId}/${streamId}`;
  }

  /** Opens the WHEP source of a mix about to start; throws when another live mix of the app has this streamId. */
  async open(sdkAppId: number, streamId: string, room: RoomId): Promise<MixStream> {
    const key = MixStreams.#key(sdkAppId, streamId);
    if (this.#streams.has(key)) throw new Error(`streamId '${streamId}' is another mix's`);
    const stream = await MixStream.open({ sdkAppId, streamId, room, net: this.#net, onClose: () => { if (this.#streams.get(key) === stream) this.#streams.delete(key); } });
    if (this.#streams.has(key)) {
      stream.close();
      throw new Error(`streamId '${streamId}' is another mix's`);
    }
    this.#streams.set(key, stream);
    return stream;
  }

  /** The mix of `sdkAppId` with `streamId`, if one runs. */
  find(sdkAppId: number, streamId: string): MixStream | undefined {
    return this.#streams.get(MixStreams.#key(sdkAppId, streamId));
  }

  /** Mixes served now. */
  get size(): number {
    return this.#streams.size;
  }

  /** Closes every mix source (server shutdown). */
  close(): void {
    for (const stream of [...this.#streams.values()]) stream.close();
  }
}
