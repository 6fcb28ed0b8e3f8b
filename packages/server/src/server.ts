import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { resolveConfig, type ServerConfig, type ServerOverrides } from './config/config.js';
import { Cluster } from './cluster/cluster.js';
import { closeContext, createContext } from './context.js';
import { createEngine } from './engine/create-engine.js';
import type { EngineStats } from './engine/media-engine.js';
import { createGateway } from './gateway/gateway.js';
import { createLogger } from './log/logger.js';
import { CALL_RECORD_RETENTION_DAYS } from './room/call-records.js';
import { SignalServer } from './signal/signal-server.js';
import { pushEngineEvents } from './signal/engine-pushes.js';

/** How often stored logs past their retention are deleted. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly port: number;
  readonly config: ServerConfig;
  /** Live counters (rooms, users, engine). Signalling connections and more: GET /healthz and /metrics. */
  stats(): { rooms: number; users: number } & EngineStats;
  /** This node's id in the cluster (CONCLAVE_REDIS_URL), else undefined. */
  readonly nodeId: string | undefined;
  /**
   * Cluster node: stops taking new rooms and waits up to drainTimeoutMs for its rooms to empty, then gives
   * their placements up (close() then sends their users elsewhere). Resolves at once without a cluster.
   */
  drain(): Promise<void>;
  /** Stops accepting connections, tells clients to reconnect ('server-shutdown'), closes everything. */
  close(): Promise<void>;
}

/** Where the monorepo's builds live relative to this file (dist/server.js). */
function defaultDir(relative: string): string | undefined {
  const dir = fileURLToPath(new URL(relative, import.meta.url));
  return existsSync(dir) ? dir : undefined;
}

/**
 * Starts the server: HTTP (scheduling, endpoints, admin API, SDK, demo), WebSocket signalling, the embedded
 * media engine and the store. Settings not given in `overrides` come from the environment and the file it
 * names (see configFromEnv); throws ConfigError on bad settings and StoreError when the database cannot open.
 */
export async function startServer(overrides: ServerOverrides = {}, env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const config = resolveConfig(overrides, env);
  config.sdkDir ??= defaultDir('../../sdk/dist/');
  config.demoDir ??= defaultDir('../../../apps/demo/dist/');
  const logger = createLogger(config.logLevel);
  const engine = await createEngine(config, logger, env);
  let ctx: ReturnType<typeof createContext>;
  try {
    ctx = createContext(config, { engine, logger });
  } catch (error) {
    await engine.close();
    throw error;
  }
  const signal = new SignalServer(ctx);
  const stopEnginePushes = pushEngineEvents(ctx);
  const http = createGateway(ctx, signal);
  const purge = () => {
    const removed = ctx.store.purgeLogs(Date.now() - config.storage.logRetentionDays * 24 * 3600 * 1000);
    if (removed > 0) logger.info({ removed }, 'old logs deleted');
    const calls = ctx.store.callRecords.purge(Date.now() - CALL_RECORD_RETENTION_DAYS * 24 * 3600 * 1000);
    if (calls > 0) logger.info({ calls }, 'old call records deleted');
  };
  purge();
  const purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
  purgeTimer.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    clearInterval(purgeTimer);
    closeContext(ctx);
    await engine.close();
    throw error;
  }
  const { port } = http.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const scheme = config.tls ? 'https' : 'http';
  if (config.redisUrl) {
    const nodeHost = config.host === '0.0.0.0' || config.host === '::' ? hostname() : config.host;
    try {
      ctx.cluster = await Cluster.start({ ...ctx, registry: ctx.metrics.registry }, { redisUrl: config.redisUrl, nodeId: config.nodeId, nodeUrl: config.nodeUrl ?? `${scheme}://${nodeHost}:${port}`, secret: config.clusterSecret });
    } catch (error) {
      http.close();
      clearInterval(purgeTimer);
      closeContext(ctx);
      await engine.close();
      throw error;
    }
  }
  logger.info({ port, apps: config.apps.map((a) => a.sdkAppId), storage: config.storage.path }, 'listening');
  let closing: Promise<void> | undefined;
  return {
    url: `${scheme}://${host}:${port}`,
    port,
    config,
    nodeId: ctx.cluster?.selfId,
    async drain() {
      if (!ctx.cluster) return;
      const { movedRooms } = await ctx.cluster.drain(config.drainTimeoutMs);
      logger.info({ movedRooms }, 'drained');
    },
    stats() {
      let users = 0;
      for (const room of ctx.rooms.rooms()) users += room.size;
      return { rooms: ctx.rooms.size, users, ...engine.stats() };
    },
    close() {
      closing ??= (async () => {
        logger.info('shutting down: telling clients to reconnect');
        // Leave the cluster first, so clients that reconnect are scheduled onto other nodes.
        await ctx.cluster?.stop().catch((err: unknown) => logger.warn({ err }, 'cluster: stop failed'));
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        signal.close();
        stopEnginePushes();
        await ctx.transcribers.close();
        await ctx.jobs.close();
        await engine.close();
        http.closeAllConnections();
        await stopped;
        clearInterval(purgeTimer);
        closeContext(ctx);
        logger.info('stopped');
      })();
      return closing;
    },
  };
}
