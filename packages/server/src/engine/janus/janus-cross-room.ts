import { UPLINK_SLOTS } from '@conclave/protocol/media';
import { JanusError, type JanusClient } from './janus-client.js';
import { VIDEOROOM, type JanusFeed, type JanusPublisher } from './janus-publisher.js';

/** What the cross-room shares need of the engine. */
export interface JanusCrossRoomDeps {
  /** The Janus session (waiting while it restarts). */
  ready(): Promise<JanusClient>;
  /** The VideoRoom room of an engine room (created on first use). */
  roomOfGroup(client: JanusClient, groupId: string): Promise<number>;
  /** A fresh feed id (remote publishers are feeds of their room). */
  nextFeedId(): number;
  /** How long a share waits for its source's feed to come up. */
  sourceWaitMs: number;
  /** A background release failed (it may leak). */
  cleanupFailed(detail: string): void;
}

/** The remote publisher that stands for the source in the other room. */
interface Remote {
  room: number;
  feedId: number;
  host: string;
  port: number;
  rtcpPort: number | undefined;
}

/** One source shared with one other engine room. */
interface Share {
  sourceId: string;
  groupId: string;
  remote: Remote | undefined;
  /** The publisher whose RTP goes to the remote publisher now, and the remotization's id. */
  remotized: { publisher: JanusPublisher; remoteId: string } | undefined;
  /** The source's current publisher (its receiving state and key frames stand for the remote feed's). */
  current: JanusPublisher | undefined;
  view: JanusFeed;
  /** Remotizations run one after another per share. */
  queue: Promise<unknown>;
  ended: boolean;
}

/** How often a new remote publisher is checked for media. */
const ACTIVE_POLL_MS = 100;
/** VideoRoom's error code for a room that does not exist. */
const NO_SUCH_ROOM = 426;
const key = (sourceId: string, groupId: string) => `${sourceId}\n${groupId}`;

let remoteIds = 0;

/**
 * Cross-room shares on Janus (docs/architecture.md "Cross-room links"): VideoRoom's remote publishers (room
 * cascading, inside one Janus). A source shared with another room gets a remote publisher there
 * (`add_remote_publisher`, its four uplink m-lines with their mids), fed by `publish_remotely` from the source's
 * publisher over loopback RTP — forwarded, never re-encoded; RTCP feedback (PLIs) goes back the same way. The
 * other room's subscriber handles subscribe to the remote feed like to any local one, so each subscriber keeps
 * its one downlink. A republish points a new `publish_remotely` at the same remote publisher (its feed id, and
 * so every subscription, stays); unsharing or the source leaving removes it.
 */
export class JanusCrossRoom {
  readonly #deps: JanusCrossRoomDeps;
  readonly #shares = new Map<string, Share>();

  constructor(deps: JanusCrossRoomDeps) {
    this.#deps = deps;
  }

  /** Records a share; when the source publishes, its remote publisher is made at once (subscriptions then find it ready). */
  share(sourceId: string, groupId: string, publisher: JanusPublisher | undefined): void {
    let share = this.#shares.get(key(sourceId, groupId));
    if (!share) {
      const made: Share = {
        sourceId, groupId, remote: undefined, remotized: undefined, current: publisher, queue: Promise.resolve(), ended: false,
        view: {
          get feedId() { return made.remote?.feedId ?? 0; },
          get mids() { return made.current?.mids ?? {}; },
          receiving: (slot) => made.current?.receiving(slot) ?? false,
          requestKeyframe: () => made.current?.requestKeyframe(),
        },
      };
      share = made;
      this.#shares.set(key(sourceId, groupId), share);
    }
    // Made ahead of time; a failure shows again in feedFor, which the subscription awaits and reports.
    if (publisher) this.#remotize(share, publisher).catch(() => undefined);
  }

  /** The feed that carries `sourceId` into `groupId`, remotized from `publisher` (waiting for it). */
  async feedFor(sourceId: string, groupId: string, publisher: JanusPublisher): Promise<JanusFeed> {
    const share = this.#shares.get(key(sourceId, groupId));
    if (!share) throw new Error(`${sourceId} is not shared with engine room ${groupId}`);
    await this.#remotize(share, publisher);
    return share.view;
  }

  /** The feed of an existing share (for moving subscriptions after a republish), if any. */
  view(sourceId: string, groupId: string): JanusFeed | undefined {
    return this.#shares.get(key(sourceId, groupId))?.view;
  }

  /** The source published again: its shares are fed from the new publisher. */
  published(sourceId: string, publisher: JanusPublisher): void {
    for (const share of this.#shares.values()) {
      if (share.sourceId === sourceId) this.#remotize(share, publisher).catch(() => undefined); // as in share(): feedFor reports
    }
  }

  /** Ends a share: the remote publisher leaves the other room (its subscribers' streams end). */
  unshare(sourceId: string, groupId: string): Promise<void> {
    const share = this.#shares.get(key(sourceId, groupId));
    if (!share) return Promise.resolve();
    this.#shares.delete(key(sourceId, groupId));
    share.ended = true;
    return this.#run(share, () => this.#release(share));
  }

  /** The source left: every share of it ends. */
  async removeSource(sourceId: string): Promise<void> {
    await Promise.all([...this.#shares.values()].filter((s) => s.sourceId === sourceId).map((s) => this.unshare(s.sourceId, s.groupId)));
  }

  /** Janus restarted: its rooms and remote publishers are gone; shares are made again on next use. */
  forgetAll(): void {
    for (const share of this.#shares.values()) {
      share.remote = undefined;
      share.remotized = undefined;
      share.current = undefined;
    }
  }

  #run<T>(share: Share, task: () => Promise<T>): Promise<T> {
    const next = share.queue.catch(() => undefined).then(task); // the previous task's caller got its failure
    share.queue = next;
    return next;
  }

  /** Feeds the share's remote publisher from `publisher` (making the remote publisher first). */
  #remotize(share: Share, publisher: JanusPublisher): Promise<void> {
    share.current = publisher;
    return this.#run(share, async () => {
      if (share.ended) throw new Error(`${share.sourceId} is no longer shared with engine room ${share.groupId}`);
      if (share.remotized?.publisher === publisher && !publisher.closed) return;
      await publisher.whenUp(this.#deps.sourceWaitMs);
      const client = await this.#deps.ready();
      share.remote ??= await this.#addRemote(client, share, publisher);
      const remoteId = `conclave-${++remoteIds}`;
      await this.#videoroom(client, {
        request: 'publish_remotely', room: publisher.room, publisher_id: publisher.feedId, remote_id: remoteId,
        host: share.remote.host, port: share.remote.port, ...(share.remote.rtcpPort ? { rtcp_port: share.remote.rtcpPort } : {}),
      });
      share.remotized = { publisher, remoteId };
      publisher.requestKeyframe();
      await this.#whenActive(client, share.remote);
    });
  }

  /**
   * Waits (bounded) until the remote publisher is active in its room: Janus refuses to subscribe to it ("No
   * such feed") until its first packets arrived, as it does for a local publisher before 'webrtcup'.
   */
  async #whenActive(client: JanusClient, remote: Remote): Promise<void> {
    const deadline = Date.now() + this.#deps.sourceWaitMs;
    for (;;) {
      const reply = await this.#videoroom(client, { request: 'listparticipants', room: remote.room });
      const list = Array.isArray(reply.participants) ? reply.participants as { id?: number; publisher?: boolean }[] : [];
      if (list.some((p) => p.id === remote.feedId && p.publisher)) return;
      if (Date.now() > deadline) throw new Error(`the remote publisher of room ${remote.room} carried no media within ${this.#deps.sourceWaitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, ACTIVE_POLL_MS));
    }
  }

  /** Adds the remote publisher that stands for the source in the other room: the four uplink m-lines, with their mids and codecs. */
  async #addRemote(client: JanusClient, share: Share, publisher: JanusPublisher): Promise<Remote> {
    const room = await this.#deps.roomOfGroup(client, share.groupId);
    const feedId = this.#deps.nextFeedId();
    const streams = UPLINK_SLOTS.map((slot, mindex) => ({
      type: slot === 'audio' ? 'audio' : 'video', mindex, mid: publisher.mids[slot] ?? String(mindex),
      codec: publisher.codecs[slot] ?? (slot === 'audio' ? 'opus' : 'h264'),
    }));
    const reply = await this.#videoroom(client, { request: 'add_remote_publisher', room, id: feedId, display: share.sourceId, iface: '127.0.0.1', streams });
    const port = Number(reply.port);
    if (!Number.isInteger(port) || port <= 0) throw new Error('Janus gave the remote publisher no port');
    const rtcpPort = Number(reply.rtcp_port);
    const ip = typeof reply.ip === 'string' && reply.ip !== '0.0.0.0' && reply.ip !== '' ? reply.ip : '127.0.0.1';
    return { room, feedId: Number(reply.id ?? feedId), host: ip, port, rtcpPort: Number.isInteger(rtcpPort) && rtcpPort > 0 ? rtcpPort : undefined };
  }

  /** Stops feeding the remote publisher and removes it (failures are told as clean-up failures). */
  async #release(share: Share): Promise<void> {
    const { remote, remotized } = share;
    share.remote = undefined;
    share.remotized = undefined;
    let client: JanusClient;
    try {
      client = await this.#deps.ready();
    } catch {
      return; // Janus is gone: so is everything to release.
    }
    if (remotized && !remotized.publisher.closed) {
      await this.#videoroom(client, { request: 'unpublish_remotely', room: remotized.publisher.room, publisher_id: remotized.publisher.feedId, remote_id: remotized.remoteId })
        .catch((error: unknown) => this.#deps.cleanupFailed(`unpublish_remotely of ${share.sourceId}: ${String(error)}`));
    }
    if (remote) {
      await this.#videoroom(client, { request: 'remove_remote_publisher', room: remote.room, id: remote.feedId })
        .catch((error: unknown) => {
          // The other room was destroyed (its last member left): the remote publisher went with it.
          if (!(error instanceof JanusError && error.code === NO_SUCH_ROOM)) this.#deps.cleanupFailed(`remove_remote_publisher of ${share.sourceId}: ${String(error)}`);
        });
    }
  }

  /** One synchronous VideoRoom request on a short-lived handle. */
  async #videoroom(client: JanusClient, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const handleId = await client.attach(VIDEOROOM, () => undefined);
    try {
      return (await client.message(handleId, body)).data;
    } finally {
      client.detach(handleId);
    }
  }
}
