import type { Authenticator } from '../auth/authenticator.js';
import type { ServerConfig } from '../config/config.js';
import type { MediaEngine } from '../engine/media-engine.js';
import type { ErrorAnswerDeps } from '../http/respond.js';
import type { BanList } from '../room/ban-list.js';
import type { LeaveDeps } from '../room/eviction.js';
import type { MixStreams } from './mix-streams.js';

/** What WHEP playback and WHIP ingest work with (the composition root hands them these parts). */
export interface WhepDeps extends LeaveDeps {
  config: ServerConfig;
  auth: Authenticator;
  bans: BanList;
  engine: MediaEngine;
  /** Refusals counted by code (sendError); the sessions' gauges are read by the root (WhepApi.snapshot). */
  metrics: ErrorAnswerDeps['metrics'];
  /** CDN mixes played by streamId. */
  mixStreams: MixStreams;
}
