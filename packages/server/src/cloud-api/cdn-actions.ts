import { MIX_DEFAULT_ENCODING } from '@conclave/protocol';
import { hasPrivilege, PRIVILEGE } from '@conclave/usersig';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { JobLimitError, type JobManager } from '../jobs/job-manager.js';
import { CDN_FAILED, checkRtmpTarget } from '../jobs/rtmp-target.js';
import { gridInputs } from '../recording/recording-manager.js';
import { RoomRegistry, type Room } from '../room/room.js';
import type { CloudTask, CloudTaskStore } from '../store/cloud-task-store.js';
import type { ActionHandler } from './action.js';
import { CloudApiError, invalid, missing } from './cloud-api-error.js';
import { integer, model, oneOf, sdkAppId, text, type Params } from './params.js';

/** The CDN relay actions answered here. */
export type CdnActionName = 'StartPublishCdnStream' | 'UpdatePublishCdnStream' | 'StopPublishCdnStream';

/** What the CDN actions work with. */
export interface CdnActionDeps {
  rooms: RoomRegistry;
  jobs: JobManager;
  cdnJobs: CdnJobs;
  /** Tasks are stored, so a TaskId answers after a restart. */
  tasks: CloudTaskStore;
  /** Why a target was refused or a job failed: the server's log (the answer says only CDN_FAILED). */
  logger: Logger;
}

/**
 * Checks the RTMP URLs a request names against the app's rtmpHosts (docs/behaviour.md §5.5): a refusal is
 * answered like a failed connection, FailedOperation with CDN_FAILED; the reason goes to the log.
 */
export async function allowTargets(logger: Logger, app: AppConfig, urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    try {
      await checkRtmpTarget(url, app.rtmpHosts ?? []);
    } catch (error) {
      logger.warn({ app: app.sdkAppId, reason: (error as Error).message }, 'cloud-api: CDN target refused');
      throw new CloudApiError('FailedOperation', CDN_FAILED);
    }
  }
}

/** The most RTMP URLs one task publishes to (the API's limit). */
const MAX_URLS = 10;

/** The RTMP URLs of PublishCdnParams (1 to 10, rtmp:// or rtmps://). */
function urlsOf(params: Params): string[] {
  const list = params.PublishCdnParams;
  if (list === undefined || list === null) throw missing('PublishCdnParams');
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_URLS) throw invalid('PublishCdnParams', `must list 1 to ${MAX_URLS} CDN URLs (relaying back into a room is not supported here)`);
  return list.map((entry: unknown) => {
    const url = typeof entry === 'object' && entry !== null ? (entry as Params).PublishCdnUrl : undefined;
    if (typeof url !== 'string' || !/^rtmps?:\/\/[^\s/]+\/\S+$/.test(url)) throw invalid('PublishCdnUrl', 'must be an rtmp:// or rtmps:// URL');
    return url;
  });
}

/** The encoding of the output: VideoParams.VideoEncode and AudioParams.AudioEncode over the defaults. */
function encodingOf(params: Params, kind: 'mix' | 'relay') {
  const video = (params.VideoParams as Params | undefined)?.VideoEncode as Params | undefined;
  const audio = (params.AudioParams as Params | undefined)?.AudioEncode as Params | undefined;
  const d = MIX_DEFAULT_ENCODING;
  const pick = (from: Params | undefined, name: string, fallback: number, min: number, max: number) => (from?.[name] === undefined ? fallback : integer(from, name, min, max));
  return {
    kind,
    width: pick(video, 'Width', d.videoWidth, 16, 1920), height: pick(video, 'Height', d.videoHeight, 16, 1920),
    fps: pick(video, 'Fps', d.videoFramerate, 1, 60), videoBitrate: pick(video, 'BitRate', d.videoBitrate, 50, 10_000), gop: pick(video, 'Gop', d.videoGOP, 1, 10),
    audioSampleRate: pick(audio, 'SampleRate', d.audioSampleRate, 8000, 48_000), audioBitrate: pick(audio, 'BitRate', d.audioBitrate, 8, 500),
    audioChannels: oneOf(audio ?? {}, 'Channel', [1, 2], d.audioChannels) as 1 | 2,
    background: 0,
  };
}

/** The pipeline settings of a CDN job (PipelineSpec without its outputs). */
export type CdnSpec = Parameters<JobManager['start']>[0]['spec'];

/**
 * A mix job of the room's publishers to `urls`; it ends when stopped or when the room empties. Throws
 * FailedOperation when nobody publishes yet.
 */
export function gridMixJob(room: Room, spec: CdnSpec, urls: string[]): Parameters<JobManager['start']>[0] {
  const inputs = gridInputs(room, spec.width, spec.height);
  if (inputs.length === 0) throw new CloudApiError('FailedOperation', `nobody publishes in room ${room.ref}: nothing to mix`);
  return { kind: 'cdn-mix', sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref, spec, inputs, outputs: () => urls.map((url) => ({ type: 'rtmp' as const, url })) };
}

/**
 * The cloud API's CDN jobs: starts them, and keeps each mix a grid of whoever publishes now (users who start
 * or stop publishing, join or leave are added and removed on the job manager's tick, as the mixed recording does).
 */
export class CdnJobs {
  readonly #jobs: JobManager;
  /** Mix job id → the inputs it last got. */
  readonly #grids = new Map<string, string>();

  constructor(jobs: JobManager) {
    this.#jobs = jobs;
    jobs.watch((rooms) => this.#relayout(rooms));
  }

  /**
   * Starts a CDN job; resolves with its id. Past a job cap: LimitExceeded. Any other failure: FailedOperation
   * with CDN_FAILED, whatever the cause (no port-state oracle), the reason told to `logger`.
   */
  async start(job: Parameters<JobManager['start']>[0], logger: Logger): Promise<string> {
    let id: string;
    try {
      id = (await this.#jobs.start(job)).id;
    } catch (error) {
      if (error instanceof JobLimitError) throw new CloudApiError('LimitExceeded', error.message);
      logger.warn({ app: job.sdkAppId, room: job.roomRef, kind: job.kind, reason: error instanceof Error ? error.message : String(error) }, 'cloud-api: CDN job failed to start');
      throw new CloudApiError('FailedOperation', CDN_FAILED);
    }
    if (job.kind === 'cdn-mix') this.#grids.set(id, JSON.stringify(job.inputs));
    return id;
  }

  #relayout(rooms: Room[]): void {
    const byKey = new Map(rooms.map((room) => [room.key, room]));
    for (const [id, last] of this.#grids) {
      const job = this.#jobs.get(id);
      if (!job) {
        this.#grids.delete(id);
        continue;
      }
      const room = byKey.get(job.options.roomKey);
      const inputs = room ? gridInputs(room, job.options.spec.width, job.options.spec.height) : [];
      const signature = JSON.stringify(inputs);
      if (inputs.length === 0 || signature === last) continue;
      this.#grids.set(id, signature);
      void job.setInputs(inputs);
    }
  }
}

/** The room of a StartPublishCdnStream: RoomIdType 0 is an integer room id, 1 a string one. */
function roomOf(deps: CdnActionDeps, params: Params, app: number): Room {
  const raw = text(params, 'RoomId', 64);
  const isString = oneOf(params, 'RoomIdType', [0, 1], -1);
  if (isString === -1) throw missing('RoomIdType');
  if (isString === 0 && !/^\d{1,10}$/.test(raw)) throw invalid('RoomId', 'must be an integer room id when RoomIdType is 0');
  const room = deps.rooms.find(RoomRegistry.key(app, raw, isString === 1));
  if (!room) throw new CloudApiError('FailedOperation.RoomNotExist', `room ${raw} does not exist (nobody is in it)`);
  return room;
}

/** What a task was started or last updated with (the fields UpdatePublishCdnStream may change). */
type TaskParams = Pick<Params, 'WithTranscoding' | 'VideoParams' | 'AudioParams' | 'SingleSubscribeParams' | 'PublishCdnParams'>;

/** A CDN task's own fields (CloudTask.data): its job now (an update replaces the job), its parameters, its last SequenceNumber. */
interface CdnData {
  jobId: string;
  params: TaskParams;
  sequence: number;
}

/** The job of a task's parameters in `room`. */
function cdnJob(room: Room, params: Params): Parameters<JobManager['start']>[0] {
  const transcode = oneOf(params, 'WithTranscoding', [0, 1], -1);
  if (transcode === -1) throw missing('WithTranscoding');
  const urls = urlsOf(params);
  if (transcode === 1) return gridMixJob(room, encodingOf(params, 'mix'), urls);
  const stream = model(model(params, 'SingleSubscribeParams'), 'UserMediaStream');
  const userId = text(model(stream, 'UserInfo'), 'UserId', 128);
  const sub = oneOf(stream, 'StreamType', [0, 1], 0) === 1;
  const user = room.get(userId);
  if (!user) throw new CloudApiError('FailedOperation.UserNotExist', `user ${userId} is not in room ${room.ref}`);
  // docs/behaviour.md §5.5: a relay carries the user's stream only if its privileges let it send it.
  if (!hasPrivilege(user.privileges, sub ? PRIVILEGE.SEND_SUB_VIDEO : PRIVILEGE.SEND_VIDEO)) {
    throw new CloudApiError('FailedOperation', `user ${userId} may not send its ${sub ? 'sub stream' : 'main stream'} (privateMapKey): nothing to relay`);
  }
  return {
    kind: sub ? 'cdn-sub' : 'cdn-main', sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref, ownerId: user.id, ownerUserId: userId,
    spec: encodingOf(params, 'relay'), inputs: [{ userId, stream: sub ? 'aux' : 'main', video: true, audio: !sub }],
    outputs: () => urls.map((url) => ({ type: 'rtmp' as const, url })),
  };
}

const described = (job: Parameters<JobManager['start']>[0], urls: string[]) => `${job.kind} → ${urls.map((u) => u.replace(/\?.*$/, '')).join(', ')}`;

/**
 * StartPublishCdnStream, UpdatePublishCdnStream and StopPublishCdnStream on the CDN media jobs. Without
 * transcoding, the user of SingleSubscribeParams is relayed (camera or screen, as published) until the task
 * stops or the user leaves; with transcoding, a grid of the room's publishers is mixed until the task stops or
 * the room empties. An update replaces the task's job with one of the merged parameters (its RTMP output
 * reconnects); the TaskId stays. Tasks are stored: after a restart (their jobs died with the process) Stop
 * answers and forgets one, Update refuses it (FailedOperation).
 */
export function cdnActions(deps: CdnActionDeps): Record<CdnActionName, ActionHandler> {
  /** The task, running (its job alive) or interrupted by a restart; any other TaskId is InvalidParameter.TaskId. */
  const taskOf = (params: Params, app: number): { task: CloudTask; data: CdnData } => {
    const taskId = text(params, 'TaskId', 128);
    const task = deps.tasks.get(taskId);
    const data = task?.data as CdnData | undefined;
    const alive = task?.state === 'running' && data !== undefined && deps.jobs.get(data.jobId) !== undefined;
    if (!task || !data || task.kind !== 'cdn' || task.sdkAppId !== app || (!alive && task.state !== 'interrupted')) {
      throw invalid('TaskId', `names no running CDN task of this app: ${taskId}`);
    }
    return { task, data };
  };
  const save = (task: CloudTask, data: CdnData, state = task.state) => deps.tasks.put({ ...task, state, data: { ...data }, updatedAt: Date.now() });
  return {
    StartPublishCdnStream: async (input) => {
      const { params } = input;
      const app = sdkAppId(params, input.app.sdkAppId);
      const room = roomOf(deps, params, app);
      model(params, 'AgentParams');
      const job = cdnJob(room, params);
      await allowTargets(deps.logger, input.app, urlsOf(params));
      const taskId = await deps.cdnJobs.start(job, deps.logger);
      const { WithTranscoding, VideoParams, AudioParams, SingleSubscribeParams, PublishCdnParams } = params;
      const now = Date.now();
      const data: CdnData = { jobId: taskId, params: { WithTranscoding, VideoParams, AudioParams, SingleSubscribeParams, PublishCdnParams }, sequence: -1 };
      deps.tasks.put({ taskId, kind: 'cdn', sdkAppId: app, roomKey: room.key, roomRef: room.ref, state: 'running', data: { ...data }, createdAt: now, updatedAt: now });
      input.audit(room.ref, job.ownerUserId ?? '', `CDN task ${taskId} started (${described(job, urlsOf(params))})`);
      return { TaskId: taskId };
    },
    UpdatePublishCdnStream: async (input) => {
      const { params } = input;
      const app = sdkAppId(params, input.app.sdkAppId);
      const { task, data } = taskOf(params, app);
      const taskId = task.taskId;
      if (task.state === 'interrupted') throw new CloudApiError('FailedOperation', `CDN task ${taskId} ended when the server restarted: start another`);
      const sequence = integer(params, 'SequenceNumber', 0, Number.MAX_SAFE_INTEGER);
      if (sequence <= data.sequence) throw invalid('SequenceNumber', `must be greater than the task's last one (${data.sequence})`);
      if (params.WithTranscoding !== undefined && params.WithTranscoding !== data.params.WithTranscoding) {
        throw new CloudApiError('FailedOperation', 'WithTranscoding cannot change on a running task: stop it and start another');
      }
      const merged: TaskParams = { ...data.params };
      for (const name of ['VideoParams', 'AudioParams', 'SingleSubscribeParams', 'PublishCdnParams'] as const) if (params[name] !== undefined) merged[name] = params[name];
      const old = deps.jobs.get(data.jobId);
      const room = old && deps.rooms.find(old.options.roomKey);
      if (!old || !room) throw invalid('TaskId', `names no running CDN task of this app: ${taskId}`);
      // Checked before the running job stops, so a bad update leaves the task as it was.
      const job = cdnJob(room, merged);
      await allowTargets(deps.logger, input.app, urlsOf(merged));
      // The old job ends first: an RTMP server takes one publisher per stream name.
      await deps.jobs.stop(data.jobId);
      const jobId = await deps.cdnJobs.start(job, deps.logger);
      save(task, { jobId, params: merged, sequence });
      input.audit(room.ref, job.ownerUserId ?? '', `CDN task ${taskId} updated (${described(job, urlsOf(merged))})`);
      return { TaskId: taskId };
    },
    StopPublishCdnStream: async (input) => {
      const app = sdkAppId(input.params, input.app.sdkAppId);
      const { task, data } = taskOf(input.params, app);
      const job = deps.jobs.get(data.jobId);
      await deps.jobs.stop(data.jobId);
      save(task, data, 'ended');
      input.audit(task.roomRef, job?.options.ownerUserId ?? '', `CDN task ${task.taskId} stopped${task.state === 'interrupted' ? ' (it had ended when the server restarted)' : ''}`);
      return { TaskId: task.taskId };
    },
  };
}
