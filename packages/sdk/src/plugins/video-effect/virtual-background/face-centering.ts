/**
 * VirtualBackground's `enableFaceCentering` (5.17): the frame is cropped and zoomed so that the face is in the
 * middle, following it smoothly. The face comes from the FaceDetection plugin's MediaPipe detector
 * (face-detection/detector.ts), run beside the frame loop a few times a second; the crop window eases
 * toward the face at each frame, and back to the whole frame when no face has been seen for a while.
 */
import type { FaceBox, FaceDetector } from '../face-detection/detector.js';
import type { GlImage, GlKit, GlTarget } from '../pipeline/gl-kit.js';
import type { EffectStage, FrameInfo } from '../pipeline/stage.js';

/** Detections per second. */
const DETECT_RATE = 5;
/** The share of the frame height the face is zoomed to, and the zoom's bounds. */
const FACE_SHARE = 0.45;
const MIN_ZOOM = 1.25;
const MAX_ZOOM = 2;
/** How far the window moves toward its target each frame (exponential smoothing). */
const EASE = 0.15;
/** After this long without a face the window returns to the whole frame. */
const FACE_LOST_MS = 2000;

/** The crop window: its centre and its size, as fractions of the frame. */
export interface CropWindow {
  x: number;
  y: number;
  size: number;
}

export const WHOLE_FRAME: CropWindow = Object.freeze({ x: 0.5, y: 0.5, size: 1 });

/** The window that centres `face` (frame fractions), zoomed to its size and kept inside the frame. */
export function windowFor(face: FaceBox): CropWindow {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, FACE_SHARE / Math.max(0.01, face.height)));
  const size = 1 / zoom;
  const clamp = (v: number) => Math.min(1 - size / 2, Math.max(size / 2, v));
  return { x: clamp(face.xCenter), y: clamp(face.yCenter), size };
}

/** One smoothing step from `current` toward `target`. */
export function ease(current: CropWindow, target: CropWindow, amount = EASE): CropWindow {
  return {
    x: current.x + (target.x - current.x) * amount,
    y: current.y + (target.y - current.y) * amount,
    size: current.size + (target.size - current.size) * amount,
  };
}

/** The window sampled over the frame's uv: scale and offset. */
const CROP_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform vec4 u_crop;
void main() {
  outColor = texture(u_src, v_uv * u_crop.xy + u_crop.zw);
}`;

/** Face centering as a pipeline stage (WebGL2, as VirtualBackground). */
export class FaceCenteringStage implements EffectStage {
  readonly name = 'FaceCentering' as const;
  private readonly _detector: FaceDetector;
  private _window: CropWindow = WHOLE_FRAME;
  private _target: CropWindow = WHOLE_FRAME;
  private _busy = false;
  private _lastSent = 0;
  private _lastFace = 0;

  constructor(detector: FaceDetector) {
    this._detector = detector;
  }

  /** The current crop window (for tests and logs). */
  get window(): CropWindow {
    return this._window;
  }

  private _feed(frame: FrameInfo): void {
    const now = performance.now();
    if (this._busy || now - this._lastSent < 1000 / DETECT_RATE) return;
    this._busy = true;
    this._lastSent = now;
    // The detector reads the frame before its first await: the frame may be closed after this call.
    this._detector.locate(frame.source, frame.sourceSize.width, frame.sourceSize.height).then((face) => {
      if (face) {
        this._lastFace = performance.now();
        // The stage's input is mirrored when the pipeline mirrored the source.
        this._target = windowFor(frame.mirrored ? { ...face, xCenter: 1 - face.xCenter } : face);
      } else if (performance.now() - this._lastFace > FACE_LOST_MS) {
        this._target = WHOLE_FRAME;
      }
    }, () => undefined).finally(() => { // a failed detection keeps the last window; the next frame tries again
      this._busy = false;
    });
  }

  drawGl(kit: GlKit, input: GlImage, output: GlTarget, frame: FrameInfo): void {
    this._feed(frame);
    this._window = ease(this._window, this._target);
    const { x, y, size } = this._window;
    kit.draw(kit.program('face-centering', CROP_SHADER), output, { u_src: input.texture }, { u_crop: [size, size, x - size / 2, y - size / 2] });
  }
}
