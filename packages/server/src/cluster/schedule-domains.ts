import { LIMITS, SERVER_CODE } from '@conclave/protocol';
import type { Logger } from 'pino';
import { ClusterUnavailableError, type Cluster } from './cluster.js';
import { roomRef } from '../ids/room-ref.js';

/**
 * Scheduling in a cluster: the signalling URLs of the node hosting the form's room (groupId,
 * isStrGroupId), placed now when new, and of a backup node. Undefined without a cluster; a coded
 * refusal for a bad room id, when no node can take the room, or (CLUSTER_UNAVAILABLE) when Redis stayed
 * unreachable for the whole placement wait.
 */
export async function clusterDomains(ctx: { cluster?: Cluster; logger: Logger }, sdkAppId: number, form: { groupId?: string; isStrGroupId?: string }):
  Promise<{ main: string; backup: string } | { code: number; msg: string } | undefined> {
  if (!ctx.cluster) return undefined;
  const isString = form.isStrGroupId === 'true';
  const roomId = form.groupId ?? '';
  if (isString ? roomId.length < 1 || roomId.length > LIMITS.MAX_STR_ROOM_ID_LENGTH
    : !/^\d{1,10}$/.test(roomId) || Number(roomId) < LIMITS.MIN_ROOM_ID || Number(roomId) > LIMITS.MAX_ROOM_ID) {
    return { code: SERVER_CODE.INVALID_PARAMETER, msg: 'groupId must be a room id (integer in [1, 4294967294], or a string room id with isStrGroupId true)' };
  }
  try {
    const { main, backup } = await ctx.cluster.schedule(sdkAppId, roomRef(roomId, isString));
    return { main, backup };
  } catch (error) {
    if (error instanceof ClusterUnavailableError) return { code: SERVER_CODE.CLUSTER_UNAVAILABLE, msg: error.message };
    ctx.logger.warn({ err: (error as Error).message }, 'cluster: scheduling failed');
    return { code: SERVER_CODE.INTERNAL, msg: `scheduling failed: ${(error as Error).message}` };
  }
}
