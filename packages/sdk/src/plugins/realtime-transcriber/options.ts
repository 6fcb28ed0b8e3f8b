import type { TranscriberStartData } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

/** Options of startPlugin('RealtimeTranscriber') (trtc-sdk-v5 5.17.1's StartRealtimeTranscriberOption). */
export interface StartRealtimeTranscriberOption {
  /** The spoken language to transcribe ('en', 'en-US', the original's '16k_en' …; the server says which it has). */
  sourceLanguage: string;
  /** Languages to translate the transcript into: needs a cloud model, which a Conclave server refuses. */
  translationLanguages?: string | string[];
  /** Whose speech to transcribe (default: everyone, 'all'). */
  userIdsToTranscribe?: string | string[];
  /** The transcriber's robot id (default `transcriber_<roomId>_robot_<userId>`). */
  transcriberRobotId?: string;
}

/** Options of stopPlugin('RealtimeTranscriber'). */
export interface StopRealtimeTranscriberOption {
  transcriberRobotId: string;
}

const isStringOrStrings = (value: unknown): value is string | string[] =>
  typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));

/**
 * Checks start's options as the original's validation rule does (an object; sourceLanguage a string;
 * translationLanguages and userIdsToTranscribe a string or an array; transcriberRobotId a string) and builds the
 * transcriber-start command's data. Throws INVALID_PARAMETER.
 */
export function toStartData(options: unknown, errors: PluginErrorFactory): TranscriberStartData {
  const bad = (extraCode: number, message: string) => errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName: 'startPlugin' });
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, 'the RealtimeTranscriber options object is required');
  const o = options as Record<string, unknown>;
  if (o.sourceLanguage === undefined) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, "'sourceLanguage' is required");
  if (typeof o.sourceLanguage !== 'string') throw bad(EXTRA_CODE.TYPE, "'sourceLanguage' must be a string");
  if (o.sourceLanguage.trim() === '') throw bad(EXTRA_CODE.EMPTY, "'sourceLanguage' must not be empty");
  for (const key of ['translationLanguages', 'userIdsToTranscribe'] as const) {
    if (o[key] !== undefined && !isStringOrStrings(o[key])) throw bad(EXTRA_CODE.TYPE, `'${key}' must be a string or an array of strings`);
  }
  if (o.transcriberRobotId !== undefined && typeof o.transcriberRobotId !== 'string') throw bad(EXTRA_CODE.TYPE, "'transcriberRobotId' must be a string");
  const data: TranscriberStartData = { sourceLanguage: o.sourceLanguage };
  if (o.translationLanguages !== undefined) data.translationLanguages = o.translationLanguages as string | string[];
  if (o.userIdsToTranscribe !== undefined) data.userIdsToTranscribe = o.userIdsToTranscribe as string | string[];
  if (typeof o.transcriberRobotId === 'string' && o.transcriberRobotId !== '') data.transcriberRobotId = o.transcriberRobotId;
  return data;
}

/** Checks stop's options (the original requires transcriberRobotId, a string). Throws INVALID_PARAMETER. */
export function robotIdOf(options: unknown, errors: PluginErrorFactory): string {
  const bad = (extraCode: number, message: string) => errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName: 'stopPlugin' });
  const robotId = typeof options === 'object' && options !== null ? (options as Record<string, unknown>).transcriberRobotId : undefined;
  if (robotId === undefined) throw bad(EXTRA_CODE.PARAMETER_REQUIRED, "'transcriberRobotId' is required");
  if (typeof robotId !== 'string' || robotId === '') throw bad(EXTRA_CODE.TYPE, "'transcriberRobotId' must be a non-empty string");
  return robotId;
}
