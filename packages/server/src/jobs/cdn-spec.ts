import { CDN_PUBLISH_MODES, MIX_DEFAULT_ENCODING, MIX_LIMITS, type CdnStartData } from '@conclave/protocol';
import { z } from 'zod';
import type { PipelineSpec } from './job-process.js';
import type { JobInput } from './media-job.js';

const int = (min: number, max: number) => z.number().int('must be an integer').min(min, `must be between [${min}, ${max}]`).max(max, `must be between [${min}, ${max}]`);
const USER = z.string().min(1).max(128);
const STREAM_ID = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, hyphen or underscore');

/** cdn-start / cdn-update data as the server accepts it (SPEC §5 mix rules; the SDK checks the same first). */
export const cdnStartSchema = z.strictObject({
  publishMode: z.enum(CDN_PUBLISH_MODES as [string, ...string[]]),
  url: z.string().max(1024).regex(/^rtmps?:\/\/[^\s/]+\/\S+$/, 'must be an rtmp:// or rtmps:// URL').optional(),
  streamId: STREAM_ID.optional(),
  encoding: z.strictObject({
    videoWidth: int(16, MIX_LIMITS.MAX_WIDTH).optional(),
    videoHeight: int(16, MIX_LIMITS.MAX_HEIGHT).optional(),
    videoBitrate: int(64, 20_000).optional(),
    videoFramerate: int(...MIX_LIMITS.FRAMERATE).optional(),
    videoGOP: int(...MIX_LIMITS.GOP).optional(),
    audioSampleRate: z.union([z.literal(48000), z.literal(44100), z.literal(32000), z.literal(16000)]).optional(),
    audioBitrate: int(...MIX_LIMITS.AUDIO_BITRATE).optional(),
    audioChannels: z.union([z.literal(1), z.literal(2)]).optional(),
  }).optional(),
  mix: z.strictObject({
    backgroundColor: int(0, 0xffffff).optional(),
    backgroundImage: z.string().max(1024).optional(),
    audioMixUserList: z.array(USER).max(MIX_LIMITS.MAX_LAYOUTS).optional(),
    videoLayoutList: z.array(z.strictObject({
      userId: USER,
      streamType: z.enum(['main', 'sub']),
      fillMode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      width: int(0, MIX_LIMITS.MAX_WIDTH),
      height: int(0, MIX_LIMITS.MAX_HEIGHT),
      locationX: int(0, MIX_LIMITS.MAX_WIDTH),
      locationY: int(0, MIX_LIMITS.MAX_HEIGHT),
      zOrder: int(...MIX_LIMITS.Z_ORDER),
    })).max(MIX_LIMITS.MAX_LAYOUTS),
  }).optional(),
});

const DEFAULT_ENCODING = MIX_DEFAULT_ENCODING;

/** A rule of SPEC §5 a request breaks; the message says which. */
export class MixRuleError extends Error {}

/** The pipeline settings of a CDN job. */
export function pipelineOf(data: CdnStartData): Omit<PipelineSpec, 'outputs'> {
  const e = { ...DEFAULT_ENCODING, ...data.encoding };
  return {
    kind: data.publishMode === 'PublishMixStreamToCDN' ? 'mix' : 'relay',
    width: e.videoWidth, height: e.videoHeight, fps: e.videoFramerate, videoBitrate: e.videoBitrate, gop: e.videoGOP,
    audioBitrate: e.audioBitrate, audioSampleRate: e.audioSampleRate, audioChannels: e.audioChannels,
    background: data.mix?.backgroundColor ?? 0,
  };
}

/**
 * The inputs of a CDN job. A mix: each layout rectangle (users must include the caller and every rectangle
 * must lie inside the output, SPEC §5); audio from audioMixUserList, or else from the layout's users.
 * A relay: the caller's main or sub stream.
 */
export function inputsOf(data: CdnStartData, selfUserId: string): JobInput[] {
  if (data.publishMode !== 'PublishMixStreamToCDN') {
    return [{ userId: selfUserId, stream: data.publishMode === 'PublishSubStreamToCDN' ? 'aux' : 'main', video: true, audio: data.publishMode === 'PublishMainStreamToCDN' }];
  }
  const mix = data.mix;
  if (!mix || mix.videoLayoutList.length === 0) throw new MixRuleError('mix.videoLayoutList is required for PublishMixStreamToCDN');
  const { videoWidth, videoHeight } = { ...DEFAULT_ENCODING, ...data.encoding };
  const audioUsers = new Set(mix.audioMixUserList ?? mix.videoLayoutList.map((l) => l.userId));
  const users = new Set([...mix.videoLayoutList.map((l) => l.userId), ...audioUsers]);
  if (!users.has(selfUserId)) throw new MixRuleError(`the mixed users must include yourself (${selfUserId})`);
  const inputs = new Map<string, JobInput>();
  for (const [i, l] of mix.videoLayoutList.entries()) {
    if (l.locationX + l.width > videoWidth || l.locationY + l.height > videoHeight) {
      throw new MixRuleError(`mix.videoLayoutList[${i}] (${l.locationX},${l.locationY} ${l.width}x${l.height}) must lie inside the output ${videoWidth}x${videoHeight}`);
    }
    const stream = l.streamType === 'sub' ? 'aux' : 'main';
    inputs.set(`${l.userId}:${stream}`, {
      userId: l.userId, stream, video: true, audio: stream === 'main' && audioUsers.has(l.userId),
      layout: { x: l.locationX, y: l.locationY, w: l.width || videoWidth, h: l.height || videoHeight, z: l.zOrder, fill: l.fillMode, visible: true },
    });
  }
  for (const userId of audioUsers) {
    if (!inputs.has(`${userId}:main`)) inputs.set(`${userId}:main`, { userId, stream: 'main', video: false, audio: true });
  }
  return [...inputs.values()];
}

/** The RTMP URL of a CDN job: the app's URL, or the configured ingest plus the stream id. */
export function targetUrl(data: CdnStartData, ingest: string | undefined, defaultStreamId: string): string | undefined {
  if (data.url) return data.url;
  if (!ingest) return undefined;
  const streamId = data.streamId ?? (data.publishMode === 'PublishMixStreamToCDN' ? undefined : defaultStreamId);
  if (!streamId) return undefined;
  return `${ingest.endsWith('/') ? ingest : `${ingest}/`}${streamId}`;
}
