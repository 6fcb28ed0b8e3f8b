import type { Logger } from 'pino';
import type { Authenticator } from '../auth/authenticator.js';
import type { CallbackStatus } from '../callbacks/callback-dispatcher.js';
import type { ServerConfig } from '../config/config.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { MixImages } from '../jobs/mix-images.js';
import type { RecordingManager } from '../recording/recording-manager.js';
import type { BanList } from '../room/ban-list.js';
import type { LeaveDeps } from '../room/eviction.js';
import type { RoomRegistry } from '../room/room.js';
import type { Store } from '../store/store.js';
import type { TranscriberManager } from '../transcriber/transcriber-manager.js';
import type { AdminObserver } from './admin-observer.js';

/** What the admin API works with (the composition root hands it these parts, nothing more). */
export interface AdminDeps extends LeaveDeps {
  config: ServerConfig;
  auth: Authenticator;
  rooms: RoomRegistry;
  bans: BanList;
  store: Store;
  logger: Logger;
  /** Told each action done: the metrics subscribe. */
  adminObserver: AdminObserver;
  jobs: JobManager;
  recordings: RecordingManager;
  mixImages: MixImages;
  /** Server-side robots (live transcribers), listed in the room view. */
  transcribers: Pick<TranscriberManager, 'list'>;
  /** Event callbacks' delivery figures. */
  callbacks: { status(sdkAppId: number): CallbackStatus };
}
