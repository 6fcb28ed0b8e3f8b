import { MIX_DEFAULT_ENCODING, type CdnStartData } from '@conclave/protocol';
import type { PipelineSpec } from './job-process.js';
import type { JobInput } from './media-job.js';
import { ingestUrl, ingestUserPart } from './rtmp-target.js';

const DEFAULT_ENCODING = MIX_DEFAULT_ENCODING;

/** A rule of docs/behaviour.md §5 a request breaks; the message says which. */
export class MixRuleError extends Error {}

/** The pipeline settings of a CDN job; `backgroundImage` is the file mix.backgroundImage names (resolved by the caller). */
export function pipelineOf(data: CdnStartData, backgroundImage?: string): Omit<PipelineSpec, 'outputs'> {
  const e = { ...DEFAULT_ENCODING, ...data.encoding };
  return {
    kind: data.publishMode === 'PublishMixStreamToCDN' ? 'mix' : 'relay',
    width: e.videoWidth, height: e.videoHeight, fps: e.videoFramerate, videoBitrate: e.videoBitrate, gop: e.videoGOP,
    audioBitrate: e.audioBitrate, audioSampleRate: e.audioSampleRate, audioChannels: e.audioChannels,
    background: data.mix?.backgroundColor ?? 0,
    ...(backgroundImage && data.publishMode === 'PublishMixStreamToCDN' ? { backgroundImage } : {}),
  };
}

/**
 * The inputs of a CDN job. A mix: each layout rectangle (users must include the caller and every rectangle
 * must lie inside the output, docs/behaviour.md §5); audio from audioMixUserList, or else from the layout's users.
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

/**
 * The RTMP URL of a CDN job: the one asked for (checked against the app's rtmpHosts by the caller), or the
 * shared ingest plus a stream id namespaced by app and room (rtmp-target.ts ingestUrl): the streamId asked
 * for, or a relay's default `<userId>_main|aux` (so `<sdkAppId>_<room>_<userId>_main`, the original's name).
 */
export function targetUrl(data: CdnStartData, ingest: string | undefined, caller: { sdkAppId: number; roomRef: string; userId: string }): string | undefined {
  if (data.url) return data.url;
  if (!ingest) return undefined;
  const suffix = data.publishMode === 'PublishSubStreamToCDN' ? 'aux' : 'main';
  const name = data.streamId ?? (data.publishMode === 'PublishMixStreamToCDN' ? undefined : `${ingestUserPart(caller.userId)}_${suffix}`);
  return name === undefined ? undefined : ingestUrl(ingest, caller.sdkAppId, caller.roomRef, name);
}
