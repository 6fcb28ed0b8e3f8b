import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticator.js';
import type { Cluster } from '../cluster/cluster.js';
import type { ServerConfig } from '../config/config.js';
import type { DataLinkPort } from '../data-link/data-links.js';
import type { MediaEngine } from '../engine/media-engine.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { MixImages } from '../jobs/mix-images.js';
import type { ConnectionTracker } from '../limits/connection-tracker.js';
import type { JoinAdmission } from '../limits/join-admission.js';
import type { CustomMessageLimiter } from '../limits/rate-limiter.js';
import type { BanList } from '../room/ban-list.js';
import type { CrossRooms } from '../room/cross-room.js';
import type { LeaveDeps } from '../room/eviction.js';
import type { RoomRegistry } from '../room/room.js';
import type { TranscriberManager } from '../transcriber/transcriber-manager.js';
import type { MixStreams } from '../whep/mix-streams.js';
import type { SignalObserver } from './signal-observer.js';

/** What signalling works with (the composition root hands it these parts, nothing more). */
export interface SignalDeps extends LeaveDeps {
  config: ServerConfig;
  auth: Authenticator;
  rooms: RoomRegistry;
  engine: MediaEngine;
  /** Every participant's data link (custom messages). */
  dataLinks: DataLinkPort;
  logger: Logger;
  bans: BanList;
  /** Told what happens on the connections (messages, refusals, closings): the metrics subscribe. */
  signalObserver: SignalObserver;
  /** Open signalling connections per client address. */
  connections: ConnectionTracker;
  /** The node's join rate (joins and reconnections). */
  admission: JoinAdmission;
  /** The custom / SEI message limit per sender. */
  customMessages: CustomMessageLimiter;
  /** Set when this server is a node of a cluster (joins are admitted by it). */
  cluster?: Cluster;
  /** Media jobs, for the CDN commands. */
  jobs: JobManager;
  /** Mix background images, for the CDN commands. */
  mixImages: MixImages;
  /** Live transcription robots, for the transcriber commands. */
  transcribers: TranscriberManager;
  /** Cross-room connections, for the cross-room commands. */
  crossRooms: CrossRooms;
  /** CDN mixes played over WHEP, for the CDN commands (a mix with a streamId). */
  mixStreams: MixStreams;
}
