import { MIX_DEFAULT_ENCODING } from '@conclave/protocol';
import type { Logger } from 'pino';
import type { MediaConfig } from '../config/config.js';
import type { JobManager } from '../jobs/job-manager.js';
import { ingestUrl } from '../jobs/rtmp-target.js';
import { roomRef } from '../ids/room-ref.js';
import { RoomRegistry, type Room } from '../room/room.js';
import type { CloudTaskStore } from '../store/cloud-task-store.js';
import type { ActionHandler, ActionInput } from './action.js';
import { allowTargets, gridMixJob, type CdnJobs, type CdnSpec } from './cdn-actions.js';
import { CloudApiError, invalid } from './cloud-api-error.js';
import { integer, intRoomId, model, oneOf, sdkAppId, strRoomId, text, type Params } from './params.js';

/** The mix transcode actions answered here. */
export type McuActionName = 'StartMCUMixTranscode' | 'StartMCUMixTranscodeByStrRoomId' | 'StopMCUMixTranscode' | 'StopMCUMixTranscodeByStrRoomId';

/** What the mix transcode actions work with. */
export interface McuActionDeps {
  rooms: RoomRegistry;
  jobs: JobManager;
  cdnJobs: CdnJobs;
  config: { media: MediaConfig };
  /** A room's mix is stored as task `mcu:<roomKey>`, so Stop answers after a restart. */
  tasks: CloudTaskStore;
  logger: Logger;
}

/** The output of EncodeParams (the API's flat fields) over the defaults. */
function specOf(encode: Params): CdnSpec {
  const d = MIX_DEFAULT_ENCODING;
  const pick = (name: string, fallback: number, min: number, max: number) => (encode[name] === undefined ? fallback : integer(encode, name, min, max));
  return {
    kind: 'mix',
    width: pick('VideoWidth', d.videoWidth, 16, 1920), height: pick('VideoHeight', d.videoHeight, 16, 1080),
    fps: pick('VideoFramerate', d.videoFramerate, 1, 60), videoBitrate: pick('VideoBitrate', d.videoBitrate, 1, 10_000), gop: pick('VideoGop', d.videoGOP, 1, 5),
    audioSampleRate: integer(encode, 'AudioSampleRate', 8000, 48_000), audioBitrate: integer(encode, 'AudioBitrate', 8, 500),
    audioChannels: oneOf(encode, 'AudioChannels', [1, 2], d.audioChannels) as 1 | 2,
    background: pick('BackgroundColor', 0, 0, 0xffffff),
  };
}

/**
 * Where the mix goes: PublishCdnParams.PublishCdnUrls (`explicit`: checked against the app's rtmpHosts by the
 * caller), else the shared RTMP ingest plus `<sdkAppId>_<room>_<StreamId>` (jobs/rtmp-target.ts ingestUrl: a
 * StreamId of one app or room never takes another's stream).
 */
function urlOf(params: Params, ingest: string | undefined, room: Room): { url: string; explicit: boolean } {
  const streamId = text(model(params, 'OutputParams'), 'StreamId', 64);
  if (!/^[A-Za-z0-9_.-]+$/.test(streamId)) throw invalid('StreamId', 'must be letters, digits, _, . or -');
  const cdn = params.PublishCdnParams as Params | undefined;
  const urls = cdn?.PublishCdnUrls;
  if (Array.isArray(urls) && urls.length > 0) {
    const url: unknown = urls[0];
    if (typeof url !== 'string' || !/^rtmps?:\/\/[^\s/]+\/\S+$/.test(url)) throw invalid('PublishCdnUrls', 'must be rtmp:// or rtmps:// URLs');
    return { url, explicit: true };
  }
  if (!ingest) throw new CloudApiError('FailedOperation', 'this server has no RTMP ingest for a StreamId (media.rtmpIngest): give PublishCdnParams.PublishCdnUrls');
  return { url: ingestUrl(ingest, room.sdkAppId, room.ref, streamId), explicit: false };
}

/**
 * StartMCUMixTranscode[ByStrRoomId] and StopMCUMixTranscode[ByStrRoomId] on the CDN mix jobs: one mix per room
 * (a grid of the room's publishers, everyone's audio) to the configured RTMP ingest plus the
 * StreamId, or to PublishCdnParams' URL. Starting again replaces the room's mix. The mix is stored: after a
 * restart (its job died with the process) Stop answers.
 */
export function mcuActions(deps: McuActionDeps): Record<McuActionName, ActionHandler> {
  /** The room's mix task: its job id when it runs (or ran when the server restarted). */
  const taskId = (roomKey: string) => `mcu:${roomKey}`;
  const mixOf = (roomKey: string) => {
    const task = deps.tasks.get(taskId(roomKey));
    return task && task.state !== 'ended' ? { task, jobId: String(task.data.jobId) } : undefined;
  };
  const roomOf = (input: ActionInput, roomId: string, isString: boolean): Room => {
    const room = deps.rooms.find(RoomRegistry.key(sdkAppId(input.params, input.app.sdkAppId), roomId, isString));
    if (!room) throw new CloudApiError('FailedOperation.RoomNotExist', `room ${roomId} does not exist (nobody is in it)`);
    return room;
  };
  const start = (read: (params: Params) => string, isString: boolean): ActionHandler => async (input) => {
    const room = roomOf(input, read(input.params), isString);
    const spec = specOf(model(input.params, 'EncodeParams'));
    model(input.params, 'LayoutParams');
    const { url, explicit } = urlOf(input.params, deps.config.media.rtmpIngest, room);
    if (explicit) await allowTargets(deps.logger, input.app, [url]);
    const previous = mixOf(room.key);
    if (previous) await deps.jobs.stop(previous.jobId);
    const jobId = await deps.cdnJobs.start(gridMixJob(room, spec, [url]), deps.logger);
    const now = Date.now();
    deps.tasks.put({ taskId: taskId(room.key), kind: 'mcu', sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref, state: 'running', data: { jobId }, createdAt: now, updatedAt: now });
    input.audit(room.ref, '', `mix transcode ${jobId} started (→ ${url.replace(/\?.*$/, '')})`);
    return {};
  };
  const stop = (read: (params: Params) => string, isString: boolean): ActionHandler => async (input) => {
    const id = read(input.params);
    const app = sdkAppId(input.params, input.app.sdkAppId);
    const key = RoomRegistry.key(app, id, isString);
    const mix = mixOf(key);
    if (mix) deps.tasks.put({ ...mix.task, state: 'ended', updatedAt: Date.now() });
    // A mix a restart ended: nothing runs, as Stop wants.
    const interrupted = mix?.task.state === 'interrupted';
    if (!mix || (!interrupted && !(await deps.jobs.stop(mix.jobId)))) throw new CloudApiError('FailedOperation', `no mix transcode runs in room ${id}`);
    input.audit(roomRef(id, isString), '', `mix transcode ${mix.jobId} stopped${interrupted ? ' (it had ended when the server restarted)' : ''}`);
    return {};
  };
  const strRoom = (params: Params) => strRoomId(params, 'StrRoomId');
  return {
    StartMCUMixTranscode: start(intRoomId, false),
    StartMCUMixTranscodeByStrRoomId: start(strRoom, true),
    StopMCUMixTranscode: stop(intRoomId, false),
    StopMCUMixTranscodeByStrRoomId: stop(strRoom, true),
  };
}
