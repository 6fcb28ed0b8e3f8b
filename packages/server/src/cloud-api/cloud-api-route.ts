import type { IncomingHttpHeaders } from 'node:http';
import { roomRef } from '../ids/room-ref.js';
import type { PriorUse } from '../cluster/cloud-api-forward.js';
import type { NodeInfo } from '../cluster/node-registry.js';
import type { Params } from './params.js';

/** What a request is about, for a cluster to send it to its node: a room of the app, or a task. */
export type CloudApiSubject = { sdkAppId: number; room: string } | { taskId: string };

/**
 * What the cloud API needs of a cluster (Cluster): where a request belongs, sending it there, recording a task's
 * node, and remembering accepted signatures cluster-wide.
 */
export interface CloudApiCluster {
  cloudApiNode(headers: IncomingHttpHeaders, about: CloudApiSubject): Promise<NodeInfo | undefined>;
  /** `client`: the client's address, which the node sent to keys its limits on. */
  forwardCloudApi(node: NodeInfo, headers: IncomingHttpHeaders, payload: Buffer, client: string): Promise<{ status: number; text: string }>;
  claimCloudTask(taskId: string): Promise<void>;
  /** Records a use of `signature` (for `ttlSeconds`) cluster-wide; how it was used before. */
  claimSignature(signature: string, use: { address: string; action: string }, ttlSeconds: number): Promise<PriorUse>;
}

/** Actions naming an integer room in RoomId, a string room in RoomId, a string room in StrRoomId. */
const INT_ROOM = new Set(['DismissRoom', 'RemoveUser', 'StartMCUMixTranscode', 'StopMCUMixTranscode']);
const STR_ROOM = new Set(['DismissRoomByStrRoomId', 'RemoveUserByStrRoomId']);
const STR_ROOM_ID = new Set(['StartMCUMixTranscodeByStrRoomId', 'StopMCUMixTranscodeByStrRoomId']);
/** Actions on a task (TaskId). */
const TASK = new Set(['DescribeCloudRecording', 'ModifyCloudRecording', 'DeleteCloudRecording', 'UpdatePublishCdnStream', 'StopPublishCdnStream']);
/** Actions that start a task on the node that answers them. */
export const STARTS_TASK: ReadonlySet<string> = new Set(['CreateCloudRecording', 'StartPublishCdnStream']);

const room = (sdkAppId: number, id: unknown, isString: boolean): CloudApiSubject | undefined => {
  if (isString ? typeof id !== 'string' || id === '' : typeof id !== 'number' && !(typeof id === 'string' && /^\d{1,10}$/.test(id))) return undefined;
  return { sdkAppId, room: roomRef(String(id), isString) };
};

/**
 * The room or task a request is about, read leniently from its parameters (a malformed one is undefined: the
 * node it reached answers it, with the parameter's error). The call-record actions are about no one node.
 */
export function subjectOf(action: string, params: Params, sdkAppId: number): CloudApiSubject | undefined {
  if (INT_ROOM.has(action)) return room(sdkAppId, params.RoomId, false);
  if (STR_ROOM.has(action)) return room(sdkAppId, params.RoomId, true);
  if (STR_ROOM_ID.has(action)) return room(sdkAppId, params.StrRoomId, true);
  // CreateCloudRecording: RoomIdType 0 is a string room (default 1, integer); StartPublishCdnStream: 1 is a string room.
  if (action === 'CreateCloudRecording') return room(sdkAppId, params.RoomId, params.RoomIdType === 0);
  if (action === 'StartPublishCdnStream') return room(sdkAppId, params.RoomId, params.RoomIdType === 1);
  if (TASK.has(action) && typeof params.TaskId === 'string' && params.TaskId !== '') return { taskId: params.TaskId };
  return undefined;
}
