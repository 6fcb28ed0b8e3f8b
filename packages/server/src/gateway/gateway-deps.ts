import type { AdminDeps } from '../admin/admin-deps.js';
import type { CloudApiDeps } from '../cloud-api/cloud-api-deps.js';
import type { Cluster } from '../cluster/cluster.js';
import type { OpsEndpointDeps } from '../http/ops.js';
import type { ScheduleDeps } from '../http/schedule.js';
import type { SdkEndpointDeps } from '../http/endpoints.js';
import type { ConnectionTracker } from '../limits/connection-tracker.js';
import type { Metrics } from '../ops/metrics.js';
import type { RoomRegistry } from '../room/room.js';
import type { Store } from '../store/store.js';
import type { WhepDeps } from '../whep/whep-deps.js';

/**
 * What the gateway works with: the parts of every transport it mounts (admin API, server API, WHEP, scheduling,
 * the SDK's endpoints, health), which it hands each of them, and what it checks itself (node-to-node requests,
 * connections per address).
 */
export interface GatewayDeps extends AdminDeps, CloudApiDeps, WhepDeps, ScheduleDeps, SdkEndpointDeps, OpsEndpointDeps {
  // The whole parts, of which the endpoints' deps name the few methods they use.
  metrics: Metrics;
  rooms: RoomRegistry;
  store: Store;
  /** Open signalling connections per client address (health). */
  connections: ConnectionTracker;
  /** Set when this server is a node of a cluster. */
  cluster?: Cluster;
}
