import type { PluginContext } from '../../../plugin-api/index.js';
import { NOT_IMPLEMENTED, unavailable } from '../../common/unavailable.js';

/** Options of startPlugin('FaceDetection'). */
export interface FaceDetectionOptions {
  /** Called when a face appears in, or leaves, the published camera. */
  onFaceDetectionStateChanged: (hasFace: boolean) => void;
  /** ms between detections. */
  detectionInterval?: number;
  /** 0–1. */
  minConfidence?: number;
  /** ms without a face before "no face" is reported. */
  missingTimeout?: number;
}

/** Options of updatePlugin('FaceDetection'). */
export interface UpdateFaceDetectionOptions {
  onFaceDetectionStateChanged?: (hasFace: boolean) => void;
  detectionInterval?: number;
  minConfidence?: number;
  missingTimeout?: number;
}

/**
 * The FaceDetection plugin (trtc-sdk-v5's plugins/video-effect/face-detection). Not built in Conclave yet:
 * the module loads and registers, `isSupported()` answers false, and start / update reject with
 * ENV_NOT_SUPPORTED (5200).
 */
export class FaceDetection {
  static readonly Name = 'FaceDetection';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** False: face detection is not implemented in Conclave yet. */
  static isSupported(): boolean {
    return false;
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  start(_options: FaceDetectionOptions): Promise<void> {
    return unavailable(this._ctx, 'FaceDetection', 'startPlugin', NOT_IMPLEMENTED);
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  update(_options: UpdateFaceDetectionOptions): Promise<void> {
    return unavailable(this._ctx, 'FaceDetection', 'updatePlugin', NOT_IMPLEMENTED);
  }

  /** Resolves: nothing runs. */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}

export default FaceDetection;
