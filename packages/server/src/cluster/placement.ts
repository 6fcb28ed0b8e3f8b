import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { KEYS } from './keys.js';
import type { NodeInfo, NodeRegistry } from './node-registry.js';

/** How long a placement lives without a heartbeat refreshing it (a scheduled room whose users never came). */
export const PLACEMENT_TTL_MS = 30_000;
/** A room placed this recently counts as load on its node even before its users arrive. */
const RECENT_MS = 15_000;
const LOCK_MS = 5_000;

/**
 * Keeps a room placed on this node (KEYS[1] the room, ARGV[1] this node, ARGV[2] the time-to-live): refreshes
 * our placement, re-creates it when it is gone (Redis lost its data), and leaves another node's alone
 * (returns 0: the room has users on two nodes, which the caller reports).
 */
const CLAIM_SCRIPT = "local v = redis.call('get', KEYS[1]) if v == false or v == ARGV[1] then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 else return 0 end";
/** Deletes a key only when it still holds the value (a lock or placement we own). */
const DELETE_IF_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** Where a room goes: the node hosting it and another node as the backup. */
export interface PlacementAnswer {
  main: NodeInfo;
  backup: NodeInfo;
}

/** The verdict on a join reaching this node. */
export type Admission = { ok: true } | { ok: false; host?: NodeInfo; reason: string };

/**
 * Room → node placement. A room is placed on first schedule on the least loaded live node that is not
 * draining, under a per-room lock so two nodes scheduling the same new room at once agree; it then stays
 * there while it has users (its node refreshes the placement at each heartbeat). A placement whose node
 * died, or whose draining node no longer has the room, is placed again.
 */
export class Placement {
  readonly #redis: Redis;
  readonly #registry: NodeRegistry;
  readonly #selfId: string;

  constructor(redis: Redis, registry: NodeRegistry, selfId: string) {
    this.#redis = redis;
    this.#registry = registry;
    this.#selfId = selfId;
  }

  /** The live node hosting a room, if any (a placement on a dead node counts as none). */
  async hostOf(room: string, nodes?: NodeInfo[]): Promise<NodeInfo | undefined> {
    const id = await this.#redis.get(KEYS.room(room));
    if (!id) return undefined;
    return (nodes ?? await this.#registry.live()).find((n) => n.id === id);
  }

  /** Whether a placement still holds: its node lives, and a draining node keeps only rooms that have users. */
  async #holds(room: string, host: NodeInfo | undefined): Promise<boolean> {
    if (!host) return false;
    return !host.draining || await this.#registry.hasActive(host.id, room);
  }

  /** Waits while the registry is being rebuilt (KEYS.settling; bounded by that key's time-to-live). */
  async #settled(): Promise<void> {
    for (;;) {
      const ttl = await this.#redis.pttl(KEYS.settling);
      if (ttl <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(ttl, 250)));
    }
  }

  /** Opens the rebuilding window: no new room is placed for `ms` while every node re-claims its rooms. */
  async settle(ms: number): Promise<void> {
    await this.#redis.set(KEYS.settling, '1', 'PX', ms);
  }

  /** Places a room (or finds where it is) for scheduling; throws when no node can take it. */
  async place(room: string): Promise<PlacementAnswer> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const nodes = await this.#registry.live();
      const host = await this.hostOf(room, nodes);
      if (host && await this.#holds(room, host)) return { main: host, backup: this.#backup(nodes, host) };
      await this.#settled();
      const token = randomUUID();
      if (await this.#redis.set(KEYS.lock(room), token, 'PX', LOCK_MS, 'NX') === 'OK') {
        try {
          // Someone may have placed it between our read and the lock.
          const again = await this.hostOf(room, nodes);
          if (again && await this.#holds(room, again)) return { main: again, backup: this.#backup(nodes, again) };
          const chosen = await this.#leastLoaded(nodes);
          if (!chosen) throw new Error('no cluster node can take a new room (all draining or none alive)');
          const now = Date.now();
          await this.#redis.multi()
            .set(KEYS.room(room), chosen.id, 'PX', PLACEMENT_TTL_MS)
            .zadd(KEYS.recent(chosen.id), now, room)
            .zremrangebyscore(KEYS.recent(chosen.id), 0, now - RECENT_MS)
            .pexpire(KEYS.recent(chosen.id), RECENT_MS)
            .exec();
          return { main: chosen, backup: this.#backup(nodes, chosen) };
        } finally {
          await this.#redis.eval(DELETE_IF_SCRIPT, 1, KEYS.lock(room), token);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`room ${room} is being placed by another node; try again`);
  }

  /**
   * A join reached this node: admitted when the room lives here, or when it lives nowhere alive and this
   * node takes new rooms (then it is placed here). Otherwise the client is told where it lives.
   */
  async admit(room: string, draining: boolean, hasLocalUsers: boolean): Promise<Admission> {
    const nodes = await this.#registry.live();
    const host = await this.hostOf(room, nodes);
    if (host?.id === this.#selfId) return { ok: true };
    if (host && await this.#holds(room, host)) return { ok: false, host, reason: `room lives on node ${host.id}` };
    if (draining && !hasLocalUsers) return { ok: false, reason: 'this node is draining and takes no new rooms' };
    if (!hasLocalUsers) await this.#settled();
    const token = randomUUID();
    if (await this.#redis.set(KEYS.lock(room), token, 'PX', LOCK_MS, 'NX') !== 'OK') return { ok: false, reason: 'room is being placed; schedule again' };
    try {
      const again = await this.hostOf(room);
      if (again && again.id !== this.#selfId && await this.#holds(room, again)) return { ok: false, host: again, reason: `room lives on node ${again.id}` };
      await this.#redis.set(KEYS.room(room), this.#selfId, 'PX', PLACEMENT_TTL_MS);
      return { ok: true };
    } finally {
      await this.#redis.eval(DELETE_IF_SCRIPT, 1, KEYS.lock(room), token);
    }
  }

  /**
   * Keeps this node's rooms with users placed here (called at each heartbeat), re-creating placements Redis
   * lost. Returns the rooms another node holds the placement of (users on two nodes: reported, left alone).
   */
  async refresh(rooms: string[]): Promise<string[]> {
    if (rooms.length === 0) return [];
    const multi = this.#redis.multi();
    for (const room of rooms) multi.eval(CLAIM_SCRIPT, 1, KEYS.room(room), this.#selfId, PLACEMENT_TTL_MS);
    const results = (await multi.exec()) ?? [];
    return rooms.filter((_, i) => results[i]?.[1] === 0);
  }

  /** Forgets placements on this node (draining is over: the rooms' users schedule again elsewhere). */
  async release(rooms: string[]): Promise<void> {
    for (const room of rooms) await this.#redis.eval(DELETE_IF_SCRIPT, 1, KEYS.room(room), this.#selfId);
  }

  /** The least loaded live node taking new rooms: users + rooms + rooms placed there in the last seconds. */
  async #leastLoaded(nodes: NodeInfo[]): Promise<NodeInfo | undefined> {
    const open = nodes.filter((n) => !n.draining);
    if (open.length === 0) return undefined;
    const now = Date.now();
    const multi = this.#redis.multi();
    for (const n of open) multi.zcount(KEYS.recent(n.id), now - RECENT_MS, '+inf');
    const counts = ((await multi.exec()) ?? []).map(([, value]) => Number(value ?? 0));
    let best: NodeInfo | undefined;
    let bestLoad = Infinity;
    open.forEach((n, i) => {
      const load = n.users + n.rooms + counts[i];
      if (load < bestLoad || (load === bestLoad && Math.random() < 0.5)) {
        best = n;
        bestLoad = load;
      }
    });
    return best;
  }

  /** Another live node for the backup domain (least loaded first), or the host itself when alone. */
  #backup(nodes: NodeInfo[], host: NodeInfo): NodeInfo {
    const others = nodes.filter((n) => n.id !== host.id && !n.draining).sort((a, b) => a.users - b.users);
    return others[0] ?? host;
  }
}
