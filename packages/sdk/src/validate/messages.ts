import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';

/** Largest custom / SEI message payload (docs/behaviour.md §9). */
export const MAX_MESSAGE_BYTES = 1000;

/** Checks a message buffer: present, an ArrayBuffer, 1..1000 bytes (5017 empty, 5018 oversize). */
export function validateBuffer(data: unknown, name: string, functionName: string): ArrayBuffer {
  if (data === undefined || data === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `${name} is required`, functionName);
  if (!(data instanceof ArrayBuffer)) throw invalidParameter(EXTRA_CODE.INSTANCE, `${name} must be an ArrayBuffer`, functionName);
  if (data.byteLength === 0) throw invalidParameter(EXTRA_CODE.BUFFER_EMPTY, `${name} cannot be empty`, functionName);
  if (data.byteLength > MAX_MESSAGE_BYTES) throw invalidParameter(EXTRA_CODE.BUFFER_OVERSIZE, `${name} must be at most ${MAX_MESSAGE_BYTES} bytes`, functionName);
  return data;
}

/** Checks a custom message: cmdId an integer 1..10 and its data buffer. */
export function validateCustomMessage(message: unknown): { cmdId: number; data: ArrayBuffer } {
  const fn = 'sendCustomMessage';
  if (typeof message !== 'object' || message === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'message {cmdId, data} is required', fn);
  const { cmdId, data } = message as { cmdId?: unknown; data?: unknown };
  if (cmdId === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'cmdId is required', fn);
  if (typeof cmdId !== 'number' || !Number.isInteger(cmdId)) throw invalidParameter(EXTRA_CODE.TYPE, 'cmdId must be an integer', fn);
  if (cmdId < 1) throw invalidParameter(EXTRA_CODE.MIN, 'cmdId must be between 1 and 10', fn);
  if (cmdId > 10) throw invalidParameter(EXTRA_CODE.MAX, 'cmdId must be between 1 and 10', fn);
  return { cmdId, data: validateBuffer(data, 'data', fn) };
}

/** Checks SEI options: payload type 5 (buffer then starts with a 16-byte UUID) or 243 (default). */
export function validateSEI(buffer: unknown, options: { seiPayloadType?: unknown; toSubStream?: unknown } | undefined): { buffer: ArrayBuffer; seiPayloadType: 5 | 243; toSubStream: boolean } {
  const fn = 'sendSEIMessage';
  const data = validateBuffer(buffer, 'buffer', fn);
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw invalidParameter(EXTRA_CODE.TYPE, 'options must be an object', fn);
  const type = options?.seiPayloadType === undefined ? 243 : options.seiPayloadType;
  if (type !== 5 && type !== 243) throw invalidParameter(EXTRA_CODE.RANGE, 'seiPayloadType must be 5 or 243', fn);
  if (type === 5 && data.byteLength <= 16) throw invalidParameter(EXTRA_CODE.MIN, 'with seiPayloadType 5 the buffer must start with a 16-byte UUID followed by the payload', fn);
  if (options?.toSubStream !== undefined && typeof options.toSubStream !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'toSubStream must be a boolean', fn);
  return { buffer: data, seiPayloadType: type, toSubStream: options?.toSubStream === true };
}

/** Checks enableAudioVolumeEvaluation's interval: a number; ≤0 disables; otherwise at least 100 ms. */
export function validateVolumeInterval(interval: unknown): number {
  const fn = 'enableAudioVolumeEvaluation';
  if (interval === undefined) return 2000;
  if (typeof interval !== 'number' || Number.isNaN(interval)) throw invalidParameter(EXTRA_CODE.TYPE, 'interval must be a number', fn);
  if (interval <= 0) return 0;
  return Math.max(100, interval);
}

/** Checks a remote audio volume: a number ≥ 0 (above 100 amplifies). */
export function validateVolume(volume: unknown, functionName: string): number {
  if (typeof volume !== 'number' || Number.isNaN(volume)) throw invalidParameter(EXTRA_CODE.TYPE, 'volume must be a number', functionName);
  if (volume < 0) throw invalidParameter(EXTRA_CODE.LESS_THAN_ZERO, 'volume must be at least 0', functionName);
  return volume;
}
