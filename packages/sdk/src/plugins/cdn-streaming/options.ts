import { CDN_PUBLISH_MODES, MIX_DEFAULT_ENCODING, MIX_LIMITS, type CdnPublishMode, type CdnStartData, type CdnVideoLayout } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

/** trtc-sdk-v5 CDNStreaming option shapes. */
export interface CDNStreamingUser {
  userId: string;
  roomId?: number;
  strRoomId?: string;
}
export interface CDNStreamingVideoLayout {
  fixedVideoUser: CDNStreamingUser;
  fixedVideoStreamType?: 'main' | 'sub';
  /** 0 crop, 1 fit with bars, 2 stretch */
  fillMode?: 0 | 1 | 2;
  width?: number;
  height?: number;
  locationX?: number;
  locationY?: number;
  zOrder?: number;
}
export interface CDNStreamingOptions {
  target: { publishMode: CdnPublishMode; streamId?: string; appId?: number; bizId?: number; url?: string };
  encoding?: {
    videoWidth?: number; videoHeight?: number; videoBitrate?: number; videoFramerate?: number; videoGOP?: number;
    audioSampleRate?: number; audioBitrate?: number; audioChannels?: 1 | 2;
  };
  mix?: {
    backgroundColor?: number;
    backgroundImage?: string;
    audioMixUserList?: CDNStreamingUser[];
    videoLayoutList?: CDNStreamingVideoLayout[];
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks options against docs/behaviour.md §5 (mix transcode rules) and builds the cdn-start command's data. */
export function toStartData(options: unknown, selfUserId: string, functionName: string, errors: PluginErrorFactory): CdnStartData {
  const bad = (extraCode: number, message: string) => errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName });
  const integer = (value: unknown, name: string, min: number, max: number): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw bad(EXTRA_CODE.RANGE, `${name} must be an integer between [${min}, ${max}]`);
    }
    return value;
  };
  if (!isObject(options)) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, 'options are required');
  const target = options.target;
  if (!isObject(target)) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, 'target is required');
  const publishMode = target.publishMode;
  if (typeof publishMode !== 'string' || !(CDN_PUBLISH_MODES as readonly string[]).includes(publishMode)) {
    throw bad(EXTRA_CODE.RANGE, `target.publishMode must be one of ${CDN_PUBLISH_MODES.join(', ')}`);
  }
  const data: CdnStartData = { publishMode: publishMode as CdnPublishMode };
  if (target.streamId !== undefined) {
    if (typeof target.streamId !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(target.streamId)) {
      throw bad(EXTRA_CODE.STREAM_ID, 'streamId must be 1 to 64 letters, digits, hyphens or underscores');
    }
    data.streamId = target.streamId;
  }
  if (target.url !== undefined) {
    if (typeof target.url !== 'string' || !/^rtmps?:\/\/[^\s/]+\/\S+$/.test(target.url)) throw bad(EXTRA_CODE.TYPE, 'target.url must be an rtmp:// or rtmps:// URL');
    data.url = target.url;
  }
  const e = isObject(options.encoding) ? options.encoding : {};
  const encoding = {
    videoWidth: integer(e.videoWidth, 'videoWidth', 16, MIX_LIMITS.MAX_WIDTH),
    videoHeight: integer(e.videoHeight, 'videoHeight', 16, MIX_LIMITS.MAX_HEIGHT),
    videoBitrate: integer(e.videoBitrate, 'videoBitrate', 64, 20_000),
    videoFramerate: integer(e.videoFramerate, 'videoFramerate', ...MIX_LIMITS.FRAMERATE),
    videoGOP: integer(e.videoGOP, 'videoGOP', ...MIX_LIMITS.GOP),
    audioSampleRate: integer(e.audioSampleRate, 'audioSampleRate', 16000, 48000),
    audioBitrate: integer(e.audioBitrate, 'audioBitrate', ...MIX_LIMITS.AUDIO_BITRATE),
    audioChannels: integer(e.audioChannels, 'audioChannels', 1, 2) as 1 | 2 | undefined,
  };
  if (encoding.audioSampleRate !== undefined && ![16000, 32000, 44100, 48000].includes(encoding.audioSampleRate)) {
    throw bad(EXTRA_CODE.RANGE, 'audioSampleRate must be one of 16000, 32000, 44100, 48000');
  }
  data.encoding = Object.fromEntries(Object.entries(encoding).filter(([, v]) => v !== undefined));
  if (data.publishMode === 'PublishMixStreamToCDN') data.mix = toMix(options.mix, { ...MIX_DEFAULT_ENCODING, ...data.encoding }, selfUserId, bad, integer);
  return data;
}

function toMix(
  raw: unknown, out: { videoWidth: number; videoHeight: number }, selfUserId: string,
  bad: (extra: number, message: string) => Error,
  integer: (value: unknown, name: string, min: number, max: number) => number | undefined,
): NonNullable<CdnStartData['mix']> {
  if (!isObject(raw)) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, 'mix is required for PublishMixStreamToCDN');
  const list = raw.videoLayoutList;
  if (!Array.isArray(list) || list.length === 0) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, 'mix.videoLayoutList is required');
  if (list.length > MIX_LIMITS.MAX_LAYOUTS) throw bad(EXTRA_CODE.MAX, `mix.videoLayoutList has at most ${MIX_LIMITS.MAX_LAYOUTS} entries`);
  const userOf = (user: unknown, name: string): string => {
    if (!isObject(user) || typeof user.userId !== 'string' || user.userId === '') throw bad(EXTRA_CODE.PARAMETER_REQUIRED, `${name}.userId is required`);
    return user.userId;
  };
  const layouts: CdnVideoLayout[] = list.map((entry: unknown, i) => {
    const name = `videoLayoutList[${i}]`;
    if (!isObject(entry)) throw bad(EXTRA_CODE.TYPE, `${name} must be an object`);
    const userId = userOf(entry.fixedVideoUser, `${name}.fixedVideoUser`);
    if (entry.zOrder === undefined) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, `${name}.zOrder is required`);
    const zOrder = integer(entry.zOrder, `${name}.zOrder`, ...MIX_LIMITS.Z_ORDER) ?? 1;
    const locationX = integer(entry.locationX, `${name}.locationX`, 0, MIX_LIMITS.MAX_WIDTH) ?? 0;
    const locationY = integer(entry.locationY, `${name}.locationY`, 0, MIX_LIMITS.MAX_HEIGHT) ?? 0;
    const width = integer(entry.width, `${name}.width`, 0, MIX_LIMITS.MAX_WIDTH) || out.videoWidth - locationX;
    const height = integer(entry.height, `${name}.height`, 0, MIX_LIMITS.MAX_HEIGHT) || out.videoHeight - locationY;
    if (locationX + width > out.videoWidth || locationY + height > out.videoHeight) {
      throw bad(EXTRA_CODE.RANGE, `the output (${out.videoWidth}x${out.videoHeight}) must contain ${name} (${locationX},${locationY} ${width}x${height})`);
    }
    const streamType = entry.fixedVideoStreamType ?? 'main';
    if (streamType !== 'main' && streamType !== 'sub') throw bad(EXTRA_CODE.RANGE, `${name}.fixedVideoStreamType must be main or sub`);
    const fillMode = entry.fillMode ?? 0;
    if (fillMode !== 0 && fillMode !== 1 && fillMode !== 2) throw bad(EXTRA_CODE.RANGE, `${name}.fillMode must be 0, 1 or 2`);
    return { userId, streamType, fillMode, width, height, locationX, locationY, zOrder };
  });
  const audio = raw.audioMixUserList === undefined ? undefined : Array.isArray(raw.audioMixUserList)
    ? raw.audioMixUserList.map((user: unknown, i) => userOf(user, `audioMixUserList[${i}]`))
    : (() => { throw bad(EXTRA_CODE.TYPE, 'mix.audioMixUserList must be an array'); })();
  const users = new Set([...layouts.map((l) => l.userId), ...(audio ?? [])]);
  if (!users.has(selfUserId)) throw bad(EXTRA_CODE.RANGE, `the mixed users must include yourself (${selfUserId})`);
  const background = integer(raw.backgroundColor, 'mix.backgroundColor', 0, 0xffffff);
  if (raw.backgroundImage !== undefined && typeof raw.backgroundImage !== 'string') throw bad(EXTRA_CODE.TYPE, 'mix.backgroundImage must be a string');
  return {
    videoLayoutList: layouts,
    ...(audio ? { audioMixUserList: audio } : {}),
    ...(background !== undefined ? { backgroundColor: background } : {}),
    // An image uploaded through the server's admin API, by name ('' is none); the server checks the name.
    ...(typeof raw.backgroundImage === 'string' && raw.backgroundImage !== '' ? { backgroundImage: raw.backgroundImage } : {}),
  };
}
