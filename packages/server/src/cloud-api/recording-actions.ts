import { randomUUID } from 'node:crypto';
import type { RecordingManager, RecordingMode } from '../recording/recording-manager.js';
import type { RecordingOptions } from '../recording/recording-layout.js';
import { RoomRegistry } from '../room/room.js';
import type { CloudTask, CloudTaskStore } from '../store/cloud-task-store.js';
import type { ActionHandler } from './action.js';
import { CloudApiError, invalid } from './cloud-api-error.js';
import { model, oneOf, sdkAppId, text, type Params } from './params.js';
import { recordingOptionsOf } from './recording-params.js';
import { parseRoomRef, roomRef } from '../ids/room-ref.js';

/** The cloud recording actions answered here. */
export type RecordingActionName = 'CreateCloudRecording' | 'DescribeCloudRecording' | 'ModifyCloudRecording' | 'DeleteCloudRecording';

/** What the recording actions work with. */
export interface RecordingActionDeps {
  rooms: RoomRegistry;
  recordings: RecordingManager;
  /** Tasks are stored, so a TaskId answers after a restart. */
  tasks: CloudTaskStore;
}

/** A recording task's own fields (CloudTask.data). */
interface RecordingData {
  mode: RecordingMode;
  options: RecordingOptions;
}

/** How long after a restart an interrupted recording waits for its room's users to come back. */
export const RESUME_WINDOW_MS = 2 * 60_000;

/** The room a CreateCloudRecording names: RoomIdType 0 is a string room id, 1 (default) an integer one. */
function roomIdOf(params: Params): { roomId: string; isString: boolean } {
  const raw = text(params, 'RoomId', 64);
  const isString = oneOf(params, 'RoomIdType', [0, 1], 1) === 0;
  const id = parseRoomRef(roomRef(raw, isString));
  if (!id || (!isString && !/^\d{1,10}$/.test(raw))) throw invalid('RoomId', isString ? 'must be 1 to 64 characters' : 'must be an integer room id (or set RoomIdType 0 for a string one)');
  return id;
}

/**
 * The recordings a restart interrupted start again when their rooms' users come back within RESUME_WINDOW_MS
 * (each in a new file of the same task); `interrupted` are the tasks the store marked at start.
 */
export function resumeRecordings(deps: RecordingActionDeps, interrupted: CloudTask[], now: number): void {
  for (const task of interrupted) {
    if (task.kind !== 'recording') continue;
    const data = task.data as unknown as RecordingData;
    deps.recordings.resumeRoom(task.roomKey, data.mode, task.taskId, data.options, now + RESUME_WINDOW_MS);
    deps.tasks.put({ ...task, state: 'running', updatedAt: now });
  }
}

/**
 * CreateCloudRecording, DescribeCloudRecording, ModifyCloudRecording and DeleteCloudRecording on the recording
 * jobs: a task records its room (RecordMode 2: the mix, one MP4; 1: one MP4 per published stream) into the
 * recordings folder, files named by the TaskId, until it is deleted or the room empties. Tasks are stored.
 */
export function recordingActions(deps: RecordingActionDeps): Record<RecordingActionName, ActionHandler> {
  const taskOf = (params: Params, app: number): CloudTask => {
    sdkAppId(params, app);
    const id = text(params, 'TaskId', 128);
    const task = deps.tasks.get(id);
    if (task?.kind !== 'recording' || task.sdkAppId !== app) throw invalid('TaskId', `names no recording task of this app: ${id}`);
    return task;
  };
  /** Whether the manager records (or waits to record) the task's room for it. */
  const live = (task: CloudTask) => task.state === 'running' && deps.recordings.started(task.roomKey)?.recordId === task.taskId;
  return {
    CreateCloudRecording: (input) => {
      const { params } = input;
      const app = sdkAppId(params, input.app.sdkAppId);
      const id = roomIdOf(params);
      // The recording robot's UserId and UserSig are required by the API; no robot joins here, so they are not used.
      text(params, 'UserId', 128);
      text(params, 'UserSig', 4096);
      const recordParams = model(params, 'RecordParams');
      const recordMode = oneOf(recordParams, 'RecordMode', [1, 2], 0);
      if (recordMode === 0) throw new CloudApiError('MissingParameter.RecordMode', 'the parameter RecordParams.RecordMode is required');
      model(params, 'StorageParams');
      const options = recordingOptionsOf(recordParams, params);
      const room = deps.rooms.find(RoomRegistry.key(app, id.roomId, id.isString));
      if (!room) throw new CloudApiError('FailedOperation.RoomNotExist', `room ${id.roomId} does not exist (nobody is in it)`);
      const current = deps.recordings.started(room.key);
      if (current && deps.recordings.jobsOf(room.key).length > 0) {
        throw new CloudApiError('FailedOperation', `room ${room.ref} is already being recorded${current.recordId ? ` by task ${current.recordId}` : ''}`);
      }
      const taskId = randomUUID();
      const mode: RecordingMode = recordMode === 2 ? 'mixed' : 'per-stream';
      const now = Date.now();
      deps.tasks.put({ taskId, kind: 'recording', sdkAppId: app, roomKey: room.key, roomRef: room.ref, state: 'running', data: { mode, options }, createdAt: now, updatedAt: now });
      deps.recordings.startRoom(room, mode, taskId, options);
      input.audit(room.ref, '', `recording task ${taskId} started (${mode})`);
      return { TaskId: taskId };
    },
    DescribeCloudRecording: (input) => {
      const task = taskOf(input.params, input.app.sdkAppId);
      const started = live(task) ? deps.recordings.started(task.roomKey) : undefined;
      const running = started !== undefined && !started.waiting && deps.recordings.jobsOf(task.roomKey).length > 0;
      const files = deps.recordings.files.list(task.sdkAppId).filter((file) => file.recordId === task.taskId);
      return {
        TaskId: task.taskId,
        Status: running ? 'InProgress' : started ? 'Idle' : 'Exited',
        StorageFileList: files.map((file) => ({ FileName: file.recordingId, UserId: file.userId ?? '', TrackType: 'audio_video', BeginTimeStamp: Date.parse(file.startedAt) })),
      };
    },
    ModifyCloudRecording: (input) => {
      const task = taskOf(input.params, input.app.sdkAppId);
      const changes = recordingOptionsOf(input.params, input.params);
      if (!live(task) || !deps.recordings.modifyRoom(task.roomKey, task.taskId, changes)) {
        throw new CloudApiError('FailedOperation', `recording task ${task.taskId} has ended (deleted, its room emptied, or the server restarted and its users did not come back)`);
      }
      const data = task.data as unknown as RecordingData;
      deps.tasks.put({ ...task, data: { ...data, options: { ...data.options, ...changes } }, updatedAt: Date.now() });
      input.audit(task.roomRef, '', `recording task ${task.taskId} modified (${Object.keys(changes).join(', ') || 'nothing'})`);
      return { TaskId: task.taskId };
    },
    DeleteCloudRecording: async (input) => {
      const task = taskOf(input.params, input.app.sdkAppId);
      const wasLive = live(task);
      deps.tasks.put({ ...task, state: 'ended', updatedAt: Date.now() });
      if (wasLive) await deps.recordings.stopRoom(task.roomKey);
      input.audit(task.roomRef, '', `recording task ${task.taskId} stopped${wasLive ? '' : ' (it had ended)'}`);
      return { TaskId: task.taskId };
    },
  };
}
