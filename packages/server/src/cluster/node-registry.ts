import type { Redis } from 'ioredis';
import { KEYS } from './keys.js';

/** A node as the cluster sees it (its last heartbeat). */
export interface NodeInfo {
  id: string;
  /** Base URL (http(s)://host:port) where clients and other nodes reach it. */
  url: string;
  users: number;
  rooms: number;
  /** SIGTERM received: no new rooms go there. */
  draining: boolean;
  /** When the heartbeat was written (ms since the epoch). */
  at: number;
}

/** What a node reports about itself at each heartbeat. */
export interface NodeLoad {
  users: number;
  /** Cluster names of the rooms with users here. */
  activeRooms: string[];
}

/**
 * The node registry: each node writes its info with a time-to-live at every heartbeat; a node whose
 * key expired is dead (its rooms get placed again). Reading the registry also prunes dead ids.
 */
export class NodeRegistry {
  readonly #redis: Redis;
  readonly #self: { id: string; url: string };
  readonly #ttlMs: number;

  constructor(redis: Redis, self: { id: string; url: string }, ttlMs: number) {
    this.#redis = redis;
    this.#self = self;
    this.#ttlMs = ttlMs;
  }

  /**
   * Writes this node's info and its active rooms (one round trip). `wasAlive` is false when the cluster had
   * no live entry for this node before (its first beat, or it was seen dead: Redis lost its data or was away).
   */
  async beat(load: NodeLoad, draining: boolean): Promise<{ info: NodeInfo; wasAlive: boolean }> {
    const info: NodeInfo = { ...this.#self, users: load.users, rooms: load.activeRooms.length, draining, at: Date.now() };
    const active = KEYS.active(this.#self.id);
    const multi = this.#redis.multi()
      .sadd(KEYS.nodes, this.#self.id)
      .set(KEYS.node(this.#self.id), JSON.stringify(info), 'PX', this.#ttlMs, 'GET')
      .del(active);
    if (load.activeRooms.length > 0) multi.sadd(active, ...load.activeRooms).pexpire(active, this.#ttlMs);
    const results = await multi.exec();
    const [error, previous] = results?.[1] ?? [new Error('heartbeat transaction discarded'), null];
    if (error) throw error;
    return { info, wasAlive: previous !== null };
  }

  /** The live nodes. */
  async live(): Promise<NodeInfo[]> {
    const ids = await this.#redis.smembers(KEYS.nodes);
    if (ids.length === 0) return [];
    const values = await this.#redis.mget(ids.map((id) => KEYS.node(id)));
    const nodes: NodeInfo[] = [];
    const dead: string[] = [];
    values.forEach((value, i) => {
      if (value === null) dead.push(ids[i]);
      else nodes.push(JSON.parse(value) as NodeInfo);
    });
    if (dead.length > 0) await this.#redis.srem(KEYS.nodes, ...dead);
    return nodes;
  }

  /** Whether a room has users on a node (its last heartbeat said so). */
  async hasActive(nodeId: string, room: string): Promise<boolean> {
    return (await this.#redis.sismember(KEYS.active(nodeId), room)) === 1;
  }

  /** Removes this node from the cluster at once (a clean exit: no waiting for the time-to-live). */
  async leave(): Promise<void> {
    await this.#redis.multi().del(KEYS.node(this.#self.id), KEYS.active(this.#self.id), KEYS.recent(this.#self.id)).srem(KEYS.nodes, this.#self.id).exec();
  }
}
