import { CROSS_ROOM_CODE, CROSS_ROOM_MAX_LINKS, FLAG, ROLE_CODE, type CrossRoomUpdateItem, type SubscriptionWants } from '@conclave/protocol';
import type { Logger } from 'pino';
import type { MediaEngine } from '../engine/media-engine.js';
import type { Participant } from './participant.js';
import type { Room, RoomRegistry } from './room.js';
import type { VisitorMutes } from './cross-room-visitors.js';
import { authoriseVisit, visitRefusal, type VisitDeps } from './cross-room-admission.js';
import type { RoomId, RoomRef } from '../ids/room-ref.js';

/** A refused cross-room request: its code (CROSS_ROOM_CODE, the original's numbers) becomes the reply. */
export class CrossRoomError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = 'CrossRoomError';
  }
}

/** One room's side of a connection: the room and its anchor. */
interface Side {
  room: Room;
  anchor: Participant;
}

/** A connection between an anchor of each of two rooms (`a` asked for it). */
interface Link {
  a: Side;
  b: Side;
}

/** What connecting rooms works with. */
export interface CrossRoomDeps extends VisitDeps {
  rooms: RoomRegistry;
  engine: Pick<MediaEngine, 'shareSource' | 'unshareSource' | 'updateSubscription' | 'uplinkMedia'>;
  logger: Logger;
  /** True on a cluster node: a room that is not here may be on another node. */
  clustered: boolean;
  /** How long a start waits for a negotiated uplink of the caller to carry media (default MEDIA_WAIT_MS). */
  mediaWaitMs?: number;
}

/** The other room of a request, as the session resolved it. */
export interface OtherRoom extends RoomId {
  key: string;
  ref: RoomRef;
  /** How the app names it ("8888" or "s:lobby"), for messages. */
  label: string;
}

const PUBLISHED = FLAG.AUDIO | FLAG.VIDEO | FLAG.SMALL | FLAG.AUX;
const fail = (code: number, message: string) => new CrossRoomError(code, message);
/** How long a start waits for the caller's negotiated uplink to carry media, and how often it looks. */
const MEDIA_WAIT_MS = 5000;
const MEDIA_POLL_MS = 50;
/** The answer to every refusal about the other room: the same whatever the reason, so it tells nothing of that room. */
export const REFUSED = 'cross-room connection refused: that room or user cannot be connected with by this anchor';

/**
 * Cross-room calls (docs/behaviour.md §7.6): an anchor that publishes connects with an anchor of another room of
 * the same app; each room then sees the other anchor as a remote user (a visitor, RoomVisitors) and subscribes
 * to it through the engine's cross-room share, while neither anchor joins the other room. A connection ends
 * when either anchor stops it, leaves (or is kicked, or its session expires) or stops publishing; the other
 * room then sees the user leave.
 */
export class CrossRooms {
  readonly #deps: CrossRoomDeps;
  readonly #links = new Set<Link>();
  /** What each member last asked for of each visitor (`member id \n visitor id`), so a mute applies to running subscriptions. */
  readonly #asked = new Map<string, SubscriptionWants>();

  constructor(deps: CrossRoomDeps) {
    this.#deps = deps;
    deps.rooms.onChange(({ type, room, participant }) => {
      if (type === 'joining') {
        // A member with a visitor's userId joins its room: the visitor's connection ends (one user per userId in a room).
        const visitor = room.visitors.get(participant.userId)?.participant;
        if (visitor) this.#endAll(visitor, `met a member of room ${room.key} with its userId`);
      } else if (type === 'left' || (participant.flag & PUBLISHED) === 0) {
        this.#endAll(participant, type === 'left' ? 'left its room' : 'stopped publishing');
      } else {
        this.#flagsChanged(participant);
      }
    });
  }

  /** Connections now. */
  get size(): number {
    return this.#links.size;
  }

  /**
   * Connects `caller` (in `room`) with `targetUserId` in `target`. Refusals about the caller itself, with the
   * original's codes: an audience caller (AS_AUDIENCE), a caller that publishes nothing or whose uplink carries no
   * media (FAILED), no userId (NOT_SUPPORT: the original's room-level connection), the caller's own room
   * (INVALID_PARAM), its room's connections at their maximum (REACH_MAX_NUM), a second connection between the two
   * rooms (ALREADY_CONNECTED, once the other room is known to be visible to it). Every refusal about the other room
   * — the caller's rights there (privateMapKey, bans), whether the room is here and what is in it (the user, its
   * role, a place for a visitor, a userId in both rooms), the anchor's rights in the caller's room — is the one
   * REFUSED answer, which tells nothing about that room; the reason is logged.
   */
  async start(room: Room, caller: Participant, target: OtherRoom, targetUserId: string | undefined, privateMapKey?: string): Promise<void> {
    const { engine, rooms } = this.#deps;
    if (caller.role === ROLE_CODE.audience) throw fail(CROSS_ROOM_CODE.AS_AUDIENCE, 'the current role is audience: switch to anchor and publish before connecting rooms');
    if ((caller.flag & PUBLISHED) === 0) throw fail(CROSS_ROOM_CODE.FAILED, `cross-room connection failed: ${caller.userId} does not publish (publish before connecting rooms)`);
    if (!engine.shareSource || !engine.unshareSource || !engine.uplinkMedia) throw fail(CROSS_ROOM_CODE.NOT_SUPPORT, 'cross-room connections are not supported by this media engine');
    if (targetUserId === undefined) throw fail(CROSS_ROOM_CODE.NOT_SUPPORT, 'a room-level cross-room connection (without userId) is not supported: give the userId of the anchor to connect with');
    if (target.key === room.key) throw fail(CROSS_ROOM_CODE.INVALID_PARAM, 'invalid parameter: cannot connect a room with itself');
    if (this.#of(room).length >= CROSS_ROOM_MAX_LINKS) throw fail(CROSS_ROOM_CODE.REACH_MAX_NUM, `a room may be connected with at most ${CROSS_ROOM_MAX_LINKS} rooms`);
    if (!await this.#carriesMedia(caller)) {
      throw fail(CROSS_ROOM_CODE.FAILED, `cross-room connection failed: the uplink of ${caller.userId} carries no media (publish before connecting rooms)`);
    }
    const visit = await authoriseVisit(this.#deps, caller, { sdkAppId: room.sdkAppId, ref: target.ref, roomId: target.roomId, isString: target.isString }, privateMapKey);
    if (!visit.ok) throw this.#refused(room, caller, target, visit.why);
    const other = rooms.find(target.key);
    if (!other || other.size === 0) throw this.#refused(room, caller, target, this.#deps.clustered ? 'no such room on this node' : 'no such room');
    const anchor = other.get(targetUserId);
    if (!anchor || anchor.role === ROLE_CODE.audience) throw this.#refused(room, caller, target, `${targetUserId} is not an anchor there`);
    if (this.#between(room, other)) throw fail(CROSS_ROOM_CODE.ALREADY_CONNECTED, `room ${target.label} is already connected with this room (one cross-room connection per pair of rooms)`);
    const refusal = this.#of(other).length >= CROSS_ROOM_MAX_LINKS ? 'its connections are at their maximum'
      : room.source(anchor.userId) || other.source(caller.userId) ? 'a userId is in both rooms'
        : visitRefusal(this.#deps, caller, other) ?? visitRefusal(this.#deps, anchor, room);
    if (refusal) throw this.#refused(room, caller, target, refusal);
    try {
      await engine.shareSource(caller.id, other.key);
      await engine.shareSource(anchor.id, room.key);
    } catch (error) {
      this.#unshare(caller, other);
      this.#unshare(anchor, room);
      throw fail(CROSS_ROOM_CODE.FAILED, `cross-room connection failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Either anchor may have left or stopped publishing while the engine linked them.
    if (room.get(caller.userId) !== caller || other.get(anchor.userId) !== anchor || (caller.flag & PUBLISHED) === 0 || this.#between(room, other)) {
      this.#unshare(caller, other);
      this.#unshare(anchor, room);
      throw fail(CROSS_ROOM_CODE.FAILED, 'cross-room connection failed: an anchor left or stopped publishing meanwhile');
    }
    const link: Link = { a: { room, anchor: caller }, b: { room: other, anchor } };
    this.#links.add(link);
    for (const [side, seenBy, privileges] of [[link.a, link.b.room, visit.privileges], [link.b, link.a.room, anchor.privileges]] as const) {
      seenBy.visitors.add(side.anchor, side.room.key, privileges);
      const info = seenBy.visitors.info(side.anchor.userId)!;
      // As for a member: the user enters, then what it publishes is announced (the SDK reads flags from publish-list).
      seenBy.broadcast(undefined, 'peer-join', info);
      seenBy.broadcast(undefined, 'publish-list', { userList: [info] });
    }
    this.#deps.logger.info({ room: room.key, userId: caller.userId, otherRoom: other.key, otherUserId: anchor.userId }, 'cross-room connected');
  }

  /** The one answer to every refusal about the other room (docs/behaviour.md §7.6); `why` goes to the log only. */
  #refused(room: Room, caller: Participant, target: OtherRoom, why: string): CrossRoomError {
    this.#deps.logger.info({ room: room.key, userId: caller.userId, otherRoom: target.key, why }, 'cross-room connection refused');
    return fail(CROSS_ROOM_CODE.FAILED, REFUSED);
  }

  /**
   * True when the engine says the caller's uplink carries media (not only its flags), waiting up to mediaWaitMs for a
   * negotiated uplink's first packets (a client may connect rooms right after publishing).
   */
  async #carriesMedia(caller: Participant): Promise<boolean> {
    const deadline = Date.now() + (this.#deps.mediaWaitMs ?? MEDIA_WAIT_MS);
    for (;;) {
      const media = this.#deps.engine.uplinkMedia?.(caller.id) ?? 'none';
      if (media !== 'idle') return media === 'flowing';
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, MEDIA_POLL_MS));
    }
  }

  /**
   * Mutes, in `caller`'s room, what anchors connected from other rooms send there (an update item names the
   * other room and, optionally, one of its anchors). Refusals: no connection with that room (NOT_CONNECTED),
   * a user not connected from it (USER_NOT_CONNECTED). Every item is checked before any applies.
   */
  update(room: Room, caller: Participant, items: { other: OtherRoom; item: CrossRoomUpdateItem }[]): void {
    const changes = items.map(({ other, item }) => {
      const link = this.#of(room).find((l) => this.#otherSide(l, room).room.key === other.key && (l.a.anchor === caller || l.b.anchor === caller));
      if (!link) throw fail(CROSS_ROOM_CODE.NOT_CONNECTED, `this room has no cross-room connection of ${caller.userId} with room ${other.label}`);
      const visitors = room.visitors.from(other.key).filter((v) => item.userId === undefined || v.participant.userId === item.userId);
      if (visitors.length === 0) throw fail(CROSS_ROOM_CODE.USER_NOT_CONNECTED, `user ${item.userId ?? ''} of room ${other.label} is not connected with this room`);
      return { visitors, item };
    });
    for (const { visitors, item } of changes) {
      for (const visitor of visitors) {
        const mutes: VisitorMutes = visitor.mutes;
        mutes.audio = item.muteAudio ?? mutes.audio;
        mutes.video = item.muteVideo ?? mutes.video;
        mutes.sub = item.muteSubStream ?? mutes.sub;
        room.broadcast(undefined, 'publish-list', { userList: [room.visitors.info(visitor.participant.userId)!] });
        this.#reapply(room, visitor.participant);
      }
    }
  }

  /**
   * Ends `caller`'s connections with room `other`, or all of them when it is undefined. Refusal: no
   * connection with that room (NOT_CONNECTED); stopping nothing at all resolves.
   */
  stop(room: Room, caller: Participant, other: OtherRoom | undefined): void {
    const links = this.#of(room).filter((l) => (l.a.anchor === caller || l.b.anchor === caller) && (!other || this.#otherSide(l, room).room.key === other.key));
    if (other && links.length === 0) throw fail(CROSS_ROOM_CODE.NOT_CONNECTED, `${caller.userId} has no cross-room connection with room ${other.label}`);
    for (const link of links) this.#end(link, `stopped by ${caller.userId}`);
  }

  /** The participant became an audience (switch-role): its connections end, whether it published or not. */
  demoted(participant: Participant): void {
    this.#endAll(participant, 'switched to audience');
  }

  /** The participant's links end: it left its room or stopped publishing. */
  #endAll(participant: Participant, why: string): void {
    for (const link of [...this.#links]) {
      if (link.a.anchor === participant || link.b.anchor === participant) this.#end(link, `${participant.userId} ${why}`);
    }
  }

  /** What `subscriber`, a member of `room`, may receive of `source`: a visitor's wants less what was muted in this room. */
  allowed(room: Room, source: Participant, subscriber: Participant, wants: SubscriptionWants): SubscriptionWants {
    if (room.visitors.get(source.userId)?.participant !== source) return wants;
    this.#asked.set(`${subscriber.id}\n${source.id}`, wants);
    return room.visitors.allowed(source.userId, wants);
  }

  /** A mute changed: the members' running subscriptions to the visitor carry what they asked for, less the mutes. */
  #reapply(room: Room, visitor: Participant): void {
    for (const member of room.participants()) {
      const asked = this.#asked.get(`${member.id}\n${visitor.id}`);
      if (!asked || !member.subscriptions.has(visitor.userId)) continue;
      this.#deps.engine.updateSubscription(member.id, visitor.id, room.visitors.allowed(visitor.userId, asked)).catch((error: unknown) => {
        this.#deps.logger.warn({ err: error, room: room.key, userId: member.userId, visitor: visitor.userId }, 'cross-room: applying a mute to a subscription failed');
      });
    }
  }

  #end(link: Link, why: string): void {
    if (!this.#links.delete(link)) return;
    for (const [side, seenBy] of [[link.a, link.b.room], [link.b, link.a.room]] as const) {
      const { anchor } = side;
      if (!seenBy.visitors.remove(anchor)) continue;
      for (const member of seenBy.participants()) member.subscriptions.delete(anchor.userId);
      seenBy.broadcast(undefined, 'peer-leave', { userId: anchor.userId, tinyId: anchor.tinyId, reason: 'normal' });
      for (const key of [...this.#asked.keys()]) if (key.endsWith(`\n${anchor.id}`)) this.#asked.delete(key);
      this.#unshare(anchor, seenBy);
    }
    this.#deps.logger.info({ room: link.a.room.key, otherRoom: link.b.room.key, why }, 'cross-room disconnected');
  }

  /** The other room sees the anchor's new flags (less what it muted). */
  #flagsChanged(participant: Participant): void {
    for (const link of this.#links) {
      const seenBy = link.a.anchor === participant ? link.b.room : link.b.anchor === participant ? link.a.room : undefined;
      const info = seenBy?.visitors.info(participant.userId);
      if (seenBy && info) seenBy.broadcast(undefined, 'publish-list', { userList: [info] });
    }
  }

  #unshare(anchor: Participant, room: Room): void {
    this.#deps.engine.unshareSource?.(anchor.id, room.key).catch((error: unknown) => {
      this.#deps.logger.warn({ err: error, room: room.key, userId: anchor.userId }, 'cross-room: ending an engine share failed');
    });
  }

  #of(room: Room): Link[] {
    return [...this.#links].filter((l) => l.a.room === room || l.b.room === room);
  }

  #between(one: Room, other: Room): Link | undefined {
    return this.#of(one).find((l) => l.a.room === other || l.b.room === other);
  }

  #otherSide(link: Link, room: Room): Side {
    return link.a.room === room ? link.b : link.a;
  }
}
