import type { Store, StoredBan } from '../store/store.js';
import type { RoomRef } from '../ids/room-ref.js';

/** A ban made or lifted, as announced to the other nodes of a cluster. */
export type BanChange = { ban: StoredBan } | { unban: { sdkAppId: number; roomRef: RoomRef; userId: string } };

/** Users banned from rooms by the admin API, until a time; kept in the store so a restart keeps them. */
export class BanList {
  readonly #store: Store;
  readonly #bans = new Map<string, StoredBan>();
  /** Told of every ban and unban made on this server (a cluster node passes them to the other nodes). */
  onChange: ((change: BanChange) => void) | undefined;
  /** Told of every ban that takes effect here, made on this server or another node of its cluster. */
  readonly #banned = new Set<(ban: StoredBan) => void>();

  constructor(store: Store, now = Date.now()) {
    this.#store = store;
    for (const ban of store.loadBans(now)) this.#bans.set(BanList.#key(ban.sdkAppId, ban.roomRef, ban.userId), ban);
  }

  static #key(sdkAppId: number, roomRef: RoomRef, userId: string): string {
    return `${sdkAppId}\u0000${roomRef}\u0000${userId}`;
  }

  /** Bans a user from a room until `until` (ms); replaces an earlier ban. */
  ban(ban: StoredBan): void {
    this.applyBan(ban);
    this.onChange?.({ ban });
  }

  /** Records a ban made elsewhere (another cluster node) without announcing it again. */
  applyBan(ban: StoredBan): void {
    this.#bans.set(BanList.#key(ban.sdkAppId, ban.roomRef, ban.userId), ban);
    this.#store.saveBan(ban);
    for (const listener of this.#banned) listener(ban);
  }

  /**
   * Listens to every ban taking effect here (the admin API's, and those another cluster node made): what holds a
   * user's media outside signalling (WHEP playbacks, WHIP publishes) ends it. Returns the removal.
   */
  onBan(listener: (ban: StoredBan) => void): () => void {
    this.#banned.add(listener);
    return () => this.#banned.delete(listener);
  }

  /** Lifts a ban; false when there was none. */
  unban(sdkAppId: number, roomRef: RoomRef, userId: string, now = Date.now()): boolean {
    const had = this.find(sdkAppId, roomRef, userId, now) !== undefined;
    this.applyUnban(sdkAppId, roomRef, userId);
    this.onChange?.({ unban: { sdkAppId, roomRef, userId } });
    return had;
  }

  /** Lifts a ban lifted elsewhere (another cluster node) without announcing it again. */
  applyUnban(sdkAppId: number, roomRef: RoomRef, userId: string): void {
    this.#bans.delete(BanList.#key(sdkAppId, roomRef, userId));
    this.#store.deleteBan(sdkAppId, roomRef, userId);
  }

  /** The ban in force on this user in this room, if any. */
  find(sdkAppId: number, roomRef: RoomRef, userId: string, now = Date.now()): StoredBan | undefined {
    const key = BanList.#key(sdkAppId, roomRef, userId);
    const ban = this.#bans.get(key);
    if (ban && ban.until <= now) {
      this.#bans.delete(key);
      this.#store.deleteBan(sdkAppId, roomRef, userId);
      return undefined;
    }
    return ban;
  }

  /** Every ban in force, of every app (a cluster node re-shares them after a Redis outage). */
  all(now = Date.now()): StoredBan[] {
    return [...this.#bans.values()].filter((ban) => this.find(ban.sdkAppId, ban.roomRef, ban.userId, now));
  }

  /** The bans in force in one app. */
  ofApp(sdkAppId: number, now = Date.now()): StoredBan[] {
    return [...this.#bans.values()].filter((ban) => ban.sdkAppId === sdkAppId && this.find(ban.sdkAppId, ban.roomRef, ban.userId, now));
  }
}
