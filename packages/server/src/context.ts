import type { Authenticator } from './auth/authenticator.js';
import type { ServerConfig } from './config/config.js';
import type { MediaEngine } from './engine/media-engine.js';
import type { Logger } from './log/logger.js';
import type { RoomRegistry } from './room/room.js';

/** What every part of a running server shares. */
export interface ServerContext {
  config: ServerConfig;
  auth: Authenticator;
  rooms: RoomRegistry;
  engine: MediaEngine;
  logger: Logger;
}
