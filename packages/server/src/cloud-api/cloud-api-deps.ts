import type { ServerConfig } from '../config/config.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { RecordingManager } from '../recording/recording-manager.js';
import type { LeaveDeps } from '../room/eviction.js';
import type { Store } from '../store/store.js';
import type { CloudApiCluster } from './cloud-api-route.js';
import type { CloudApiObserver } from './cloud-api-observer.js';

/** What the cloud API works with (the composition root hands it these parts, nothing more). */
export interface CloudApiDeps extends LeaveDeps {
  /** The apps and their key pairs, the cloud API's limits. */
  config: ServerConfig;
  /** The audit trail: what each action did is filed with the room's logs. */
  store: Store;
  /** Told each action done (the metrics count them with the admin actions, `cloudapi.<Action>`). */
  cloudApiObserver: CloudApiObserver;
  /** Cloud recording tasks start and stop room recordings and list their files. */
  recordings: RecordingManager;
  /** CDN relay tasks are media jobs. */
  jobs: JobManager;
  /** On a cluster: requests go to the node hosting their room or running their task. */
  cluster?: CloudApiCluster;
}
