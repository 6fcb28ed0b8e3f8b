import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

/** What a player plays (5.18's AudioSourceType): PCM the app feeds, a file, or a MediaStreamTrack. */
export enum AudioSourceType {
  PCM = 'pcm',
  URL = 'url',
  Track = 'track',
}

/** PCM latency control: with `discardAll`, data waiting longer than `maxDelay` ms (300) is dropped when more comes. */
export interface RealtimeOption {
  maxDelay?: number;
  discardAll?: boolean;
}

/** The callbacks a player calls (times in seconds, to 2 decimals). */
export interface AudioPlayerCallbacks {
  /** PCM only: an input() that could not be used, with the input's number (0 for the first input of the player). */
  onInputError?: (errMsg: string, inputIndex: number) => void;
  /** url: the file's duration once known; pcm: the length of what was fed, at each change. */
  onDurationChange?: (duration: number) => void;
  /** url: (position, duration); pcm: (played, fed so far). */
  onTimeUpdate?: (currentTime: number, durationTime: number) => void;
  /** url: the file played to its end; pcm: what was fed has all been played (or stop()). */
  onEnded?: () => void;
}

/** startPlugin('AudioPlayer', …): one player, named by `id` (a new start with the same id replaces it). */
export interface AudioPlayerOptions extends AudioPlayerCallbacks {
  id: string;
  sourceType: AudioSourceType | 'pcm' | 'url' | 'track';
  /** sourceType 'url': an mp3, ogg, wav or flac file, or a blob: / data: URL. */
  url?: string;
  /** sourceType 'track': the audio track to play. */
  track?: MediaStreamTrack;
  /** Also mixed into what the microphone publishes (default false: heard locally only). */
  publish?: boolean;
  /** PCM only (default true): pause and stop drop what was fed; false keeps it (stop then start replays it). */
  realtime?: boolean | RealtimeOption;
  /** url only. */
  loop?: boolean;
  /** url and track: 0–1 (default 1). */
  volume?: number;
  /** url only (default 1). */
  playbackRate?: number;
  /** PCM only: the channel count of interleaved input (default 1), mixed down to mono (the original's samples pass it). */
  channels?: number;
}

/** updatePlugin('AudioPlayer', …): the fields to change on player `id`. */
export interface AudioPlayerUpdateOptions extends AudioPlayerCallbacks {
  id: string;
  publish?: boolean;
  realtime?: boolean | RealtimeOption;
  loop?: boolean;
  volume?: number;
  playbackRate?: number;
  /** url only: moves to this position (seconds). */
  seekFrom?: number;
  /** url only. @deprecated the player's pause() / resume() / stop(). */
  operation?: 'pause' | 'resume' | 'stop';
  channels?: number;
}

/** stopPlugin('AudioPlayer', …): the player to destroy, or `'*'` for all of them. */
export interface AudioPlayerStopOptions {
  id: string;
}

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'function';
interface Rule {
  type: Kind | Kind[];
  required?: true;
  values?: readonly string[];
  properties?: Record<string, Rule>;
}

const CALLBACK_RULES: Record<string, Rule> = {
  onInputError: { type: 'function' }, onDurationChange: { type: 'function' }, onTimeUpdate: { type: 'function' }, onEnded: { type: 'function' },
};
const REALTIME: Rule = { type: ['boolean', 'object'], properties: { maxDelay: { type: 'number' }, discardAll: { type: 'boolean' } } };
const SHARED: Record<string, Rule> = {
  id: { type: 'string', required: true }, publish: { type: 'boolean' }, realtime: REALTIME, loop: { type: 'boolean' },
  volume: { type: 'number' }, playbackRate: { type: 'number' }, channels: { type: 'number' }, ...CALLBACK_RULES,
};
/** The original's rule tables (its plugin declares them; its core checks them before the plugin runs). */
const RULES: Record<'start' | 'update' | 'stop', Record<string, Rule>> = {
  start: { ...SHARED, sourceType: { type: 'string', required: true, values: ['pcm', 'url', 'track'] }, url: { type: 'string' } },
  update: { ...SHARED, seekFrom: { type: 'number' }, operation: { type: 'string', values: ['pause', 'resume', 'stop'] } },
  stop: { id: { type: 'string', required: true } },
};

/** The type name the original's messages use. */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const AUDIO_FILE = /\.(mp3|ogg|wav|flac)$/i;

/** A url the original accepts: an mp3 / ogg / wav / flac path (query ignored), or a blob: or data: URL. */
export function isAudioUrl(url: string): boolean {
  const path = url.split('?')[0];
  return AUDIO_FILE.test(path) || path.startsWith('blob') || path.startsWith('data');
}

/**
 * Checks startPlugin / updatePlugin / stopPlugin options as the original does: its rule table's messages and
 * extra codes (5001 required, 5002 type, 5005 not one of the values), then start's own checks (a url for 'url',
 * of a known format; a track for 'track'). Throws the core's RtcError INVALID_PARAMETER.
 */
export function validateAudioPlayerOptions(options: unknown, op: 'start' | 'update' | 'stop', errors: PluginErrorFactory): void {
  const functionName = `${op}Plugin`;
  const fail = (extraCode: number | undefined, message: string) => errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName });
  const check = (key: string, rule: Rule, value: unknown): void => {
    if (value === undefined) {
      if (rule.required) throw fail(EXTRA_CODE.PARAMETER_REQUIRED, `'${key}' is a required param when calling ${functionName}(), received: undefined.`);
      return;
    }
    const types = Array.isArray(rule.type) ? rule.type : [rule.type];
    if (!types.includes(typeName(value) as Kind)) {
      throw fail(EXTRA_CODE.TYPE, `'${key}' must be type of ${types.join('|')} when calling ${functionName}(), received type: ${typeName(value)}.`);
    }
    if (rule.values && !rule.values.includes(value as string)) {
      throw fail(EXTRA_CODE.RANGE, `'${key}' must be one of ${rule.values.join('|')} when calling ${functionName}(), received: ${String(value)}.`);
    }
    if (rule.properties && typeName(value) === 'object') {
      for (const [name, sub] of Object.entries(rule.properties)) check(name, sub, (value as Record<string, unknown>)[name]);
    }
  };
  check('options', { type: 'object', required: true, properties: RULES[op] }, options);
  if (op !== 'start') return;
  const { sourceType, url, track } = options as AudioPlayerOptions;
  if (sourceType === 'url') {
    if (!url) throw fail(undefined, `${functionName}: url is required when sourceType is 'url'.`);
    if (!isAudioUrl(url)) throw fail(undefined, `${functionName}: audio url is invalid, supported formats: mp3, ogg, wav, flac, blob, data.`);
  }
  if (sourceType === 'track' && !track) throw fail(undefined, `${functionName}: track is required when sourceType is 'track'.`);
  if (sourceType === 'track' && !(track instanceof MediaStreamTrack && track.kind === 'audio')) {
    throw fail(EXTRA_CODE.INSTANCE, `${functionName}: track must be an audio MediaStreamTrack.`);
  }
}
