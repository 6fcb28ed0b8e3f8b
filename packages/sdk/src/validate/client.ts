import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import { LOG_LEVEL, type LogLevel } from '../log/logger.js';
import { resolveView } from '../playback/view.js';
import type { VideoRequest } from '../playback/video-request.js';
import { isUnset, lenientRemoteVideo, lenientSwitchRoleOption } from './lenient.js';
import type { RemoteVideoConfig, StopRemoteVideoConfig, TrackQuery, TRTCOptions } from '../types.js';

type StreamType = 'main' | 'sub';

/** Checks TRTC.create()'s options. */
export function validateCreateOptions(options: TRTCOptions): void {
  const fn = 'create';
  if (typeof options !== 'object' || options === null) throw invalidParameter(EXTRA_CODE.TYPE, 'options must be an object', fn);
  if (options.enableSEI !== undefined && typeof options.enableSEI !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'enableSEI must be a boolean', fn);
  if (options.assetsPath !== undefined && typeof options.assetsPath !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'assetsPath must be a string', fn);
  if (options.plugins !== undefined && !Array.isArray(options.plugins)) throw invalidParameter(EXTRA_CODE.TYPE, 'plugins must be an array', fn);
  for (const flag of ['enableAutoPlayDialog', 'enableAutoSwitchWhenRecapturing', 'enableVolumeControlInIOS', 'enableReconnectingState'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `${flag} must be a boolean`, fn);
  }
}

/** Checks setLogLevel's arguments: a level 0..5 and a boolean. */
export function validateLogLevel(level: LogLevel, enableUploadLog: boolean | null | 0 | ''): void {
  const fn = 'setLogLevel';
  if (!Number.isInteger(level) || level < LOG_LEVEL.TRACE || level > LOG_LEVEL.NONE) {
    throw invalidParameter(EXTRA_CODE.RANGE, 'log level must be an integer between 0 and 5', fn);
  }
  // null / 0 / '' turn uploads off, as in the original.
  if (enableUploadLog !== undefined && typeof enableUploadLog !== 'boolean' && !isUnset(enableUploadLog)) throw invalidParameter(EXTRA_CODE.TYPE, 'enableUploadLog must be a boolean', fn);
}

/** Checks a required, non-empty string argument (userId, speakerId…). */
export function validateRequiredString(value: unknown, name: string, functionName: string): string {
  if (typeof value !== 'string' || value === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `${name} is required`, functionName);
  return value;
}

/**
 * Checks a userId argument that names remote users (stopRemoteVideo, muteRemoteAudio,
 * setRemoteAudioVolume): a string, '*' for everyone; '' names nobody (the original does nothing).
 */
export function validateUserIdArg(value: unknown, functionName: string): string {
  if (value === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', functionName);
  if (typeof value !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'userId must be a string', functionName);
  return value;
}

/** Checks a boolean argument. */
export function validateBoolean(value: unknown, name: string, functionName: string): boolean {
  if (typeof value !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `${name} must be a boolean`, functionName);
  return value;
}

/** Checks switchRole's arguments; returns the option's fields that are set. */
export function validateSwitchRole(role: unknown, option: { privateMapKey?: string; latencyLevel?: number } | undefined): { privateMapKey?: string; latencyLevel?: number } {
  const fn = 'switchRole';
  if (role !== 'anchor' && role !== 'audience') throw invalidParameter(EXTRA_CODE.RANGE, "role must be 'anchor' or 'audience'", fn);
  const read = lenientSwitchRoleOption(option);
  if (read.privateMapKey !== undefined && typeof read.privateMapKey !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'privateMapKey must be a string', fn);
  if (read.latencyLevel !== undefined && (typeof read.latencyLevel !== 'number' || !Number.isFinite(read.latencyLevel))) throw invalidParameter(EXTRA_CODE.TYPE, 'latencyLevel must be a number', fn);
  return read;
}

function validateStreamType(streamType: unknown, functionName: string): StreamType {
  if (streamType !== 'main' && streamType !== 'sub') throw invalidParameter(EXTRA_CODE.RANGE, "streamType must be 'main' or 'sub'", functionName);
  return streamType;
}

/** What startRemoteVideo / updateRemoteVideo ask for (views undefined: unchanged, on update). */
export interface RemoteVideoCall {
  userId: string;
  streamType: StreamType;
  request: Omit<VideoRequest, 'views'> & { views: HTMLElement[] | undefined };
  small: boolean | undefined;
}

/** Checks startRemoteVideo / updateRemoteVideo's config and resolves its view. */
export function validateRemoteVideoConfig(given: RemoteVideoConfig | undefined, functionName: string): RemoteVideoCall {
  const config = lenientRemoteVideo(given, functionName);
  if (!config || typeof config !== 'object') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'config {userId, streamType, view} is required', functionName);
  validateRequiredString(config.userId, 'userId', functionName);
  if (config.streamType === undefined) throw invalidParameter(EXTRA_CODE.STREAM_TYPE, 'streamType is required', functionName);
  const streamType = validateStreamType(config.streamType, functionName);
  const option = config.option;
  if (option?.fillMode !== undefined && !['contain', 'cover', 'fill'].includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
  for (const flag of ['mirror', 'small', 'receiveWhenViewVisible', 'canvasRender', 'draggable', 'pictureInPicture', 'fullScreen'] as const) {
    if (option?.[flag] !== undefined) validateBoolean(option[flag], `option.${flag}`, functionName);
  }
  if (option?.small && streamType === 'sub') throw invalidParameter(EXTRA_CODE.RANGE, 'the small stream exists only for the main stream', functionName);
  if (option?.poster !== undefined && typeof option.poster !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'option.poster must be a string', functionName);
  if (option?.viewRoot !== undefined && !(option.viewRoot instanceof HTMLElement)) throw invalidParameter(EXTRA_CODE.INSTANCE, 'option.viewRoot must be an HTMLElement', functionName);
  const views = config.view !== undefined || functionName === 'startRemoteVideo' ? resolveView(config.view, functionName) : undefined;
  return {
    userId: config.userId, streamType, small: option?.small,
    request: {
      views, fillMode: option?.fillMode, mirror: option?.mirror, poster: option?.poster, canvasRender: option?.canvasRender,
      receiveWhenViewVisible: option?.receiveWhenViewVisible, viewRoot: option?.viewRoot,
    },
  };
}

/** Checks stopRemoteVideo's config: streamType is required unless userId is '*'. */
export function validateStopRemoteVideo(config: StopRemoteVideoConfig | undefined): { userId: string; streamType: StreamType | undefined } {
  const fn = 'stopRemoteVideo';
  const userId = validateUserIdArg(config?.userId, fn);
  const streamType = config?.streamType;
  if (userId !== '*' && streamType === undefined) throw invalidParameter(EXTRA_CODE.STREAM_TYPE, "streamType is required when userId is not '*'", fn);
  return { userId, streamType: streamType === undefined ? undefined : validateStreamType(streamType, fn) };
}

/**
 * Reads getAudioTrack / getVideoTrack / getVideoSnapshot's argument: a userId or {userId, streamType,
 * processed}. `processed` is read as the original reads it (any truthy value, never type-checked).
 */
export function validateTrackQuery(config: string | TrackQuery | undefined, functionName: string): { userId: string; streamType: StreamType; processed: boolean } {
  const query = typeof config === 'string' ? { userId: config } : (config ?? {});
  if (typeof query !== 'object') throw invalidParameter(EXTRA_CODE.TYPE, 'config must be a userId or {userId, streamType}', functionName);
  return { userId: query.userId ?? '', streamType: validateStreamType(query.streamType ?? 'main', functionName), processed: Boolean(query.processed) };
}
