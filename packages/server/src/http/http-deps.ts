import type { AdminDeps } from '../admin/admin-deps.js';
import type { CloudApiDeps } from '../cloud-api/cloud-api-deps.js';
import type { Cluster } from '../cluster/cluster.js';
import type { ConnectionTracker } from '../limits/connection-tracker.js';
import type { KeyedRateLimiter } from '../limits/rate-limiter.js';
import type { WhepDeps } from '../whep/whep-deps.js';

/** What the HTTP side works with: the admin API's and the cloud API's parts, and what scheduling, uploads and health read. */
export interface HttpDeps extends AdminDeps, CloudApiDeps, WhepDeps {
  /** Open signalling connections per client address (health). */
  connections: ConnectionTracker;
  /** Log uploads and statistics beacons per client address. */
  uploads: KeyedRateLimiter;
  /** Set when this server is a node of a cluster. */
  cluster?: Cluster;
}
