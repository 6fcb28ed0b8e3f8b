import { basename } from 'node:path';
import { HTTP_CODE, MIX_IMAGE_LIMITS, SERVER_CODE } from '@conclave/protocol';
import type { AppConfig } from '../config/config.js';
import type { AdminDeps } from './admin-deps.js';
import { HttpError } from '../http/respond.js';
import { HttpFileReply, type Bindings, type RouteInput } from '../http/router.js';
import type { Room } from '../room/room.js';
import { MixImageError } from '../jobs/mix-images.js';

/** The admin API's media operations (HTTP_ROUTES). */
export type MediaAdminOperation = 'listJobs' | 'stopJob' | 'startRecording' | 'stopRecording' | 'listRecordings' | 'downloadRecording' | 'deleteRecording'
  | 'listMixImages' | 'putMixImage' | 'deleteMixImage';

/** What the media routes take from the admin API: its key check, the app it let in, a room lookup. */
export interface AdminAccess {
  before(input: RouteInput<MediaAdminOperation>): void;
  app(input: RouteInput<MediaAdminOperation>): AppConfig;
  room(app: AppConfig, roomKey: string): Room;
  /** The registry key of a room given by its admin roomKey, whether anyone is in it or not (400 when malformed). */
  roomKey(app: AppConfig, roomKey: string): string;
}

const notFound = (what: string) => new HttpError(404, HTTP_CODE.NOT_FOUND, what);

/**
 * Admin routes of media jobs and recordings (this node's): list and stop jobs (mix transcodes, CDN relays,
 * recordings), start recording a room, list, download and delete recordings; upload, list and delete mix
 * background images.
 */
export function mediaBindings(ctx: AdminDeps, access: AdminAccess): Bindings<MediaAdminOperation> {
  const { before } = access;
  const writing = (sdkAppId: number) => new Set(ctx.jobs.list(sdkAppId).filter((job) => job.state !== 'failed').flatMap((job) => job.outputs.map((o) => basename(o))));
  return {
    listJobs: { before, handle: (input) => ({ jobs: ctx.jobs.list(access.app(input).sdkAppId) }) },
    stopJob: {
      before,
      handle: async (input) => {
        const job = ctx.jobs.get(input.params.jobId);
        if (!job || job.options.sdkAppId !== access.app(input).sdkAppId) throw notFound(`no job ${input.params.jobId}`);
        await ctx.jobs.stop(job.id);
        ctx.adminObserver.emit({ type: 'action', action: 'stop_job' });
        return { stopped: true, jobId: job.id };
      },
    },
    startRecording: {
      before,
      handle: async (input) => {
        const room = access.room(access.app(input), input.params.roomKey);
        const body = await input.body();
        const mode = body.mode ?? 'mixed';
        ctx.recordings.startRoom(room, mode, body.userDefineRecordId);
        ctx.adminObserver.emit({ type: 'action', action: 'start_recording' });
        return { recording: true, roomKey: room.ref, mode };
      },
    },
    stopRecording: {
      before,
      handle: async (input) => {
        await ctx.recordings.stopRoom(access.roomKey(access.app(input), input.params.roomKey));
        ctx.adminObserver.emit({ type: 'action', action: 'stop_recording' });
        return { recording: false as const, roomKey: input.params.roomKey };
      },
    },
    listRecordings: {
      before,
      handle: (input) => {
        const { sdkAppId } = access.app(input);
        const active = writing(sdkAppId);
        return { recordings: ctx.recordings.files.list(sdkAppId).map((file) => ({ ...file, recording: active.has(file.recordingId) })) };
      },
    },
    downloadRecording: {
      before,
      handle: (input) => {
        const path = ctx.recordings.files.file(access.app(input).sdkAppId, input.params.recordingId);
        if (!path) throw notFound(`no recording ${input.params.recordingId}`);
        return new HttpFileReply(path, 'video/mp4', input.params.recordingId);
      },
    },
    deleteRecording: {
      before,
      handle: (input) => {
        const { sdkAppId } = access.app(input);
        const { recordingId } = input.params;
        if (writing(sdkAppId).has(recordingId)) throw new HttpError(409, SERVER_CODE.INVALID_PARAMETER, 'this recording is still being written; stop its job first');
        if (!ctx.recordings.files.delete(sdkAppId, recordingId)) throw notFound(`no recording ${recordingId}`);
        ctx.adminObserver.emit({ type: 'action', action: 'delete_recording' });
        return { deleted: true, recordingId };
      },
    },
    listMixImages: { before, handle: (input) => ({ images: ctx.mixImages.list(access.app(input).sdkAppId) }) },
    putMixImage: {
      before,
      // A larger body is refused (413) while it is read, before anything is stored.
      bodyLimit: () => MIX_IMAGE_LIMITS.MAX_BYTES,
      handle: async (input) => {
        const { sdkAppId } = access.app(input);
        const data = await input.body();
        try {
          const image = ctx.mixImages.put(sdkAppId, input.params.name, data);
          ctx.adminObserver.emit({ type: 'action', action: 'put_mix_image' });
          return image;
        } catch (error) {
          if (error instanceof MixImageError) throw new HttpError(error.limit ? 409 : 400, SERVER_CODE.INVALID_PARAMETER, error.message);
          throw error;
        }
      },
    },
    deleteMixImage: {
      before,
      handle: (input) => {
        const { sdkAppId } = access.app(input);
        if (!ctx.mixImages.delete(sdkAppId, input.params.name)) throw notFound(`no mix image ${input.params.name}`);
        ctx.adminObserver.emit({ type: 'action', action: 'delete_mix_image' });
        return { deleted: true, name: input.params.name };
      },
    },
  };
}
