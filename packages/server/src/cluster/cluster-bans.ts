import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BanChange, BanList } from '../room/ban-list.js';
import type { StoredBan } from '../store/store.js';
import { KEYS } from './keys.js';

const field = (sdkAppId: number, roomRef: string, userId: string) => `${sdkAppId}\u0000${roomRef}\u0000${userId}`;

/**
 * Makes admin-API bans cluster-wide: every ban or unban made on a node is written to a Redis hash and
 * published; every node applies what others publish to its own ban list (so the join check stays a
 * local lookup) and loads the hash when it starts.
 */
export class ClusterBans {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #bans: BanList;
  readonly #selfId: string;
  readonly #logger: Logger;

  constructor(parts: { redis: Redis; subscriber: Redis; bans: BanList; selfId: string; logger: Logger }) {
    this.#redis = parts.redis;
    this.#subscriber = parts.subscriber;
    this.#bans = parts.bans;
    this.#selfId = parts.selfId;
    this.#logger = parts.logger;
  }

  /** Loads the cluster's bans, subscribes to changes and starts announcing this node's. */
  async start(): Promise<void> {
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel === KEYS.banChannel) this.#onMessage(message);
    });
    await this.#subscriber.subscribe(KEYS.banChannel);
    const now = Date.now();
    const expired: string[] = [];
    for (const [key, value] of Object.entries(await this.#redis.hgetall(KEYS.bans))) {
      const ban = JSON.parse(value) as StoredBan;
      if (ban.until <= now) expired.push(key);
      else this.#bans.applyBan(ban);
    }
    if (expired.length > 0) await this.#redis.hdel(KEYS.bans, ...expired);
    this.#bans.onChange = (change) => {
      this.#announce(change).catch((err: unknown) => this.#logger.error({ err }, 'cluster: could not share a ban'));
    };
  }

  /**
   * After a Redis outage: takes the bans other nodes stored meanwhile (their announcements were missed) and
   * stores and announces this node's bans that Redis no longer has (it lost its data, or a ban made here
   * during the outage could not be shared). An unban made elsewhere during the outage is not seen.
   */
  async resync(): Promise<void> {
    const now = Date.now();
    const stored = await this.#redis.hgetall(KEYS.bans);
    for (const value of Object.values(stored)) {
      const ban = JSON.parse(value) as StoredBan;
      if (ban.until > now && !this.#bans.find(ban.sdkAppId, ban.roomRef, ban.userId, now)) this.#bans.applyBan(ban);
    }
    const missing = this.#bans.all(now).filter((ban) => !(field(ban.sdkAppId, ban.roomRef, ban.userId) in stored));
    if (missing.length === 0) return;
    const multi = this.#redis.multi();
    for (const ban of missing) {
      multi.hset(KEYS.bans, field(ban.sdkAppId, ban.roomRef, ban.userId), JSON.stringify(ban));
      multi.publish(KEYS.banChannel, JSON.stringify({ origin: this.#selfId, change: { ban } }));
    }
    await multi.exec();
    this.#logger.info({ bans: missing.length }, 'cluster: bans shared again after the Redis outage');
  }

  stop(): void {
    this.#bans.onChange = undefined;
  }

  async #announce(change: BanChange): Promise<void> {
    const multi = this.#redis.multi();
    if ('ban' in change) multi.hset(KEYS.bans, field(change.ban.sdkAppId, change.ban.roomRef, change.ban.userId), JSON.stringify(change.ban));
    else multi.hdel(KEYS.bans, field(change.unban.sdkAppId, change.unban.roomRef, change.unban.userId));
    multi.publish(KEYS.banChannel, JSON.stringify({ origin: this.#selfId, change }));
    await multi.exec();
  }

  #onMessage(message: string): void {
    try {
      const { origin, change } = JSON.parse(message) as { origin: string; change: BanChange };
      if (origin === this.#selfId) return;
      if ('ban' in change) this.#bans.applyBan(change.ban);
      else this.#bans.applyUnban(change.unban.sdkAppId, change.unban.roomRef, change.unban.userId);
    } catch (err) {
      this.#logger.warn({ err }, 'cluster: unreadable ban message');
    }
  }
}
