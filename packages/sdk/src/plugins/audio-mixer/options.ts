import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

/** startPlugin('AudioMixer', …): one piece of music (or an audio track) mixed into the published microphone. */
export interface AudioMixerOptions {
  /** Names this music for update / stop; several ids play at once. */
  id: string;
  /** mp3, ogg, wav or flac file, or a blob: / data: URL. */
  url?: string;
  /** An audio track to mix instead of a file. */
  track?: MediaStreamTrack;
  loop?: boolean;
  /** 0–1 (default 1). */
  volume?: number;
  playbackRate?: number;
  /** Start position in seconds. */
  seekFrom?: number;
  onTimeUpdate?: (currentTime: number, duration: number) => void;
  onEnded?: () => void;
  onDurationChange?: (duration: number) => void;
}

/** updatePlugin('AudioMixer', …). */
export interface UpdateAudioMixerOptions {
  id: string;
  loop?: boolean;
  volume?: number;
  playbackRate?: number;
  seekFrom?: number;
  operation?: 'pause' | 'resume' | 'stop';
  onTimeUpdate?: (currentTime: number, duration: number) => void;
  onEnded?: () => void;
  onDurationChange?: (duration: number) => void;
}

/** stopPlugin('AudioMixer', …). */
export interface StopAudioMixerOptions {
  id: string;
}

const FORMATS = ['mp3', 'ogg', 'wav', 'flac'];
const CALLBACKS = ['onTimeUpdate', 'onEnded', 'onDurationChange'] as const;

/** docs/behaviour.md §5's audio mixer rules, with the original's messages. Throws the core's RtcError. */
export function validateMixerOptions(options: unknown, op: 'start' | 'update' | 'stop', error: PluginErrorFactory): void {
  const functionName = `${op}Plugin`;
  const fail = (extraCode: number, message: string) => error({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName });
  if (typeof options !== 'object' || options === null) throw fail(EXTRA_CODE.PARAMETER_REQUIRED, `${op} audioMixer plugin: options must be an object with an id`);
  const o = options as Record<string, unknown>;
  if (typeof o.id !== 'string' || o.id === '') throw fail(EXTRA_CODE.PARAMETER_REQUIRED, `${op} audioMixer plugin: param id is required`);
  if (op === 'stop') return;
  for (const key of ['loop'] as const) if (o[key] !== undefined && typeof o[key] !== 'boolean') throw fail(EXTRA_CODE.TYPE, `${op} audioMixer plugin: param ${key} should be a boolean.`);
  for (const key of ['volume', 'playbackRate', 'seekFrom'] as const) {
    if (o[key] !== undefined && (typeof o[key] !== 'number' || !Number.isFinite(o[key]) || (o[key] as number) < 0)) throw fail(EXTRA_CODE.TYPE, `${op} audioMixer plugin: param ${key} should be a number of at least 0.`);
  }
  if (o.operation !== undefined && !['pause', 'resume', 'stop'].includes(o.operation as string)) {
    throw fail(EXTRA_CODE.RANGE, `${op} audioMixer plugin: param operation should be one of pause, resume, stop.`);
  }
  for (const key of CALLBACKS) if (o[key] && typeof o[key] !== 'function') throw fail(EXTRA_CODE.TYPE, `start audioMixer plugin: param ${key} should be a function.`);
  if (op !== 'start') return;
  if (o.url !== undefined && typeof o.url !== 'string') throw fail(EXTRA_CODE.TYPE, 'start audioMixer plugin: param url should be a string.');
  if (o.url) {
    const path = (o.url as string).split('?')[0];
    const ok = FORMATS.includes(path.split('.').pop()?.toLowerCase() ?? '') || path.startsWith('blob') || path.startsWith('data');
    if (!ok) throw fail(EXTRA_CODE.TYPE, 'start audioMixer plugin: music url is invalid, please check your file format.');
  }
  if (o.track !== undefined && !(typeof MediaStreamTrack !== 'undefined' && o.track instanceof MediaStreamTrack && o.track.kind === 'audio')) {
    throw fail(EXTRA_CODE.INSTANCE, 'start audioMixer plugin: param track should be an audio MediaStreamTrack.');
  }
  if (!o.url && !o.track) throw fail(EXTRA_CODE.PARAMETER_REQUIRED, 'start audioMixer plugin: param url or track is required.');
}
