/** Redis key names of the cluster, in one place. Every key starts with `conclave:`. */
export const KEYS = {
  /** Set of node ids that ever registered (dead ones are pruned when seen without their node key). */
  nodes: 'conclave:nodes',
  /** A node's info (JSON), expiring unless its heartbeat refreshes it: a missing key means a dead node. */
  node: (id: string) => `conclave:node:${id}`,
  /** Rooms with users on a node (a set, rewritten by each heartbeat). */
  active: (id: string) => `conclave:active:${id}`,
  /** Rooms placed on a node recently (sorted set by time): counted as load before their users arrive. */
  recent: (id: string) => `conclave:recent:${id}`,
  /** The node a room lives on. */
  room: (room: string) => `conclave:room:${room}`,
  /** Lock held while a room is placed. */
  lock: (room: string) => `conclave:lock:${room}`,
  /**
   * Present (with a time-to-live) while the registry is being rebuilt: a node came back after the cluster saw
   * it dead (Redis lost its data, or was away longer than a node's time-to-live). No new room is placed until
   * it expires, so every node re-claims the rooms it still hosts first.
   */
  settling: 'conclave:settling',
  /** Admin-API bans of every app (hash: ban key → JSON). */
  bans: 'conclave:bans',
  /** Pub/sub channel announcing bans and unbans to every node. */
  banChannel: 'conclave:bans',
  /** The node a cloud API task (TaskId) was started on (with a time-to-live). */
  cloudTask: (taskId: string) => `conclave:cloud-task:${taskId}`,
  /** A cloud API signature that acted (hash: the first address, the actions), kept while its timestamp is within the clock skew. */
  cloudSignature: (signature: string) => `conclave:cloud-sig:${signature}`,
  /** The secret node-to-node requests are signed with, when no clusterSecret is configured (the first node's). */
  clusterSecret: 'conclave:cluster-secret',
} as const;

/** A room's name in the cluster: `${sdkAppId}:${roomRef}` (roomRef as the admin API names rooms). */
export function clusterRoom(sdkAppId: number, ref: string): string {
  return `${sdkAppId}:${ref}`;
}
