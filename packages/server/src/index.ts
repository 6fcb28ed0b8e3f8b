/**
 * @conclave/server: scheduling, WebSocket signalling and the embedded SFU in one process.
 * Import `startServer` to run it in-process (tests, embedding); the CLI is `conclave-server`.
 */
export { startServer, type RunningServer } from './server.js';
export { configFromEnv, ConfigError, DEV_SDKAPPID, type AppConfig, type ServerConfig } from './config/config.js';
export type { MediaEngine, ForwardWants, EngineStats } from './engine/media-engine.js';
export { EmbeddedEngine } from './engine/embedded/embedded-engine.js';
