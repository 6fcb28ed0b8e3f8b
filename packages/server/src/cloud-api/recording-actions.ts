import { randomUUID } from 'node:crypto';
import type { RecordingManager } from '../recording/recording-manager.js';
import { RoomRegistry } from '../room/room.js';
import type { ActionHandler } from './action.js';
import { CloudApiError, invalid } from './cloud-api-error.js';
import { model, oneOf, sdkAppId, text, type Params } from './params.js';
import { parseRoomRef, roomRef } from '../ids/room-ref.js';

/** The cloud recording actions answered here. */
export type RecordingActionName = 'CreateCloudRecording' | 'DescribeCloudRecording' | 'DeleteCloudRecording';

/** What the recording actions work with. */
export interface RecordingActionDeps {
  rooms: RoomRegistry;
  recordings: RecordingManager;
}

/** A recording task: one CreateCloudRecording, recording one room until DeleteCloudRecording or the room empties. */
interface Task {
  sdkAppId: number;
  roomKey: string;
  roomRef: string;
  deleted: boolean;
}

/** Tasks remembered (ended ones too, so their files can still be described); the oldest are forgotten past this. */
const MAX_TASKS = 10_000;

/** The room a CreateCloudRecording names: RoomIdType 0 is a string room id, 1 (default) an integer one. */
function roomIdOf(params: Params): { roomId: string; isString: boolean } {
  const raw = text(params, 'RoomId', 64);
  const isString = oneOf(params, 'RoomIdType', [0, 1], 1) === 0;
  const id = parseRoomRef(roomRef(raw, isString));
  if (!id || (!isString && !/^\d{1,10}$/.test(raw))) throw invalid('RoomId', isString ? 'must be 1 to 64 characters' : 'must be an integer room id (or set RoomIdType 0 for a string one)');
  return id;
}

/**
 * CreateCloudRecording, DescribeCloudRecording and DeleteCloudRecording on the recording jobs: a task records
 * its room (RecordMode 2: the mix, one MP4; 1: one MP4 per published stream) into the recordings folder, files
 * named by the TaskId, until it is deleted or the room empties.
 */
export function recordingActions(deps: RecordingActionDeps): Record<RecordingActionName, ActionHandler> {
  const tasks = new Map<string, Task>();
  const taskOf = (params: Params, app: number): { id: string; task: Task } => {
    sdkAppId(params, app);
    const id = text(params, 'TaskId', 128);
    const task = tasks.get(id);
    if (!task || task.sdkAppId !== app) throw invalid('TaskId', `names no recording task of this app: ${id}`);
    return { id, task };
  };
  return {
    CreateCloudRecording: (input) => {
      const { params } = input;
      const app = sdkAppId(params, input.app.sdkAppId);
      const id = roomIdOf(params);
      // The recording robot's UserId and UserSig are required by the API; no robot joins here, so they are not used.
      text(params, 'UserId', 128);
      text(params, 'UserSig', 4096);
      const recordMode = oneOf(model(params, 'RecordParams'), 'RecordMode', [1, 2], 0);
      if (recordMode === 0) throw new CloudApiError('MissingParameter.RecordMode', 'the parameter RecordParams.RecordMode is required');
      model(params, 'StorageParams');
      const room = deps.rooms.find(RoomRegistry.key(app, id.roomId, id.isString));
      if (!room) throw new CloudApiError('FailedOperation.RoomNotExist', `room ${id.roomId} does not exist (nobody is in it)`);
      for (const [other, task] of tasks) {
        if (task.roomKey === room.key && !task.deleted && deps.recordings.jobsOf(room.key).length > 0) {
          throw new CloudApiError('FailedOperation', `room ${room.ref} is already being recorded by task ${other}`);
        }
      }
      const taskId = randomUUID();
      if (tasks.size >= MAX_TASKS) tasks.delete(tasks.keys().next().value as string);
      tasks.set(taskId, { sdkAppId: app, roomKey: room.key, roomRef: room.ref, deleted: false });
      deps.recordings.startRoom(room, recordMode === 2 ? 'mixed' : 'per-stream', taskId);
      input.audit(room.ref, '', `recording task ${taskId} started (${recordMode === 2 ? 'mixed' : 'per-stream'})`);
      return { TaskId: taskId };
    },
    DescribeCloudRecording: (input) => {
      const { id, task } = taskOf(input.params, input.app.sdkAppId);
      const running = deps.recordings.jobsOf(task.roomKey).length > 0;
      const ended = task.deleted || !deps.rooms.find(task.roomKey);
      const files = deps.recordings.files.list(task.sdkAppId).filter((file) => file.recordId === id);
      return {
        TaskId: id,
        Status: running && !task.deleted ? 'InProgress' : ended ? 'Exited' : 'Idle',
        StorageFileList: files.map((file) => ({ FileName: file.recordingId, UserId: file.userId ?? '', TrackType: 'audio_video', BeginTimeStamp: Date.parse(file.startedAt) })),
      };
    },
    DeleteCloudRecording: async (input) => {
      const { id, task } = taskOf(input.params, input.app.sdkAppId);
      task.deleted = true;
      await deps.recordings.stopRoom(task.roomKey);
      input.audit(task.roomRef, '', `recording task ${id} stopped`);
      return { TaskId: id };
    },
  };
}
