import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { HTTP_CODE, SERVER_CODE } from '@conclave/protocol';
import { z } from 'zod';
import { readBody, type Route } from '../admin/admin-api.js';
import type { ServerContext } from '../context.js';
import { HttpError } from '../http/respond.js';
import { parseRoomRef } from '../room/room-ref.js';
import { RoomRegistry } from '../room/room.js';

const startRecordingSchema = z.strictObject({
  mode: z.enum(['mixed', 'per-stream']).optional(),
  userDefineRecordId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, hyphen or underscore').optional(),
});

const notFound = (what: string) => new HttpError(404, HTTP_CODE.NOT_FOUND, what);

/**
 * Admin routes of media jobs and recordings: list and stop jobs (mix transcodes, CDN relays, recordings),
 * start recording a room, list, download and delete recordings.
 */
export function mediaRoutes(ctx: ServerContext, base: string): Route[] {
  return [
    {
      method: 'GET', path: `${base}/jobs`,
      handle: ({ app }) => ({ jobs: ctx.jobs.list(app.sdkAppId) }),
    },
    {
      method: 'DELETE', path: `${base}/jobs/{jobId}`,
      handle: async ({ app, params }) => {
        const job = ctx.jobs.get(params.jobId);
        if (!job || job.options.sdkAppId !== app.sdkAppId) throw notFound(`no job ${params.jobId}`);
        await ctx.jobs.stop(job.id);
        ctx.metrics.adminAction('stop_job');
        return { stopped: true, jobId: job.id };
      },
    },
    {
      method: 'POST', path: `${base}/rooms/{roomKey}/recordings`,
      handle: async ({ app, params, req }) => {
        const body = await readBody(req, startRecordingSchema);
        const id = parseRoomRef(params.roomKey);
        if (!id) throw new HttpError(400, SERVER_CODE.INVALID_PARAMETER, 'roomKey must be an integer room id or "s:" followed by a string room id');
        const room = ctx.rooms.find(RoomRegistry.key(app.sdkAppId, id.roomId, id.isString));
        if (!room) throw notFound(`room ${params.roomKey} has nobody in it`);
        const mode = body.mode ?? 'mixed';
        ctx.recordings.startRoom(room, mode, body.userDefineRecordId);
        ctx.metrics.adminAction('start_recording');
        return { recording: true, roomKey: room.ref, mode };
      },
    },
    {
      method: 'GET', path: `${base}/recordings`,
      handle: ({ app }) => {
        const active = new Set(ctx.jobs.list(app.sdkAppId).flatMap((job) => job.outputs.map((o) => basename(o))));
        return { recordings: ctx.recordings.files.list(app.sdkAppId).map((file) => ({ ...file, recording: active.has(file.recordingId) })) };
      },
    },
    {
      method: 'GET', path: `${base}/recordings/{recordingId}`,
      handle: async ({ app, params, res }) => {
        const path = ctx.recordings.files.file(app.sdkAppId, params.recordingId);
        if (!path) throw notFound(`no recording ${params.recordingId}`);
        const { size } = await stat(path);
        res.writeHead(200, {
          'content-type': 'video/mp4', 'content-length': String(size),
          'content-disposition': `attachment; filename="${params.recordingId}"`,
        });
        await new Promise<void>((resolve, reject) => {
          const stream = createReadStream(path);
          stream.on('error', reject);
          res.on('close', () => { stream.destroy(); resolve(); });
          stream.pipe(res);
        });
        return undefined;
      },
    },
    {
      method: 'DELETE', path: `${base}/recordings/{recordingId}`,
      handle: ({ app, params }) => {
        const active = ctx.jobs.list(app.sdkAppId).some((job) => job.outputs.some((o) => basename(o) === params.recordingId));
        if (active) throw new HttpError(409, SERVER_CODE.INVALID_PARAMETER, 'this recording is still being written; stop its job first');
        if (!ctx.recordings.files.delete(app.sdkAppId, params.recordingId)) throw notFound(`no recording ${params.recordingId}`);
        ctx.metrics.adminAction('delete_recording');
        return { deleted: true, recordingId: params.recordingId };
      },
    },
  ];
}
