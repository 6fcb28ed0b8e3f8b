import { ERROR_CODE, EXTRA_CODE } from '../constants/error-code.js';
import { RtcError } from './rtc-error.js';

/** Messages with docs/behaviour.md §8's wording, in one place. */
export const MESSAGE = Object.freeze({
  DUPLICATE_JOIN: 'duplicate join() called',
  NOT_JOINED: 'please call join() before publish()',
  LEAVE_BEFORE_DESTROY: 'please call leave() before destroy()',
  CLIENT_DESTROYED: 'client destroyed',
  JOIN_TIMEOUT: 'join room timeout',
  SIGNAL_RECONNECTION_FAILED: 'signal channel reconnection failed, check your network',
  AUDIENCE_PUBLISH: "no permission to publish under live/audience, call switchRole('anchor') first",
  SWITCH_ROLE_SCENE: 'switchRole can only be called in live mode',
  HTTP: 'http protocol does not support capturing the microphone, camera and screen, use https',
  WEBRTC: 'the browser or environment does not support full WebRTC',
  NO_MICROPHONE: 'no microphone detected',
  NO_CAMERA: 'no camera detected',
  STREAM_UNPUBLISHED: 'remoteStream does not exist because it has been unpublished',
  CALL_FREQUENCY: 'call frequency limit exceeded',
  CONNECTION_ABORTED: 'connection aborted',
  EXCHANGE_SDP_TIMEOUT: 'exchange sdp timeout',
  SUBSCRIBE_FAILED: 'subscribe failed',
} as const);

/** Builds an INVALID_PARAMETER (5000) error. */
export function invalidParameter(extraCode: number, message: string, functionName?: string): RtcError {
  return new RtcError({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName });
}

/** Builds an INVALID_OPERATION (5100) error. */
export function invalidOperation(extraCode: number | undefined, message: string, functionName?: string): RtcError {
  return new RtcError({ code: ERROR_CODE.INVALID_OPERATION, extraCode, message, functionName });
}

/** Builds an ENV_NOT_SUPPORTED (5200) error. */
export function envNotSupported(extraCode: number, message: string, functionName?: string): RtcError {
  return new RtcError({ code: ERROR_CODE.ENV_NOT_SUPPORTED, extraCode, message, functionName });
}

/** Builds a SERVER_ERROR (5400) from a server reply code and message. */
export function serverError(serverCode: number, message: string, functionName?: string): RtcError {
  return new RtcError({ code: ERROR_CODE.SERVER_ERROR, extraCode: serverCode, message, functionName });
}

/** Builds an OPERATION_FAILED (5500) error. */
export function operationFailed(extraCode: number | undefined, message: string, functionName?: string, originError?: unknown): RtcError {
  return new RtcError({ code: ERROR_CODE.OPERATION_FAILED, extraCode, message, functionName, originError });
}

/** Builds an OPERATION_ABORT (5998) error. */
export function operationAbort(message: string, functionName?: string): RtcError {
  return new RtcError({ code: ERROR_CODE.OPERATION_ABORT, message, functionName });
}

/** Maps a getUserMedia / getDisplayMedia failure to DEVICE_ERROR (5300) with its extra codes (docs/behaviour.md §8.1). */
export function deviceError(error: unknown, kind: 'camera' | 'microphone' | 'screen', functionName?: string): RtcError {
  const name = error instanceof Error ? error.name : '';
  const extra: Record<string, number> = {
    NotFoundError: EXTRA_CODE.NotFound,
    NotAllowedError: EXTRA_CODE.NotAllowed,
    NotReadableError: EXTRA_CODE.NotReadable,
    OverconstrainedError: EXTRA_CODE.Overconstrained,
    InvalidStateError: EXTRA_CODE.InvalidState,
    SecurityError: EXTRA_CODE.Security,
    AbortError: EXTRA_CODE.Abort,
  };
  let message = error instanceof Error ? error.message : String(error);
  if (name === 'NotFoundError' && kind !== 'screen') message = kind === 'camera' ? MESSAGE.NO_CAMERA : MESSAGE.NO_MICROPHONE;
  return new RtcError({ code: ERROR_CODE.DEVICE_ERROR, extraCode: extra[name], message, functionName, originError: error });
}

/**
 * A remote video (5507 VIDEO_DECODE_FAILED) or audio (5508 AUDIO_DECODE_FAILED) that arrives but does not decode,
 * as the original emits it on `error`. The video's error names the user and stream as fields of the error (as
 * 5.17 does) and in `data` (docs/behaviour.md §8.1); the original's audio one names nobody, ours gives `data.userId`.
 */
export function decodeFailed(kind: 'video' | 'audio', userId: string, streamType: 'main' | 'sub' = 'main'): RtcError {
  if (kind === 'audio') {
    return new RtcError({ code: ERROR_CODE.OPERATION_FAILED, extraCode: EXTRA_CODE.AUDIO_DECODE_FAILED, message: 'audio decode failed', data: { userId } });
  }
  return new RtcError({ code: ERROR_CODE.OPERATION_FAILED, extraCode: EXTRA_CODE.VIDEO_DECODE_FAILED, message: 'video decode failed', userId, streamType, data: { userId, streamType } });
}
