import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { SIGNAL_PATH } from '@conclave/protocol';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Authenticator } from '../auth/authenticator.js';
import type { BanList } from '../room/ban-list.js';
import type { RoomRegistry } from '../room/room.js';
import { forwardAdmin, LOCAL_HEADER } from './admin-forward.js';
import { claimSignature, claimTask, forwardCloudApi, nodeOfTask, type PriorUse } from './cloud-api-forward.js';
import { ClusterBans } from './cluster-bans.js';
import { clusterRoom } from './keys.js';
import { NodeRegistry, type NodeInfo } from './node-registry.js';
import { checkNodeSignature, nodeSignature, sharedSecret, type NodeCheck, type NodeRequest } from './node-signature.js';
import { Placement, type Admission } from './placement.js';
import { ClusterUnavailableError, withRedis } from './redis-wait.js';

export { ClusterUnavailableError } from './redis-wait.js';

/** Raised when the cluster cannot start (Redis unreachable); the message names CONCLAVE_REDIS_URL. */
export class ClusterError extends Error {
  override name = 'ClusterError';
}

export interface ClusterOptions {
  redisUrl: string;
  /** This node's id (default: random). */
  nodeId?: string;
  /** This node's base URL as clients and other nodes reach it. */
  nodeUrl: string;
  /** Heartbeat period (1 s); a node silent for nodeTtlMs (3 s) is dead and its rooms are placed again. */
  heartbeatMs?: number;
  nodeTtlMs?: number;
  /**
   * While Redis is unreachable, how long scheduling a room waits for it before answering CLUSTER_UNAVAILABLE
   * (7 s: under the SDK's fourth schedule attempt's 8 s time-out, so the SDK's own retries wait ~17 s in all).
   */
  placementWaitMs?: number;
  /** How long a join of a room with no users here waits for Redis before it is sent to schedule again (1 s). */
  admitWaitMs?: number;
  /** Signs node-to-node requests (every node the same); unset: a random one shared through Redis. */
  secret?: string;
}

/** A node's signalling URL from its base URL. */
export const signalUrlOf = (node: NodeInfo): string => `${node.url.replace(/^http/, 'ws')}${SIGNAL_PATH}`;

/** What a cluster node works with. */
export interface ClusterDeps {
  rooms: RoomRegistry;
  bans: BanList;
  auth: Authenticator;
  logger: Logger;
  /** Where the cluster's gauges are registered (the server's metrics registry). */
  registry: Registry;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * This server as a node of a Redis cluster: registers itself with its load and a heartbeat, places rooms
 * (scheduling answers the node hosting the room), admits joins only for rooms it hosts, shares bans,
 * forwards admin requests to the node hosting a room, and drains on SIGTERM. Signalling is never relayed
 * between nodes: each client talks to the node hosting its room.
 */
export class Cluster {
  readonly selfId: string;
  readonly selfUrl: string;
  readonly #ctx: ClusterDeps;
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #registry: NodeRegistry;
  readonly #placement: Placement;
  readonly #bans: ClusterBans;
  readonly #heartbeatMs: number;
  readonly #nodeTtlMs: number;
  readonly #placementWaitMs: number;
  readonly #admitWaitMs: number;
  /** Redis reconnected since the last heartbeat: beat (re-register, re-claim rooms) before placing anything. */
  #needBeat = false;
  /** This node has registered once (a later beat that finds no entry for it means the cluster saw it dead). */
  #registered = false;
  /** When heartbeats started failing (an outage), else undefined. */
  #downSince: number | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #beating: Promise<void> | undefined;
  #draining = false;
  #nodes: NodeInfo[] = [];
  /** The cluster secret node-to-node requests are signed with. */
  #secret: string;
  readonly #secretConfigured: boolean;

  private constructor(ctx: ClusterDeps, options: ClusterOptions, redis: Redis, subscriber: Redis, secret: string) {
    this.#ctx = ctx;
    this.#secret = secret;
    this.#secretConfigured = options.secret !== undefined;
    this.selfId = options.nodeId ?? `node-${randomBytes(4).toString('hex')}`;
    this.selfUrl = options.nodeUrl.replace(/\/$/, '');
    this.#redis = redis;
    this.#subscriber = subscriber;
    this.#heartbeatMs = options.heartbeatMs ?? 1000;
    this.#nodeTtlMs = options.nodeTtlMs ?? 3000;
    this.#placementWaitMs = options.placementWaitMs ?? 7000;
    this.#admitWaitMs = options.admitWaitMs ?? 1000;
    this.#registry = new NodeRegistry(redis, { id: this.selfId, url: this.selfUrl }, this.#nodeTtlMs);
    this.#placement = new Placement(redis, this.#registry, this.selfId);
    this.#bans = new ClusterBans({ redis, subscriber, bans: ctx.bans, selfId: this.selfId, logger: ctx.logger });
  }

  /** Connects to Redis, loads the cluster's bans, registers this node and starts its heartbeat. Throws ClusterError. */
  static async start(ctx: ClusterDeps, options: ClusterOptions): Promise<Cluster> {
    const connect = async () => {
      // Reconnect every second at most, so the nodes come back together after an outage.
      const redis = new Redis(options.redisUrl, {
        lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 3000, commandTimeout: 3000, retryStrategy: (times) => Math.min(times * 100, 1000),
      });
      let lastLog = 0;
      redis.on('error', (err: Error) => {
        // ioredis reconnects by itself; log at most every 5 s.
        if (Date.now() - lastLog > 5000) ctx.logger.warn({ err: err.message }, 'cluster: Redis connection error');
        lastLog = Date.now();
      });
      try {
        await redis.connect();
      } catch (error) {
        redis.disconnect();
        throw new ClusterError(`CONCLAVE_REDIS_URL: cannot reach Redis at ${options.redisUrl.replace(/\/\/[^@]*@/, '//***@')}: ${(error as Error).message}`);
      }
      return redis;
    };
    const redis = await connect();
    const subscriber = await connect().catch((error: unknown) => {
      redis.disconnect();
      throw error;
    });
    let cluster: Cluster;
    try {
      cluster = new Cluster(ctx, options, redis, subscriber, options.secret ?? await sharedSecret(redis));
      await cluster.#bans.start();
      await cluster.#beat();
    } catch (error) {
      redis.disconnect();
      subscriber.disconnect();
      throw new ClusterError(`CONCLAVE_REDIS_URL: cluster start failed: ${(error as Error).message}`);
    }
    redis.on('ready', () => cluster.#reconnected());
    cluster.#timer = setInterval(() => void cluster.#beat(), cluster.#heartbeatMs);
    cluster.#timer.unref();
    cluster.#registerMetrics();
    ctx.logger.info({ node: cluster.selfId, url: cluster.selfUrl }, 'cluster: node registered');
    return cluster;
  }

  /** True once SIGTERM started draining this node. */
  get draining(): boolean {
    return this.#draining;
  }

  /** The live nodes at the last heartbeat. */
  get nodes(): readonly NodeInfo[] {
    return this.#nodes;
  }

  /** Cluster names of the rooms with users on this node. */
  #activeRooms(): string[] {
    const rooms: string[] = [];
    for (const room of this.#ctx.rooms.rooms()) if (room.size > 0) rooms.push(clusterRoom(room.sdkAppId, room.ref));
    return rooms;
  }

  /**
   * One heartbeat: registers this node with its load, keeps (or re-creates) its rooms' placements and reads
   * the live nodes. A node back after the cluster saw it dead opens the settling window first. Never throws:
   * during a Redis outage the rooms here keep running and the beat is tried again next period.
   */
  #beat(): Promise<void> {
    this.#beating ??= (async () => {
      try {
        const active = this.#activeRooms();
        let users = 0;
        for (const room of this.#ctx.rooms.rooms()) users += room.size;
        const { wasAlive } = await this.#registry.beat({ users, activeRooms: active }, this.#draining);
        if (this.#registered && !wasAlive) {
          // Our entry was gone: other nodes may be about to place our rooms elsewhere. Hold new placements
          // until every node has beaten again and re-claimed its rooms.
          await this.#placement.settle(this.#nodeTtlMs + 1000);
          this.#ctx.logger.warn({ node: this.selfId, rooms: active.length }, 'cluster: this node was seen dead (Redis lost its data or was away); re-claiming its rooms');
        }
        this.#registered = true;
        const conflicts = await this.#placement.refresh(active);
        if (conflicts.length > 0) this.#ctx.logger.error({ rooms: conflicts }, 'cluster: rooms with users here are placed on another node');
        this.#nodes = await this.#registry.live();
        this.#needBeat = false;
        if (this.#downSince !== undefined) {
          this.#ctx.logger.info({ downMs: Date.now() - this.#downSince }, 'cluster: Redis is back; placements resume');
          this.#downSince = undefined;
        }
      } catch (err) {
        if (this.#downSince === undefined) {
          this.#downSince = Date.now();
          this.#ctx.logger.warn({ err: (err as Error).message }, 'cluster: heartbeat failed; rooms here keep running, new placements wait for Redis');
        }
      } finally {
        this.#beating = undefined;
      }
    })();
    return this.#beating;
  }

  /** Redis answered again (ioredis reconnected): beat at once, share the bans (and a Redis-held secret) again. */
  #reconnected(): void {
    this.#needBeat = true;
    void this.#beat().then(() => this.#bans.resync()).catch((err: unknown) => {
      this.#ctx.logger.warn({ err: (err as Error).message }, 'cluster: could not share the bans again after the outage');
    });
    if (this.#secretConfigured) return;
    // Redis may have lost it: put ours back, or take the one a node put there first (the nodes converge on it).
    void sharedSecret(this.#redis, this.#secret).then((secret) => {
      if (secret === this.#secret) return;
      this.#ctx.logger.warn('cluster: the cluster secret in Redis changed (Redis lost its data); using it (set clusterSecret to avoid this)');
      this.#secret = secret;
    }, (err: unknown) => {
      this.#ctx.logger.warn({ err: (err as Error).message }, 'cluster: could not share the cluster secret again after the outage');
    });
  }

  /** Runs a placement against Redis: waits (bounded) for it, heartbeats first after a reconnection. */
  #placing<T>(waitMs: number, op: () => Promise<T>): Promise<T> {
    return withRedis(this.#redis, Date.now() + waitMs, async () => {
      if (this.#needBeat) await this.#beat();
      if (this.#needBeat) throw new Error('Connection is closed (the heartbeat after the reconnection failed)');
      return op();
    });
  }

  /**
   * Scheduling: the signalling URLs of the node hosting the room (placing it first) and of a backup node.
   * While Redis is unreachable it waits up to placementWaitMs for it, then throws ClusterUnavailableError.
   */
  async schedule(sdkAppId: number, ref: string): Promise<{ main: string; backup: string; node: string }> {
    const { main, backup } = await this.#placing(this.#placementWaitMs, () => this.#placement.place(clusterRoom(sdkAppId, ref)));
    return { main: signalUrlOf(main), backup: signalUrlOf(backup), node: main.id };
  }

  /**
   * A join reached this node: is the room hosted here (or free to be)? While Redis is unreachable a room with
   * users here keeps taking joins (it runs here); a new room waits up to admitWaitMs for Redis, then the
   * client is sent to schedule again (which waits for the placement, see schedule).
   */
  async admit(sdkAppId: number, ref: string): Promise<Admission> {
    const room = clusterRoom(sdkAppId, ref);
    const local = [...this.#ctx.rooms.ofApp(sdkAppId)].find((r) => r.ref === ref);
    const hasLocalUsers = (local?.size ?? 0) > 0;
    if (hasLocalUsers && this.#redis.status !== 'ready') return { ok: true };
    try {
      return await this.#placing(hasLocalUsers ? 0 : this.#admitWaitMs, () => this.#placement.admit(room, this.#draining, hasLocalUsers));
    } catch (err) {
      if (err instanceof ClusterUnavailableError && !hasLocalUsers) return { ok: false, reason: err.message };
      this.#ctx.logger.warn({ err: (err as Error).message, room }, 'cluster: placement check failed; admitting the join here');
      return { ok: true };
    }
  }

  /** Admin requests about rooms on other nodes, and cluster-wide lists (see forwardAdmin). */
  forwardAdmin(req: IncomingMessage, res: ServerResponse, url: URL, client: string): Promise<boolean> {
    return forwardAdmin({
      selfId: this.selfId,
      live: () => this.#registry.live(),
      hostOf: (room) => this.#placement.hostOf(room),
      authorized: (sdkAppId, header) => {
        const key = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] : undefined;
        return key !== undefined && this.#ctx.auth.adminApp(sdkAppId, key) !== undefined;
      },
      sign: (request) => this.signNodeRequest({ ...request, client }),
      logger: this.#ctx.logger,
    }, req, res, url);
  }

  /**
   * The node a cloud API request belongs on, when it is another live node: the one hosting the room it names
   * (`room`: sdkAppId and RoomRef), or the one its task was started on. Undefined: answer here (this node's,
   * nobody's, or a request another node forwarded).
   */
  async cloudApiNode(headers: IncomingHttpHeaders, about: { sdkAppId: number; room: string } | { taskId: string }): Promise<NodeInfo | undefined> {
    if (headers[LOCAL_HEADER]) return undefined;
    const node = 'taskId' in about
      ? await nodeOfTask(this.#redis, about.taskId, () => this.#registry.live())
      : await this.#placement.hostOf(clusterRoom(about.sdkAppId, about.room));
    return node && node.id !== this.selfId ? node : undefined;
  }

  /** Sends a cloud API request to the node it belongs on (see cloudApiNode); its answer. */
  forwardCloudApi(node: NodeInfo, headers: IncomingHttpHeaders, payload: Buffer, client: string): Promise<{ status: number; text: string }> {
    return forwardCloudApi(node, headers, payload, this.signNodeRequest({ method: 'POST', path: '/', body: payload, client }));
  }

  /** Records a use of a cloud API signature cluster-wide; how it was used before. */
  claimSignature(signature: string, use: { address: string; action: string }, ttlSeconds: number): Promise<PriorUse> {
    return claimSignature(this.#redis, signature, use, ttlSeconds);
  }

  /** The LOCAL_HEADER value of a request to another node: signed with the cluster secret. */
  signNodeRequest(request: NodeRequest): string {
    return nodeSignature(this.#secret, request);
  }

  /** Checks a request marked as another node's (LOCAL_HEADER `header`): its signature, and the body hash it covers. */
  checkNodeRequest(method: string, path: string, header: string | undefined): NodeCheck {
    return checkNodeSignature(this.#secret, header, { method, path });
  }

  /** Records that a cloud API task runs on this node, so the others send its requests here. */
  claimCloudTask(taskId: string): Promise<void> {
    return claimTask(this.#redis, taskId, this.selfId);
  }

  /**
   * Drains this node (SIGTERM): no new rooms are placed here at once; rooms with users keep working until
   * they empty or `timeoutMs` passes. Then their placements are dropped and the node leaves the cluster,
   * so when the server closes its clients reconnect through scheduling onto other nodes.
   */
  async drain(timeoutMs: number): Promise<{ movedRooms: number }> {
    this.#draining = true;
    this.#ctx.logger.info({ node: this.selfId, rooms: this.#activeRooms().length, timeoutMs }, 'cluster: draining');
    await this.#beat();
    const deadline = Date.now() + timeoutMs;
    while (this.#activeRooms().length > 0 && Date.now() < deadline) await sleep(200);
    return { movedRooms: await this.#leave() };
  }

  async #leave(): Promise<number> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#beating;
    const rooms = this.#activeRooms();
    try {
      await this.#placement.release(rooms);
      await this.#registry.leave();
    } catch (err) {
      this.#ctx.logger.warn({ err: (err as Error).message }, 'cluster: could not leave cleanly; the node expires by itself');
    }
    return rooms.length;
  }

  /** Leaves the cluster and closes the Redis connections. */
  async stop(): Promise<void> {
    if (this.#timer) await this.#leave();
    this.#bans.stop();
    this.#redis.disconnect();
    this.#subscriber.disconnect();
  }

  /** Per node gauges plus a cluster summary on /metrics, from the last heartbeat's view. */
  #registerMetrics(): void {
    const registers = [this.#ctx.registry];
    const nodes = () => this.#nodes;
    const draining = () => this.#draining;
    new Gauge({ name: 'conclave_cluster_nodes', help: 'Live nodes of the cluster', registers, collect() { this.set(nodes().length); } });
    new Gauge({
      name: 'conclave_cluster_users', help: 'Users per cluster node (last heartbeat)', labelNames: ['node'], registers,
      collect() { this.reset(); for (const n of nodes()) this.set({ node: n.id }, n.users); },
    });
    new Gauge({
      name: 'conclave_cluster_rooms', help: 'Rooms with users per cluster node (last heartbeat)', labelNames: ['node'], registers,
      collect() { this.reset(); for (const n of nodes()) this.set({ node: n.id }, n.rooms); },
    });
    new Gauge({
      name: 'conclave_cluster_draining', help: '1 for a draining node', labelNames: ['node'], registers,
      collect() { this.reset(); for (const n of nodes()) this.set({ node: n.id }, n.draining ? 1 : 0); },
    });
    new Gauge({ name: 'conclave_node_draining', help: '1 while this node drains (SIGTERM)', registers, collect() { this.set(draining() ? 1 : 0); } });
  }
}
