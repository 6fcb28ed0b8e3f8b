import { ERROR_CODE, EXTRA_CODE } from '../constants/error-code.js';
import { deviceError, envNotSupported, MESSAGE } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import type { AudioProfile, VideoProfile } from './profiles.js';

/** docs/behaviour.md §9: capture retries 3 at 500 ms. */
export const CAPTURE_RETRIES = 3;
export const CAPTURE_RETRY_DELAY_MS = 500;

/** Throws ENV_NOT_SUPPORTED when capture is impossible here (http page, no mediaDevices). */
export function checkCaptureSupport(functionName: string): void {
  if (typeof isSecureContext !== 'undefined' && !isSecureContext) throw envNotSupported(EXTRA_CODE.HTTP, MESSAGE.HTTP, functionName);
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) throw envNotSupported(EXTRA_CODE.WEBRTC, MESSAGE.WEBRTC, functionName);
}

/**
 * The constraints of each capture attempt (docs/behaviour.md §8): the full demand first; on a not-readable or
 * over-constrained failure, (1) a lower frame rate (10, or 5) without maximum sizes or exact-device
 * demands, (2) the device id only, (3) plain `true`.
 */
export function captureAttempts(base: MediaTrackConstraints, deviceId: string | undefined): (MediaTrackConstraints | true)[] {
  const ideal = (value: MediaTrackConstraints['frameRate']) => (typeof value === 'object' && value !== null ? (value.ideal ?? value.exact ?? value.max) : value);
  const frameRate = ideal(base.frameRate);
  const lowered: MediaTrackConstraints = { ...base };
  if (frameRate !== undefined) lowered.frameRate = { ideal: Number(frameRate) > 10 ? 10 : 5 };
  for (const key of ['width', 'height'] as const) {
    const value = base[key];
    if (typeof value === 'object' && value !== null) lowered[key] = { ideal: value.ideal ?? value.exact ?? value.max };
  }
  if (deviceId) lowered.deviceId = { ideal: deviceId };
  return [base, lowered, deviceId ? { deviceId } : true, true];
}

/** Errors worth retrying with looser constraints. */
const RETRYABLE = new Set(['NotReadableError', 'OverconstrainedError']);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Opens the OS privacy settings for camera/microphone (the 5302 handler for a system-level refusal). */
function privacySettingsHandler(kind: 'camera' | 'microphone' | 'screen'): (() => void) | undefined {
  if (typeof navigator === 'undefined') return undefined;
  const ua = navigator.userAgent;
  let url: string | undefined;
  if (/Mac OS X/.test(ua) && !/iPhone|iPad/.test(ua)) {
    const pane = kind === 'camera' ? 'Privacy_Camera' : kind === 'microphone' ? 'Privacy_Microphone' : 'Privacy_ScreenCapture';
    url = `x-apple.systempreferences:com.apple.preference.security?${pane}`;
  } else if (/Windows/.test(ua)) {
    url = kind === 'camera' ? 'ms-settings:privacy-webcam' : kind === 'microphone' ? 'ms-settings:privacy-microphone' : undefined;
  }
  if (!url) return undefined;
  const target = url;
  return () => {
    window.open(target, '_blank');
  };
}

/** DEVICE_ERROR (5300) for a capture failure, with the catalogue's messages and the 5302 handler. */
export function captureError(error: unknown, kind: 'camera' | 'microphone' | 'screen', functionName: string): RtcError {
  const converted = deviceError(error, kind, functionName);
  if (converted.extraCode === EXTRA_CODE.NotAllowed) {
    const handler = privacySettingsHandler(kind);
    if (handler) {
      return new RtcError({ code: ERROR_CODE.DEVICE_ERROR, extraCode: EXTRA_CODE.NotAllowed, message: converted.rawMessage, functionName, originError: error, handler });
    }
  }
  return converted;
}

/** 5301 with the original's 'no camera detected' / 'no microphone detected'. */
export function notFound(kind: 'camera' | 'microphone', functionName: string): RtcError {
  const error = new Error(kind === 'camera' ? MESSAGE.NO_CAMERA : MESSAGE.NO_MICROPHONE);
  error.name = 'NotFoundError';
  return captureError(error, kind, functionName);
}

/**
 * Before capturing with a device id: a device id this browser does not list is NotFound (5301)
 * rather than the browser's over-constrained error. No device of the kind at all is NotFound too.
 */
async function checkDevice(kind: 'camera' | 'microphone', deviceId: string | undefined, functionName: string): Promise<void> {
  if (!navigator.mediaDevices.enumerateDevices) return;
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === (kind === 'camera' ? 'videoinput' : 'audioinput'));
  if (devices.length === 0) throw notFound(kind, functionName);
  const idsKnown = devices.some((d) => d.deviceId !== '');
  if (deviceId && idsKnown && !devices.some((d) => d.deviceId === deviceId)) throw notFound(kind, functionName);
}

/** Captures one track with docs/behaviour.md §8's retries; rejects with DEVICE_ERROR. */
async function captureWithRetries(kind: 'camera' | 'microphone', base: MediaTrackConstraints, deviceId: string | undefined,
  functionName: string, getUserMedia: (c: MediaStreamConstraints) => Promise<MediaStream>): Promise<MediaStreamTrack> {
  checkCaptureSupport(functionName);
  await checkDevice(kind, deviceId, functionName);
  const attempts = captureAttempts(base, deviceId);
  let lastError: unknown;
  for (let i = 0; i < attempts.length; i++) {
    if (i > 0) await sleep(CAPTURE_RETRY_DELAY_MS);
    try {
      const stream = await getUserMedia(kind === 'camera' ? { video: attempts[i], audio: false } : { audio: attempts[i], video: false });
      const track = kind === 'camera' ? stream.getVideoTracks()[0] : stream.getAudioTracks()[0];
      if (i > 0) log.warn(`${kind} captured on retry ${i} with looser constraints`, attempts[i]);
      return track;
    } catch (error) {
      lastError = error;
      const name = error instanceof Error ? error.name : '';
      // An exact device that is not there is not found, whatever the browser calls it.
      if (name === 'OverconstrainedError' && (error as { constraint?: string }).constraint === 'deviceId') throw notFound(kind, functionName);
      if (!RETRYABLE.has(name)) break;
      log.warn(`${kind} capture failed (${name}); retrying`);
    }
  }
  throw captureError(lastError, kind, functionName);
}

const gum = (constraints: MediaStreamConstraints) => navigator.mediaDevices.getUserMedia(constraints);

/** The camera constraints of a profile. */
export function cameraConstraints(profile: VideoProfile, cameraId: string | undefined, facingMode?: 'user' | 'environment',
  avoidCropping = false): MediaTrackConstraints {
  // avoidCropping: ask for the width only and no crop-and-scale, so the camera's own aspect ratio is kept.
  return {
    width: { ideal: profile.width },
    ...(avoidCropping ? { resizeMode: 'none' } : { height: { ideal: profile.height } }),
    frameRate: { ideal: profile.frameRate },
    ...(cameraId ? { deviceId: { exact: cameraId } } : facingMode ? { facingMode } : {}),
  };
}

/** Captures the camera at a profile; rejects with DEVICE_ERROR (5301… codes, docs/behaviour.md §8.1). */
export async function captureCamera(profile: VideoProfile, cameraId: string | undefined, functionName: string,
  options: { useFrontCamera?: boolean; avoidCropping?: boolean } = {}): Promise<MediaStreamTrack> {
  const facing = options.useFrontCamera === undefined ? undefined : options.useFrontCamera ? 'user' : 'environment';
  return captureWithRetries('camera', cameraConstraints(profile, cameraId, facing, options.avoidCropping), cameraId, functionName, gum);
}

/** Options of microphone capture. */
export interface MicrophoneOptions {
  microphoneId?: string;
  /** 'all' / 'remote-only' are the newer capture modes; a browser without them reads them as true. */
  echoCancellation?: boolean | 'all' | 'remote-only';
  autoGainControl?: boolean;
  noiseSuppression?: boolean;
}

/** The microphone constraints of a profile. */
export function microphoneConstraints(profile: AudioProfile, options: MicrophoneOptions): MediaTrackConstraints {
  return {
    sampleRate: profile.sampleRate,
    channelCount: profile.channelCount,
    echoCancellation: (options.echoCancellation ?? true) as boolean,
    autoGainControl: options.autoGainControl ?? true,
    noiseSuppression: options.noiseSuppression ?? true,
    ...(options.microphoneId ? { deviceId: { exact: options.microphoneId } } : {}),
  };
}

/** Captures the microphone at a profile; rejects with DEVICE_ERROR. */
export async function captureMicrophone(profile: AudioProfile, options: MicrophoneOptions, functionName: string): Promise<MediaStreamTrack> {
  return captureWithRetries('microphone', microphoneConstraints(profile, options), options.microphoneId, functionName, gum);
}

/** For tests: the retry loop with an injected getUserMedia. */
export const _captureWithRetries = captureWithRetries;
