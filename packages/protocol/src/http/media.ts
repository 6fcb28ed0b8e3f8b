/** Admin REST API of media jobs (mix transcodes, CDN relays, recordings) and recording files. */
import { z } from 'zod';
import { MIX_IMAGE_NAME } from '../cdn.js';
import { dateTime } from './fields.js';

/** Path parameters of the media admin routes. */
export const adminMediaParams = z.object({
  sdkAppId: z.string().meta({ description: "The app; the admin key must be this app's." }),
  roomKey: z.string().min(1).meta({ description: 'The room: "1234", or "s:" followed by the string room id, URL-encoded.' }),
  jobId: z.string().min(1).max(64).meta({ description: 'A job id from the job list.' }),
  recordingId: z.string().min(1).max(255).meta({ description: 'A recording file name from the recording list.' }),
  name: z.string().regex(MIX_IMAGE_NAME, 'must be 1 to 64 letters, digits, hyphens or underscores')
    .meta({ description: "A mix background image's name (what mix.backgroundImage names): 1 to 64 letters, digits, hyphens or underscores." }),
});

/** A media job: one GStreamer pipeline fed by the media engine over loopback RTP. */
export const adminJob = z.object({
  jobId: z.string(),
  kind: z.enum(['cdn-mix', 'cdn-main', 'cdn-sub', 'record-mix', 'record-stream']),
  roomKey: z.string(),
  ownerUserId: z.string().nullable(),
  state: z.enum(['starting', 'running', 'restarting', 'stopped', 'failed']),
  restarts: z.int(),
  /** Encoded frames per second over the last seconds. */
  fps: z.number(),
  frames: z.int(),
  pid: z.int().nullable(),
  /** RTMP URLs (without query) or recording file paths. */
  outputs: z.array(z.string()),
  inputs: z.array(z.object({ userId: z.string(), stream: z.enum(['main', 'aux']), bound: z.boolean(), lastRtpSeq: z.int() })),
  startedAt: dateTime,
  lastError: z.string().nullable(),
}).meta({ id: 'MediaJob' });
export const adminJobsReply = z.object({ jobs: z.array(adminJob) });
export const adminStopJobReply = z.object({ stopped: z.literal(true), jobId: z.string() });

export const adminStartRecordingBody = z.strictObject({
  /** 'mixed' (one file of the room, default) or 'per-stream' (a file per user and stream). */
  mode: z.enum(['mixed', 'per-stream']).optional(),
  userDefineRecordId: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, hyphen or underscore').optional(),
});
export const adminStartRecordingReply = z.object({ recording: z.literal(true), roomKey: z.string(), mode: z.enum(['mixed', 'per-stream']) });
export const adminStopRecordingReply = z.object({ recording: z.literal(false), roomKey: z.string() });

/** A recording file (MP4, H264 + AAC) in the storage folder. */
export const adminRecording = z.object({
  recordingId: z.string(),
  /** userDefineRecordId when given, else the room key. */
  recordId: z.string(),
  roomKey: z.string(),
  kind: z.enum(['mixed', 'stream']),
  /** The user of a per-stream recording. */
  userId: z.string().nullable(),
  startedAt: dateTime,
  bytes: z.int(),
  /** True while a job is still writing it. */
  recording: z.boolean(),
}).meta({ id: 'Recording' });
export const adminRecordingsReply = z.object({ recordings: z.array(adminRecording) });
export const adminDeleteRecordingReply = z.object({ deleted: z.literal(true), recordingId: z.string() });

/** A mix background image in the app's image folder (mix.backgroundImage names it). */
export const adminMixImage = z.object({
  name: z.string(),
  type: z.enum(['png', 'jpeg']),
  width: z.int(),
  height: z.int(),
  bytes: z.int(),
  updatedAt: dateTime,
}).meta({ id: 'MixImage' });
export const adminMixImagesReply = z.object({ images: z.array(adminMixImage) });
export const adminDeleteMixImageReply = z.object({ deleted: z.literal(true), name: z.string() });
