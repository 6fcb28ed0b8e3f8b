import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Authenticator } from './auth/authenticator.js';
import { configFromEnv, type ServerConfig } from './config/config.js';
import type { ServerContext } from './context.js';
import { EmbeddedEngine } from './engine/embedded/embedded-engine.js';
import { createHttpServer } from './http/http-server.js';
import { createLogger } from './log/logger.js';
import { RoomRegistry } from './room/room.js';
import { SignalServer } from './signal/signal-server.js';

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. http://127.0.0.1:8080 */
  readonly url: string;
  readonly port: number;
  readonly config: ServerConfig;
  /** Live counters (rooms, users, engine). */
  stats(): { rooms: number; users: number; uplinks: number; downlinks: number; forwardedPackets: number; forwardedBytes: number };
  /** Tells clients to reconnect, closes every connection and stops listening. */
  close(): Promise<void>;
}

/** Where the monorepo's builds live relative to this file (dist/server.js). */
function defaultDir(relative: string): string | undefined {
  const dir = fileURLToPath(new URL(relative, import.meta.url));
  return existsSync(dir) ? dir : undefined;
}

/**
 * Starts the server: HTTP (scheduling, SDK, demo), WebSocket signalling and the embedded media engine.
 * Settings not given in `overrides` come from the environment (see configFromEnv); throws ConfigError on bad settings.
 */
export async function startServer(overrides: Partial<ServerConfig> = {}, env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const config: ServerConfig = {
    ...configFromEnv(env, overrides),
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  config.sdkDir ??= defaultDir('../../sdk/dist/');
  config.demoDir ??= defaultDir('../../../apps/demo/dist/');
  const logger = createLogger(config.logLevel);
  const engine = new EmbeddedEngine({ iceAddress: config.iceAddress });
  const ctx: ServerContext = { config, auth: new Authenticator(config.apps), rooms: new RoomRegistry(), engine, logger };
  const signal = new SignalServer(ctx);
  const http = createHttpServer(ctx, signal);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.port, config.host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info({ port }, 'listening');
  return {
    url: `http://${host}:${port}`,
    port,
    config,
    stats() {
      let users = 0;
      for (const room of ctx.rooms.rooms()) users += room.size;
      return { rooms: ctx.rooms.size, users, ...engine.stats() };
    },
    async close() {
      signal.close();
      await engine.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
