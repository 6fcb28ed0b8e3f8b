import { deviceError, envNotSupported, MESSAGE } from '../errors/catalogue.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import type { AudioProfile, VideoProfile } from './profiles.js';

/** Throws ENV_NOT_SUPPORTED when capture is impossible here (http page, no mediaDevices). */
function checkCaptureSupport(functionName: string): void {
  if (typeof isSecureContext !== 'undefined' && !isSecureContext) throw envNotSupported(EXTRA_CODE.HTTP, MESSAGE.HTTP, functionName);
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.getUserMedia) throw envNotSupported(EXTRA_CODE.WEBRTC, MESSAGE.WEBRTC, functionName);
}

/** Captures the camera at a profile; rejects with DEVICE_ERROR (SPEC's 5301… codes). */
export async function captureCamera(profile: VideoProfile, cameraId: string | undefined, functionName: string): Promise<MediaStreamTrack> {
  checkCaptureSupport(functionName);
  const video: MediaTrackConstraints = {
    width: { ideal: profile.width },
    height: { ideal: profile.height },
    frameRate: { ideal: profile.frameRate },
    ...(cameraId ? { deviceId: { exact: cameraId } } : {}),
  };
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ video, audio: false });
    return stream.getVideoTracks()[0];
  } catch (error) {
    throw deviceError(error, 'camera', functionName);
  }
}

/** Options of microphone capture. */
export interface MicrophoneOptions {
  microphoneId?: string;
  echoCancellation?: boolean;
  autoGainControl?: boolean;
  noiseSuppression?: boolean;
}

/** Captures the microphone at a profile; rejects with DEVICE_ERROR. */
export async function captureMicrophone(profile: AudioProfile, options: MicrophoneOptions, functionName: string): Promise<MediaStreamTrack> {
  checkCaptureSupport(functionName);
  const audio: MediaTrackConstraints = {
    sampleRate: profile.sampleRate,
    channelCount: profile.channelCount,
    echoCancellation: options.echoCancellation ?? true,
    autoGainControl: options.autoGainControl ?? true,
    noiseSuppression: options.noiseSuppression ?? true,
    ...(options.microphoneId ? { deviceId: { exact: options.microphoneId } } : {}),
  };
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio, video: false });
    return stream.getAudioTracks()[0];
  } catch (error) {
    throw deviceError(error, 'microphone', functionName);
  }
}
