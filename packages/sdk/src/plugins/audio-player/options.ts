import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { AudioPlayerOptions } from '../../plugin-api/audio-player.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

export type { AudioPlayerCallbacks, AudioPlayerOptions, AudioPlayerStopOptions, AudioPlayerUpdateOptions, RealtimeOption } from '../../plugin-api/audio-player.js';

/** What a player plays (5.18's AudioSourceType): PCM the app feeds, a file, or a MediaStreamTrack. Its values are the option's strings. */
export enum AudioSourceType {
  PCM = 'pcm',
  URL = 'url',
  Track = 'track',
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
