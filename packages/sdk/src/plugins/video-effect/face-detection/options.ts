import { EXTRA_CODE } from '../../../constants/error-code.js';
import { invalidParameter } from '../../../errors/catalogue.js';
import { numberIn, requireObject } from '../pipeline/host.js';

/** Options of startPlugin('FaceDetection'). */
export interface FaceDetectionOptions {
  /** Called with true when a face appears in the camera, with false when it has been missing for `missingTimeout`. */
  onFaceDetectionStateChanged: (hasFace: boolean) => void;
  /** ms between detections, 100–5000 (default 300). */
  detectionInterval?: number;
  /** The detector's score a face needs, 0–1 (default 0.8). */
  minConfidence?: number;
  /** ms without a face before "no face" is reported, 0–5000 (default 1000; 0: at once). */
  missingTimeout?: number;
}

/** Options of updatePlugin('FaceDetection'): the options given change, the others stay. */
export interface UpdateFaceDetectionOptions {
  onFaceDetectionStateChanged?: (hasFace: boolean) => void;
  detectionInterval?: number;
  minConfidence?: number;
  missingTimeout?: number;
}

/** The settings in force (the original's defaults filled in). */
export interface FaceDetectionSettings {
  onFaceDetectionStateChanged: (hasFace: boolean) => void;
  detectionInterval: number;
  minConfidence: number;
  missingTimeout: number;
}

/** The original's defaults. */
export const FACE_DETECTION_DEFAULTS = Object.freeze({ detectionInterval: 300, minConfidence: 0.8, missingTimeout: 1000 });

/**
 * Checks start / update options against the original's rules (ranges above; the callback a function,
 * required at start) and merges them over `base`; INVALID_PARAMETER otherwise.
 */
export function resolveFaceDetectionOptions(value: unknown, base: FaceDetectionSettings | undefined, functionName: string): FaceDetectionSettings {
  const options = requireObject(value, base ? 'UpdateFaceDetectionOptions' : 'FaceDetectionOptions', functionName);
  const callback = options.onFaceDetectionStateChanged;
  if (callback === undefined && !base) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'onFaceDetectionStateChanged is required', functionName);
  if (callback !== undefined && typeof callback !== 'function') throw invalidParameter(EXTRA_CODE.TYPE, 'onFaceDetectionStateChanged must be a function', functionName);
  const detectionInterval = numberIn(options, 'detectionInterval', 100, 5000, functionName);
  const minConfidence = numberIn(options, 'minConfidence', 0, 1, functionName);
  const missingTimeout = numberIn(options, 'missingTimeout', 0, 5000, functionName);
  const from = base ?? FACE_DETECTION_DEFAULTS;
  return {
    onFaceDetectionStateChanged: (callback as FaceDetectionSettings['onFaceDetectionStateChanged'] | undefined) ?? (base as FaceDetectionSettings).onFaceDetectionStateChanged,
    detectionInterval: detectionInterval ?? from.detectionInterval,
    minConfidence: minConfidence ?? from.minConfidence,
    missingTimeout: missingTimeout ?? from.missingTimeout,
  };
}
