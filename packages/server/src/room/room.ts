import { LIMITS, ROLE_CODE, type LeaveReason, type PeerInfo, type PushMap, type PushName, type RoleCode } from '@conclave/protocol';
import type { Participant } from './participant.js';
import { mutedMedia, RoomEvents, sendingMedia, type MediaKind, type RoomEvent } from './room-events.js';
import { roomRef, type RoomRef } from '../ids/room-ref.js';
import { RoomVisitors } from './cross-room-visitors.js';
import { AudienceCountNotice } from './audience-count.js';

/**
 * Told, synchronously and with the objects, when a participant joins, its publish flags change or it leaves: the
 * domain's own hook (cross-room links follow their anchors). RoomEvents is the other side: what happened, as
 * data, for whoever reports it (callbacks, call records).
 */
export type RoomListener = (event: { type: 'joining' | 'flags' | 'left'; room: Room; participant: Participant }) => void;

/** A room event without its place (the room adds it). */
type RoomEventBody = RoomEvent extends infer E ? E extends RoomEvent ? Omit<E, 'sdkAppId' | 'roomKey' | 'ref' | 'at'> : never : never;

/**
 * Whether the other users see `participant` (its enter and leave, its flags, the join's user list). The audience
 * of a live room is hidden, as in the original's rooms (docs/behaviour.md §3.5); only live joins are audiences.
 */
export function isVisible(participant: Participant): boolean {
  return participant.role !== ROLE_CODE.audience;
}

/**
 * One room of one app. Every push about a participant goes only to the other participants
 * of this room, which is what keeps rooms (and apps) from seeing each other; pushes about an audience member
 * go to nobody (it is hidden), while it receives everything the room's anchors send.
 */
export class Room {
  /** `${sdkAppId}:${i|s}:${roomId}` */
  readonly key: string;
  /** The app the room belongs to. */
  readonly sdkAppId: number;
  /** The room's name within its app ("1234" or "s:lobby"; see RoomRef). */
  readonly ref: RoomRef;
  /** When the room was created (ms since the epoch). */
  readonly createdAt = Date.now();
  readonly #participants = new Map<string, Participant>();
  /** The publish flag each participant's media events were last told for. */
  readonly #toldFlags = new Map<Participant, number>();
  readonly #events: RoomEvents;
  /** Anchors of other rooms its members see through cross-room calls (docs/behaviour.md §7.6). */
  readonly visitors = new RoomVisitors();
  readonly #listener: RoomListener | undefined;
  readonly #audienceNotice = new AudienceCountNotice(LIMITS.AUDIENCE_COUNT_INTERVAL_MS, () => this.roleCounts().audience,
    (count) => this.broadcast(undefined, 'audience-count', { count }));

  constructor(key: string, events = new RoomEvents(), listener?: RoomListener) {
    this.key = key;
    this.#listener = listener;
    const [app, kind, ...rest] = key.split(':');
    this.sdkAppId = Number(app);
    this.ref = roomRef(rest.join(':'), kind === 's');
    this.#events = events;
  }

  /** Tells the room's event listeners (callbacks, call records) what happened here. */
  tell(body: RoomEventBody): void {
    this.#events.emit({ ...body, sdkAppId: this.sdkAppId, roomKey: this.key, ref: this.ref, at: Date.now() } as RoomEvent);
  }

  /** Participants by role: anchors (everyone in the rtc scene) and audience. */
  roleCounts(): { anchors: number; audience: number } {
    let audience = 0;
    for (const p of this.#participants.values()) if (p.role === ROLE_CODE.audience) audience++;
    return { anchors: this.#participants.size - audience, audience };
  }

  get size(): number {
    return this.#participants.size;
  }

  get(userId: string): Participant | undefined {
    return this.#participants.get(userId);
  }

  participants(): IterableIterator<Participant> {
    return this.#participants.values();
  }

  /** Adds a participant and tells the others. */
  add(participant: Participant): void {
    // First, so that a visitor of the same userId leaves before the member enters.
    this.#listener?.({ type: 'joining', room: this, participant });
    this.#participants.set(participant.userId, participant);
    if (isVisible(participant)) this.broadcast(participant, 'peer-join', participant.info());
    else this.#audienceNotice.changed();
    this.tell({ type: 'user-entered', userId: participant.userId, role: participant.role, ...(participant.client ? { client: participant.client } : {}) });
    this.#tellMedia(participant);
  }

  /** Removes a participant and tells the others; false if it was not (or no longer) here. */
  remove(participant: Participant, reason: LeaveReason): boolean {
    if (this.#participants.get(participant.userId) !== participant) return false;
    this.#participants.delete(participant.userId);
    this.#toldFlags.delete(participant);
    if (isVisible(participant)) this.broadcast(participant, 'peer-leave', { userId: participant.userId, tinyId: participant.tinyId, reason });
    else this.#audienceNotice.changed();
    this.#listener?.({ type: 'left', room: this, participant });
    // Leaving stops the user's media without media-stopped events (as the original's callbacks: exit implies them).
    this.tell({ type: 'user-left', userId: participant.userId, role: participant.role, reason });
    return true;
  }

  /** Tells the others that `participant`'s publish flags changed. */
  announceFlags(participant: Participant): void {
    if (isVisible(participant)) this.broadcast(participant, 'publish-list', { userList: [participant.info()] });
    this.#listener?.({ type: 'flags', room: this, participant });
    this.#tellMedia(participant);
  }

  /** Who the members see: the other visible members and the visitors from other rooms (the join's user list). */
  peersOf(participant: Participant | undefined): PeerInfo[] {
    return [...[...this.#participants.values()].filter((p) => p !== participant && isVisible(p)).map((p) => p.info()), ...this.visitors.infos()];
  }

  /** A source a member may subscribe to: a member, or a visitor from another room. */
  source(userId: string): Participant | undefined {
    return this.#participants.get(userId) ?? this.visitors.get(userId)?.participant;
  }

  /**
   * Sets a participant's role, telling the listeners when it changed. The others see an anchor that becomes an
   * audience leave ('role change') and one that becomes an anchor enter (docs/behaviour.md §3.5).
   */
  changeRole(participant: Participant, role: RoleCode): void {
    if (participant.role === role) return;
    const wasVisible = isVisible(participant);
    participant.role = role;
    if (wasVisible && !isVisible(participant)) {
      this.broadcast(participant, 'peer-leave', { userId: participant.userId, tinyId: participant.tinyId, reason: 'role change' });
    } else if (!wasVisible && isVisible(participant)) {
      this.broadcast(participant, 'peer-join', participant.info());
    }
    this.#audienceNotice.changed();
    this.tell({ type: 'role-changed', userId: participant.userId, role });
  }

  /** The room is dropped: nothing more is pushed. */
  dispose(): void {
    this.#audienceNotice.dispose();
  }

  /** media-started / media-stopped for what changed since the participant's flags were last told. */
  #tellMedia(participant: Participant): void {
    const told = this.#toldFlags.get(participant) ?? 0;
    const before = sendingMedia(told);
    const now = sendingMedia(participant.flag);
    this.#toldFlags.set(participant, participant.flag);
    const mute = (muted: Set<MediaKind>, media: MediaKind) => (muted.has(media) ? { mute: true as const } : {});
    for (const media of now) if (!before.has(media)) this.tell({ type: 'media-started', userId: participant.userId, media, ...mute(mutedMedia(told), media) });
    for (const media of before) if (!now.has(media)) this.tell({ type: 'media-stopped', userId: participant.userId, media, ...mute(mutedMedia(participant.flag), media) });
  }

  /** Sends a push to everyone in the room except `from`. */
  broadcast<P extends PushName>(from: Participant | undefined, push: P, data: PushMap[P]): void {
    for (const other of this.#participants.values()) {
      if (other !== from) other.push(push, data);
    }
  }
}

/** All rooms of all apps, created on first join and dropped when empty. */
export class RoomRegistry {
  readonly #rooms = new Map<string, Room>();
  /** What happens in every room (created, dismissed, users entering and leaving, media starting and stopping). */
  readonly events = new RoomEvents();
  readonly #listeners = new Set<RoomListener>();
  readonly #notify: RoomListener = (event) => {
    for (const listener of this.#listeners) listener(event);
  };

  /** Listens to every room's joins, flag changes and departures; returns the removal. */
  onChange(listener: RoomListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  /** The room each user of each app joined last (`${sdkAppId}:${userId}` → ref), for filing uploaded logs. Bounded. */
  readonly #lastRoom = new Map<string, RoomRef>();
  static readonly MAX_REMEMBERED_USERS = 100_000;

  /** The key of a room: app and room id are both part of it, so equal room ids of two apps never meet. */
  static key(sdkAppId: number, roomId: string, isString: boolean): string {
    return `${sdkAppId}:${isString ? 's' : 'i'}:${isString ? roomId : String(Number(roomId))}`;
  }

  getOrCreate(key: string): Room {
    let room = this.#rooms.get(key);
    if (!room) {
      room = new Room(key, this.events, this.#notify);
      this.#rooms.set(key, room);
      room.tell({ type: 'room-created' });
    }
    return room;
  }

  /** Drops the room when nobody is left in it. */
  release(room: Room): void {
    if (room.size === 0 && this.#rooms.get(room.key) === room) {
      this.#rooms.delete(room.key);
      room.dispose();
      room.tell({ type: 'room-dismissed' });
    }
  }

  get size(): number {
    return this.#rooms.size;
  }

  rooms(): IterableIterator<Room> {
    return this.#rooms.values();
  }

  /** The room with this key, if it exists. */
  find(key: string): Room | undefined {
    return this.#rooms.get(key);
  }

  /** The rooms of one app. */
  ofApp(sdkAppId: number): Room[] {
    return [...this.#rooms.values()].filter((room) => room.sdkAppId === sdkAppId);
  }

  /** Remembers that a user joined a room (the latest wins; the oldest users are forgotten past the bound). */
  noteJoin(sdkAppId: number, userId: string, ref: RoomRef): void {
    const key = `${sdkAppId}:${userId}`;
    this.#lastRoom.delete(key);
    this.#lastRoom.set(key, ref);
    if (this.#lastRoom.size > RoomRegistry.MAX_REMEMBERED_USERS) {
      this.#lastRoom.delete(this.#lastRoom.keys().next().value as string);
    }
  }

  /** The room a user joined last, if remembered. */
  lastRoomOf(sdkAppId: number, userId: string): RoomRef | undefined {
    return this.#lastRoom.get(`${sdkAppId}:${userId}`);
  }
}
