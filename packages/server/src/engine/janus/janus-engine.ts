import { EngineEvents } from '../engine-events.js';
import { EngineMembership } from '../engine-membership.js';
import { SubscriberDownlinks } from '../subscriber-downlinks.js';
import {
  DEFAULT_SOURCE_WAIT_MS, EngineError,
  type CleanupOperation, type DownlinkNegotiator, type EngineListener, type EngineStats, type SubscriptionWants, type MediaEngine,
  type MediaServerReport, type RtpForward, type RtpForwardTargets, type SubscriptionHandle, type UplinkHandle, type UplinkMedia,
} from '../media-engine.js';
import { JanusConnection, type JanusConnectionOptions } from './janus-connection.js';
import { JanusPublisher } from './janus-publisher.js';
import { JanusRooms } from './janus-rooms.js';
import { JanusDownlink } from './janus-downlink.js';
import { JanusForwards } from './janus-forwarder.js';
import { JanusPlayback } from './janus-playback.js';
import type { ClientOfferPlayback, PlaybackStream, PlaybackWants } from '../client-offer.js';
import { JanusCrossRoom } from './janus-cross-room.js';
import type { JanusFeed } from './janus-publisher.js';

/** How to reach Janus (spawned or running), and how long a subscription waits for its source. */
export interface JanusEngineOptions extends JanusConnectionOptions {
  /** How long a subscription waits for its source to publish (default DEFAULT_SOURCE_WAIT_MS). */
  sourceWaitMs?: number;
}

/** How long a republished feed may take to come up before its subscribers' move is logged as late. */
const SOURCE_TIMEOUT_MS = DEFAULT_SOURCE_WAIT_MS;
/** How long a republished feed may still come up after SOURCE_TIMEOUT_MS before its subscribers are left where they are. */
const LATE_UP_MS = 50_000;

/**
 * The production media engine: the Janus WebRTC Server's VideoRoom plugin (multistream) does the
 * forwarding; this class maps the engine interface onto it. A Conclave room is a private VideoRoom
 * room, a publisher is a publisher handle (feed ids are ours), a subscriber's downlink is one
 * multistream subscriber handle.
 * When Janus goes away every handle is gone: the engine forgets them, waits
 * for Janus to be back (restarted by the supervisor, or reachable again), emits `engine-restarted`, and
 * the clients negotiate again.
 */
export class JanusEngine implements MediaEngine, ClientOfferPlayback {
  readonly #options: JanusEngineOptions;
  /** The session with Janus (spawned and supervised, or reached at its URL). */
  readonly #janus: JanusConnection;
  readonly #rooms = new JanusRooms((detail) => this.#cleanupFailed('room-destroy', detail));
  readonly #publishers = new Map<string, JanusPublisher>();
  readonly #publishing = new Map<string, Promise<unknown>>();
  readonly #members = new EngineMembership((detail) => this.#cleanupFailed('handle-close', detail));
  readonly #events = new EngineEvents();
  readonly #sourceWaitMs: number;
  /** Each subscriber's one downlink. */
  readonly #downlinks = new SubscriberDownlinks<JanusDownlink>(this.#events, this.#members);
  /** Feeds to media jobs (VideoRoom RTP forwarders), re-issued on each new publisher. */
  readonly #forwards = new JanusForwards((detail) => this.#cleanupFailed('rtp-forward-stop', detail),
    (detail) => this.#options.logger.warn({ detail }, 'janus: a feed to a media job did not start; the job gets no media from this publisher'));
  /** Client-offered playback links (WHEP), by viewer: relays through a subscription of the viewer. */
  readonly #playbacks = new Map<string, { playback: JanusPlayback; sourceId: string }>();
  /** Sources shared with other rooms (cross-room links: VideoRoom remote publishers). */
  readonly #cross: JanusCrossRoom;
  #closed = false;

  private constructor(options: JanusEngineOptions) {
    this.#options = options;
    this.#sourceWaitMs = options.sourceWaitMs ?? DEFAULT_SOURCE_WAIT_MS;
    this.#cross = new JanusCrossRoom({
      ready: () => this.#janus.ready(), roomOfGroup: (client, groupId) => this.#rooms.roomOfGroup(client, groupId),
      nextFeedId: () => this.#rooms.nextFeedId(), sourceWaitMs: this.#sourceWaitMs,
      cleanupFailed: (detail) => this.#cleanupFailed('handle-detach', detail),
    });
    this.#janus = new JanusConnection(options, () => this.#lost());
  }

  #cleanupFailed(operation: CleanupOperation, detail: string): void {
    this.#events.emit({ type: 'cleanup-failed', operation, detail });
  }

  /** Spawns (or reaches) Janus and opens a session; throws JanusMissingError when Janus is not installed. */
  static async start(options: JanusEngineOptions): Promise<JanusEngine> {
    const engine = new JanusEngine(options);
    try {
      await engine.#janus.start();
    } catch (error) {
      await engine.close();
      throw error;
    }
    return engine;
  }

  /** The spawned Janus's process id (none when attached to a running Janus). */
  get janusPid(): number | undefined {
    return this.#janus.pid;
  }

  /** Janus went away: every handle and room with it. */
  #lost(): void {
    this.#options.logger.error({ publishers: this.#publishers.size, downlinks: this.#downlinks.size }, 'lost the Janus session; media links must be negotiated again');
    // Every handle went with Janus: their holders are told, with nothing to release; nobody publishes.
    this.#members.endMedia(this.#closed ? 'engine-closed' : 'engine-restarted');
    this.#publishers.clear();
    this.#forwards.forgetAll();
    this.#cross.forgetAll();
    this.#downlinks.forgetAll();
    this.#rooms.clear();
    if (!this.#closed) this.#events.emit({ type: 'engine-restarted' });
  }

  /** Puts a participant in an engine room (one VideoRoom room per Conclave room). */
  joinRoom(participantId: string, roomId: string): void {
    this.#members.join(participantId, roomId);
    this.#rooms.place(participantId, roomId);
  }

  async publish(participantId: string, offerSdp: string): Promise<UplinkHandle> {
    const { adopt, overtaken } = this.#members.beginPublish(participantId);
    const previous = this.#publishing.get(participantId) ?? Promise.resolve();
    const run = async () => {
      const client = await this.#janus.ready();
      let joined: { publisher: JanusPublisher; answer: string };
      try {
        const room = await this.#rooms.roomOf(client, participantId);
        joined = await JanusPublisher.join(client, room, this.#rooms.nextFeedId(), offerSdp);
      } catch (error) {
        // Left meanwhile, its VideoRoom room destroyed under the join ("No such room"): closed, not failed.
        if (overtaken()) return adopt('', () => undefined);
        throw EngineError.from(error, client.closed ? 'unavailable' : 'negotiation-failed');
      }
      const { publisher, answer } = joined;
      const handle = adopt(answer, () => this.#closePublisher(participantId, publisher)); // overtaken: closed, released
      if (handle.closed) return handle.closeReason === 'unpublished' ? handle : this.#rooms.leave(client, participantId).then(() => handle);
      const old = this.#publishers.get(participantId);
      this.#publishers.set(participantId, publisher);
      old?.retire();
      this.#forwards.setPublisher(participantId, publisher);
      this.#cross.published(participantId, publisher);
      // A replaced feed's late media events must not point the subscribers back at it (it closes soon).
      publisher.onMediaChange(() => {
        if (this.#publishers.get(participantId) === publisher) void this.#moveSubscribers(participantId, publisher);
      });
      publisher.onHangup((reason) => {
        if (this.#publishers.get(participantId) === publisher) this.#events.emit({ type: 'uplink-lost', participantId, detail: `Janus hung up the uplink: ${reason}` });
      });
      void this.#republished(participantId, publisher, old);
      publisher.whenUp(LATE_UP_MS).then(() => {
        if (this.#publishers.get(participantId) === publisher) this.#events.emit({ type: 'feed-up', participantId });
      }, () => undefined); // a feed not up is #republished's to log (it waits on the same whenUp)
      this.#members.published(participantId);
      return handle;
    };
    const result = previous.then(run, run);
    this.#publishing.set(participantId, result.catch(() => undefined)); // only orders the next publish: the caller gets `result`
    return result;
  }

  /**
   * Make before break: a republished participant's subscribers move to the new feed before the old one
   * leaves. Janus refuses a `switch` to a feed whose PeerConnection is not up yet ("No such feed"), so this
   * waits for it; a feed late to come up is waited for longer (logged), and the old feed closes either way.
   */
  async #republished(participantId: string, publisher: JanusPublisher, old: JanusPublisher | undefined): Promise<void> {
    const log = this.#options.logger;
    // A newer publish took over (it moves the subscribers), or the participant left: nothing to move.
    const current = () => this.#publishers.get(participantId) === publisher;
    try {
      try {
        await publisher.whenUp(SOURCE_TIMEOUT_MS);
      } catch (error) {
        if (!current()) throw error;
        log.warn({ participantId, feed: publisher.feedId }, `janus: a new feed is not up after ${SOURCE_TIMEOUT_MS} ms; its subscribers move when it is`);
        await publisher.whenUp(LATE_UP_MS);
      }
      if (current()) await this.#moveSubscribers(participantId, publisher);
    } catch (error) {
      if (current()) log.warn({ err: error, participantId, feed: publisher.feedId }, 'janus: a new feed never came up; its subscribers were not moved to it');
    } finally {
      old?.close();
    }
  }

  /** Points every subscription of the participant at `publisher` (feed and layer); a failed move is logged. */
  async #moveSubscribers(participantId: string, publisher: JanusPublisher): Promise<void> {
    await Promise.all([...this.#downlinks.entries()].map(async ([subscriberId, downlink]) => {
      // A subscriber of another room receives the participant through its remote publisher there.
      const feed = this.#feedIn(subscriberId, participantId, publisher);
      await feed?.then((f) => f && downlink.refresh(participantId, f)).catch((error: unknown) => {
        this.#options.logger.error({ err: error, participantId, subscriberId, feed: publisher.feedId }, 'janus: moving a subscription to the new feed failed');
      });
    }));
  }

  /**
   * The feed carrying `sourceId` to `subscriberId`'s room: the source's publisher in its own room, the remote
   * publisher of a cross-room share elsewhere (undefined when the subscriber's room neither holds nor shares it).
   */
  #feedIn(subscriberId: string, sourceId: string, publisher: JanusPublisher): Promise<JanusFeed | undefined> | undefined {
    let room: string;
    try {
      room = this.#members.roomOf(subscriberId);
      if (room === this.#members.roomOf(sourceId)) return Promise.resolve(publisher);
    } catch {
      return undefined; // one of them left meanwhile: there is no feed to move to
    }
    return this.#cross.view(sourceId, room) ? this.#cross.feedFor(sourceId, room, publisher) : undefined;
  }

  unpublish(participantId: string): Promise<void> {
    return this.#members.unpublish(participantId);
  }

  /** Releases an uplink's handle: its publisher closes; the participant publishes nothing if it was the current one. */
  #closePublisher(participantId: string, publisher: JanusPublisher): void {
    publisher.close();
    if (this.#publishers.get(participantId) !== publisher) return;
    this.#publishers.delete(participantId);
    this.#members.unpublished(participantId);
    this.#forwards.setPublisher(participantId, undefined);
  }

  uplinkMedia(participantId: string): UplinkMedia {
    const publisher = this.#publishers.get(participantId);
    if (!publisher || publisher.closed) return 'none';
    return publisher.carriesMedia ? 'flowing' : 'idle';
  }

  /**
   * The source's current publisher once its feed is up, waiting (bounded) for a publish in progress or about to
   * come. A publisher replaced while it is waited for (two publishes at once: the last one wins, and the client
   * may never connect the other) is not waited for any longer: its successor is.
   */
  async #publisherOf(sourceId: string): Promise<JanusPublisher> {
    await this.#members.whenPublished(sourceId, this.#sourceWaitMs);
    const deadline = Date.now() + this.#sourceWaitMs;
    for (;;) {
      const publisher = this.#publishers.get(sourceId);
      if (!publisher) throw new EngineError('not-published', `participant ${sourceId} does not publish`);
      let up: boolean;
      try {
        up = await publisher.whenUp(Math.max(0, deadline - Date.now()), true);
      } catch (error) {
        throw EngineError.from(error, 'not-published');
      }
      if (this.#publishers.get(sourceId) !== publisher) continue; // replaced meanwhile: its successor is waited for
      if (up) return publisher;
      throw new EngineError('not-published', `participant ${sourceId}'s feed closed`);
    }
  }

  async subscribe(subscriberId: string, sourceId: string, wants: SubscriptionWants, negotiate: DownlinkNegotiator): Promise<SubscriptionHandle> {
    const adopt = this.#members.beginSubscribe(subscriberId, sourceId);
    const client = await this.#janus.ready();
    const publisher = await this.#publisherOf(sourceId);
    let room: number;
    try {
      room = await this.#rooms.roomOf(client, subscriberId);
    } catch (error) {
      throw EngineError.from(error, 'unavailable');
    }
    const feed = await this.#feedIn(subscriberId, sourceId, publisher)?.catch((error: unknown) => {
      throw new EngineError('refused', `cross-room feed of ${sourceId}: ${error instanceof Error ? error.message : String(error)}`);
    });
    if (!feed) throw new EngineError('not-joined', `${sourceId} is not in ${subscriberId}'s engine room`);
    // Either side may have left while this waited (churn): a downlink made now would outlive its subscriber.
    this.#members.assertSameRoom(subscriberId, sourceId);
    // No await from here to the map: two subscriptions arriving together (a join's audio of every user)
    // once both made a downlink, two Janus handles offered to the client's one peer connection, Chromium
    // took the second offer as an ICE restart of a link whose DTLS was up, and that handle never got a
    // handshake ("DTLS taking too much time", no media for that page).
    const downlink = this.#downlinks.getOrMake(subscriberId, (onFailed) => new JanusDownlink(client, room, this.#options.logger, onFailed));
    const mids = await downlink.subscribe(sourceId, feed, wants, negotiate); // either side left meanwhile: closed, its streams ended
    return adopt(mids, () => this.#downlinks.get(subscriberId) === downlink ? this.#endStreams(downlink, sourceId, `${subscriberId}'s subscription`) : undefined);
  }

  /** Ends a subscription's streams on a downlink; a failure is told (cleanup-failed). */
  #endStreams(downlink: JanusDownlink, sourceId: string, what: string): Promise<void> {
    return downlink.unsubscribe(sourceId).catch((error: unknown) => {
      this.#cleanupFailed('unsubscribe', `${what} to ${sourceId}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /** A relay (JanusPlayback): VideoRoom subscribers cannot take a client's offer. */
  async answerPlayback(viewerId: string, sourceId: string, stream: PlaybackStream, offerSdp: string, wants?: PlaybackWants): Promise<string> {
    this.#closePlayback(viewerId);
    const { iceAddress, announcedAddress, portRange } = this.#options;
    const relayNet = iceAddress && !iceAddress.startsWith('127.') ? { iceAddress } : {};
    const playerNet = { ...(iceAddress ? { iceAddress } : {}), ...(announcedAddress ? { announcedAddress } : {}), ...(portRange ? { icePortRange: portRange } : {}) };
    let made: { playback: JanusPlayback; answer: string };
    try {
      made = await JanusPlayback.answer((wants, negotiate) => this.subscribe(viewerId, sourceId, wants, negotiate).then((handle) => handle.mids), stream, offerSdp, relayNet, playerNet, (detail) => {
        if (this.#playbacks.get(viewerId)?.playback !== made.playback) return;
        this.#closePlayback(viewerId);
        this.#events.emit({ type: 'downlink-failed', subscriberId: viewerId, detail });
      }, wants);
    } catch (error) {
      await this.resetDownlink(viewerId);
      throw EngineError.from(error, 'negotiation-failed');
    }
    this.#playbacks.set(viewerId, { playback: made.playback, sourceId });
    return made.answer;
  }

  #closePlayback(viewerId: string): void {
    this.#playbacks.get(viewerId)?.playback.close();
    this.#playbacks.delete(viewerId);
  }

  async updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void> {
    if (this.#closed) throw new EngineError('closed', 'media engine closed');
    const downlink = this.#downlinks.get(subscriberId);
    if (!downlink) throw new EngineError('not-subscribed', `${subscriberId} has no downlink`);
    await downlink.update(sourceId, wants);
  }

  async unsubscribe(subscriberId: string, sourceId: string): Promise<void> {
    this.#members.endSubscription(subscriberId, sourceId, 'unsubscribed');
    try {
      await this.#downlinks.get(subscriberId)?.unsubscribe(sourceId);
    } catch (error) {
      throw EngineError.from(error, 'refused');
    }
  }

  async resetDownlink(subscriberId: string): Promise<void> {
    this.#downlinks.close(subscriberId);
  }

  /**
   * Feeds the participant's audio and main or auxiliary video to a media job through VideoRoom RTP forwarders
   * (H264 and opus only), from its current publisher and every later one; see JanusForward.
   */
  forwardRtp(participantId: string, targets: RtpForwardTargets): RtpForward {
    return this.#forwards.add(participantId, targets, this.#publishers.get(participantId));
  }

  /** Cross-room: the source's remote publisher in `roomId` (made once it publishes) carries it there. */
  async shareSource(sourceId: string, roomId: string): Promise<void> {
    if (this.#closed) throw new EngineError('closed', 'media engine closed');
    this.#members.share(sourceId, roomId);
    this.#cross.share(sourceId, roomId, this.#publishers.get(sourceId));
  }

  async unshareSource(sourceId: string, roomId: string): Promise<void> {
    if (!this.#members.unshare(sourceId, roomId)) return;
    for (const id of this.#members.membersOf(roomId)) this.#members.endSubscription(id, sourceId, 'unshared');
    await Promise.all(this.#members.membersOf(roomId).map((id) => this.unsubscribe(id, sourceId).catch((error: unknown) => {
      this.#cleanupFailed('unsubscribe', `${sourceId}'s cross-room subscription: ${error instanceof Error ? error.message : String(error)}`);
    })));
    await this.#cross.unshare(sourceId, roomId);
  }

  removeParticipant(participantId: string): Promise<void> {
    return this.#remove(participantId, 'left');
  }

  /** The room ended: its shares end and its members are removed, their handles closed 'room-ended'. */
  endRoom(roomId: string): Promise<void> {
    return this.#members.endRoom(roomId, (sourceId) => this.unshareSource(sourceId, roomId), (id) => this.#remove(id, 'room-ended'));
  }

  /** The leave's cascade (EngineMembership.leave) closes its handles: its uplink, its subscriptions, those to it. */
  async #remove(participantId: string, reason: 'left' | 'room-ended'): Promise<void> {
    this.#closePlayback(participantId);
    // A playback of a source that leaves ends with it, as on the embedded engine.
    for (const [viewerId, { sourceId }] of this.#playbacks) if (sourceId === participantId) void this.removeParticipant(viewerId);
    const shared = this.#cross.removeSource(participantId);
    this.#forwards.remove(participantId);
    const released = this.#members.leave(participantId, reason);
    this.#downlinks.close(participantId);
    this.#publishing.delete(participantId);
    // Subscriptions to it still adding their streams (no handle yet) end too.
    const unsubscribed = [...this.#downlinks.entries()].map(([id, downlink]) => this.#endStreams(downlink, participantId, `${id}'s subscription`));
    await Promise.all([...unsubscribed, this.#rooms.leave(this.#janus.client, participantId), shared, released]);
  }


  onEvent(listener: EngineListener): () => void {
    return this.#events.on(listener);
  }

  /**
   * Janus's forwarding counters are its own (not read here): the packet and byte counters are unknown. Peer
   * connections and handles are what this server holds in Janus (inspect() asks Janus for its own count); the
   * memory is the spawned Janus's resident set (unknown when attached to a Janus elsewhere).
   */
  stats(): EngineStats {
    return {
      uplinks: this.#publishers.size, downlinks: this.#downlinks.size, subscriptions: this.#downlinks.subscriptions,
      forwardedPackets: undefined, forwardedBytes: undefined, receivedPackets: undefined,
      peerConnections: this.#publishers.size + this.#downlinks.size,
      handles: this.#janus.client?.handles ?? 0,
      mediaServerMemoryBytes: this.#janus.residentBytes,
    };
  }

  /** Janus's own account (its admin API): its sessions, handles and PeerConnections up; undefined when not spawned here or not answering. */
  async inspect(): Promise<MediaServerReport | undefined> {
    return this.#janus.inspect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#members.endMedia('engine-closed');
    await this.#janus.close();
  }
}
