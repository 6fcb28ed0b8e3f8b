import type { Logger } from 'pino';
import { DataLinks } from '../data-links.js';
import type { PeerNetworkOptions } from '../embedded/peer-factory.js';
import type { DownlinkMids, DownlinkNegotiator, EngineStats, ForwardWants, MediaEngine, RtpForward, RtpForwardTargets } from '../media-engine.js';
import { JanusClient } from './janus-client.js';
import { JanusProcess, type JanusEndpoint } from './janus-process.js';
import { JanusPublisher } from './janus-publisher.js';
import { JanusRooms } from './janus-rooms.js';
import { JanusDownlink } from './janus-downlink.js';
import { JanusForwards } from './janus-forwarder.js';

/** How to reach Janus: spawn one (default) or attach to a running one. */
export interface JanusEngineOptions {
  /** ws:// URL of a running Janus's WebSocket API (CONCLAVE_JANUS_URL); unset: spawn one. */
  url?: string;
  /** Its API secret, if it has one (CONCLAVE_JANUS_SECRET). */
  secret?: string;
  /** Where the data links (werift) and a spawned Janus gather ICE candidates. */
  iceAddress?: string;
  /** Public address advertised in candidates (1:1 NAT): Janus's nat_1_1_mapping. */
  announcedAddress?: string;
  /** UDP ports for a spawned Janus's ICE/RTP. */
  portRange?: [number, number];
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

/** How long an engine call waits for Janus to be (back) up, e.g. during a restart. */
const READY_TIMEOUT_MS = 20_000;
/** How long a subscription waits for its source to publish. */
const SOURCE_TIMEOUT_MS = 10_000;
/** How long a republished feed may still come up after SOURCE_TIMEOUT_MS before its subscribers are left where they are. */
const LATE_UP_MS = 50_000;
/** Pause between attempts to reach an attached Janus that went away. */
const RECONNECT_MS = 1000;

/**
 * The production media engine: the Janus WebRTC Server's VideoRoom plugin (multistream) does the
 * forwarding; this class maps the engine interface onto it. A Conclave room is a private VideoRoom
 * room, a publisher is a publisher handle (feed ids are ours), a subscriber's downlink is one
 * multistream subscriber handle.
 * Custom messages keep the engine-independent data link (a small werift connection), because the
 * server reads, limits and stamps each message, which Janus's data channels (publisher → its
 * subscribers) cannot do. When Janus goes away every handle is gone: the engine forgets them, waits
 * for Janus to be back (restarted by the supervisor, or reachable again) and the clients, whose peer
 * connections fail, negotiate again through the normal reconnection.
 */
export class JanusEngine implements MediaEngine {
  readonly #options: JanusEngineOptions;
  readonly #process: JanusProcess | undefined;
  #client: JanusClient | undefined;
  #waiters: ((client: JanusClient) => void)[] = [];
  readonly #rooms = new JanusRooms();
  readonly #publishers = new Map<string, JanusPublisher>();
  readonly #publishing = new Map<string, Promise<unknown>>();
  readonly #publisherWaiters = new Map<string, (() => void)[]>();
  /** Each subscriber's one downlink. */
  readonly #downlinks = new Map<string, JanusDownlink>();
  readonly #dataLinks: DataLinks;
  /** Feeds to media jobs (VideoRoom RTP forwarders), re-issued on each new publisher. */
  readonly #forwards = new JanusForwards();
  #closed = false;

  private constructor(options: JanusEngineOptions) {
    this.#options = options;
    this.#process = options.url ? undefined : new JanusProcess({ iceAddress: options.iceAddress, announcedAddress: options.announcedAddress, portRange: options.portRange, logger: options.logger, env: options.env });
    this.#dataLinks = new DataLinks({ iceAddress: options.iceAddress, icePortRange: options.portRange, announcedAddress: options.announcedAddress } satisfies PeerNetworkOptions);
  }

  /** Spawns (or reaches) Janus and opens a session; throws JanusMissingError when Janus is not installed. */
  static async start(options: JanusEngineOptions): Promise<JanusEngine> {
    const engine = new JanusEngine(options);
    try {
      const endpoint = engine.#process ? await engine.#process.start() : { url: options.url!, secret: options.secret };
      engine.#process?.onRestart((restarted) => {
        engine.#connect(restarted).catch((error: unknown) => options.logger.error({ err: error }, 'janus session after restart failed'));
      });
      await engine.#connect(endpoint);
    } catch (error) {
      await engine.close();
      throw error;
    }
    return engine;
  }

  /** The spawned Janus's process id (none when attached to a running Janus). */
  get janusPid(): number | undefined {
    return this.#process?.pid;
  }

  async #connect(endpoint: JanusEndpoint): Promise<void> {
    const client = await JanusClient.connect(endpoint.url, endpoint.secret);
    if (this.#closed) {
      client.close();
      return;
    }
    client.onClose(() => this.#lost(client, endpoint));
    this.#client = client;
    for (const resolve of this.#waiters.splice(0)) resolve(client);
  }

  /** Janus went away: every handle and room with it. */
  #lost(client: JanusClient, endpoint: JanusEndpoint): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#options.logger.error({ publishers: this.#publishers.size, downlinks: this.#downlinks.size }, 'lost the Janus session; media links must be negotiated again');
    this.#publishers.clear();
    this.#forwards.forgetAll();
    this.#downlinks.clear();
    this.#rooms.clear();
    if (this.#process || this.#closed) return; // the supervisor restarts it and calls #connect
    const retry = () => {
      if (this.#closed) return;
      this.#connect(endpoint).catch(() => setTimeout(retry, RECONNECT_MS).unref());
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  /** The current session, waiting (bounded) while Janus restarts. */
  #ready(): Promise<JanusClient> {
    if (this.#client && !this.#client.closed) return Promise.resolve(this.#client);
    if (this.#closed) return Promise.reject(new Error('media engine closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Janus is not available')), READY_TIMEOUT_MS);
      this.#waiters.push((client) => {
        clearTimeout(timer);
        resolve(client);
      });
    });
  }

  /** Puts a participant in a group (a Conclave room): only members of one group subscribe to each other. */
  placeParticipant(participantId: string, groupId: string): void {
    this.#rooms.place(participantId, groupId);
  }

  async publish(participantId: string, offerSdp: string): Promise<string> {
    const previous = this.#publishing.get(participantId) ?? Promise.resolve();
    const run = async () => {
      const client = await this.#ready();
      const room = await this.#rooms.roomOf(client, participantId);
      const { publisher, answer } = await JanusPublisher.join(client, room, this.#rooms.nextFeedId(), offerSdp);
      const old = this.#publishers.get(participantId);
      this.#publishers.set(participantId, publisher);
      this.#forwards.setPublisher(participantId, publisher);
      publisher.onMediaChange(() => void this.#moveSubscribers(participantId, publisher));
      void this.#republished(participantId, publisher, old);
      for (const resolve of this.#publisherWaiters.get(participantId)?.splice(0) ?? []) resolve();
      return answer;
    };
    const result = previous.then(run, run);
    this.#publishing.set(participantId, result.catch(() => undefined));
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
    await Promise.all([...this.#downlinks.entries()].map(([subscriberId, downlink]) => downlink.refresh(participantId, publisher).catch((error: unknown) => {
      this.#options.logger.error({ err: error, participantId, subscriberId, feed: publisher.feedId }, 'janus: moving a subscription to the new feed failed');
    })));
  }

  unpublish(participantId: string): void {
    this.#publishers.get(participantId)?.close();
    this.#publishers.delete(participantId);
    this.#forwards.setPublisher(participantId, undefined);
  }

  /** The source's publisher, waiting (bounded) for a publish in progress or about to come. */
  async #publisherOf(sourceId: string): Promise<JanusPublisher> {
    const existing = this.#publishers.get(sourceId);
    if (existing) {
      await existing.whenUp(SOURCE_TIMEOUT_MS);
      return existing;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the source does not publish')), SOURCE_TIMEOUT_MS);
      const list = this.#publisherWaiters.get(sourceId) ?? [];
      list.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.#publisherWaiters.set(sourceId, list);
    });
    const publisher = this.#publishers.get(sourceId);
    if (!publisher) throw new Error('the source does not publish');
    await publisher.whenUp(SOURCE_TIMEOUT_MS);
    return publisher;
  }

  async subscribe(subscriberId: string, sourceId: string, wants: ForwardWants, negotiate: DownlinkNegotiator): Promise<DownlinkMids> {
    const client = await this.#ready();
    const publisher = await this.#publisherOf(sourceId);
    const room = await this.#rooms.roomOf(client, subscriberId);
    // No await from here to the map: two subscriptions arriving together (a join's audio of every user)
    // once both made a downlink, two Janus handles offered to the client's one peer connection, Chromium
    // took the second offer as an ICE restart of a link whose DTLS was up, and that handle never got a
    // handshake ("DTLS taking too much time", no media for that page).
    let downlink = this.#downlinks.get(subscriberId);
    if (downlink?.failed) {
      downlink.close();
      downlink = undefined;
    }
    if (!downlink) {
      downlink = new JanusDownlink(client, room, this.#options.logger);
      this.#downlinks.set(subscriberId, downlink);
    }
    return downlink.subscribe(sourceId, publisher, wants, negotiate);
  }

  updateSubscription(subscriberId: string, sourceId: string, wants: ForwardWants): void {
    this.#downlinks.get(subscriberId)?.update(sourceId, wants).catch((error: unknown) => {
      this.#options.logger.warn({ err: error }, 'janus subscription change failed');
    });
  }

  unsubscribe(subscriberId: string, sourceId: string): void {
    this.#downlinks.get(subscriberId)?.unsubscribe(sourceId).catch(() => undefined);
  }

  resetDownlink(subscriberId: string): void {
    this.#downlinks.get(subscriberId)?.close();
    this.#downlinks.delete(subscriberId);
  }

  openDataLink(participantId: string, offerSdp: string, onData: (data: Uint8Array) => void): Promise<string> {
    return this.#dataLinks.open(participantId, offerSdp, onData);
  }

  sendData(participantId: string, data: Uint8Array): boolean {
    return this.#dataLinks.send(participantId, data);
  }

  /**
   * Feeds the participant's audio and main or auxiliary video to a media job through VideoRoom RTP forwarders
   * (H264 and opus only), from its current publisher and every later one; see JanusForward.
   */
  forwardRtp(participantId: string, targets: RtpForwardTargets): RtpForward {
    return this.#forwards.add(participantId, targets, this.#publishers.get(participantId));
  }

  removeParticipant(participantId: string): void {
    this.#forwards.remove(participantId);
    this.unpublish(participantId);
    this.#dataLinks.close(participantId);
    this.resetDownlink(participantId);
    for (const downlink of this.#downlinks.values()) downlink.unsubscribe(participantId).catch(() => undefined);
    this.#publisherWaiters.delete(participantId);
    this.#publishing.delete(participantId);
    const client = this.#client;
    if (client) this.#rooms.leave(client, participantId);
  }

  stats(): EngineStats {
    const downlinks = [...this.#downlinks.values()];
    return { uplinks: this.#publishers.size, downlinks: downlinks.length, subscriptions: downlinks.reduce((sum, d) => sum + d.sources, 0), forwardedPackets: 0, forwardedBytes: 0 };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#dataLinks.closeAll();
    this.#client?.close();
    this.#client = undefined;
    await this.#process?.stop();
  }
}
