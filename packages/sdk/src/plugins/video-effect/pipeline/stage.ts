import type { GlImage, GlKit, GlTarget, Uniforms } from './gl-kit.js';

/** A frame size in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** Where each effect sits in the chain: lower runs first. One stage per name. */
export const STAGE_ORDER = Object.freeze({
  /** Beauty's face-shape warp reads the camera image itself (its pass's input): it runs first. */
  Beauty: 5,
  /** Beauty works on the camera image itself. */
  BasicBeauty: 10,
  /** Background replacement after beauty, so the new background is not retouched. */
  VirtualBackground: 20,
  /** VirtualBackground's face centering crops the composed frame (after the background, so the mask fits it). */
  FaceCentering: 25,
  /** The mixer composes the processed camera with other sources into a new canvas. */
  VideoMixer: 30,
  /** The watermark goes on top of everything, unmirrored. */
  Watermark: 40,
} as const);

/** Per-frame information the stages get. */
export interface FrameInfo {
  /** Microseconds, the source frame's timestamp. */
  timestamp: number;
  /** The source frame's size (camera, before any stage). */
  readonly sourceSize: Size;
  /** The source frame itself (valid during the call only), e.g. for a segmentation model. */
  readonly source: CanvasImageSource;
  /** True when the pipeline mirrored the source before the stages (publish mirror). */
  readonly mirrored: boolean;
}

/**
 * A per-pixel effect for the fused pass: GLSL declarations (its own uniforms and samplers, named uniquely)
 * and a function `vec4 <fn>(vec4 color, vec2 uv)` applied to the colour at uv (v = 0 at the top). Stages in
 * a row that all have one are applied in ONE full-frame pass (software WebGL pays per pass).
 */
export interface FusedShader {
  /** Names the function and keys the compiled program. */
  fn: string;
  glsl: string;
}

/** What a fusable stage binds for a frame: textures (made in its own smaller pre-passes) and uniforms. */
export interface FusedBinding {
  textures: Record<string, WebGLTexture>;
  uniforms: Uniforms;
}

/**
 * One effect in the pipeline. A per-pixel stage gives `shader` + `bind` (WebGL2, fused with its
 * neighbours); a stage that changes the geometry (the mixer) gives `drawGl`. Where a 2d fallback is
 * allowed (docs/behaviour.md §5.6), `draw2d`. A stage may change the frame size (the mixer's container).
 */
export interface EffectStage {
  readonly name: keyof typeof STAGE_ORDER;
  /** The size this stage outputs for a given input size (default: the same). */
  outputSize?(input: Size): Size;
  /** The per-pixel shader of a fusable stage. */
  readonly shader?: FusedShader;
  /** Prepares a frame for the fused pass (pre-passes into pooled targets) and returns what to bind. */
  bind?(kit: GlKit, input: GlImage, frame: FrameInfo): FusedBinding;
  /**
   * An image over one rectangle of the frame (top-left pixels; straight alpha), drawn after the other
   * stages as a small blended quad: it then costs its own pixels only, not a read in every pixel of the
   * full-frame pass. Used when the stage comes last in the chain (the watermark); else `shader` is.
   */
  overlay?(kit: GlKit, frame: Size): { texture: WebGLTexture; rect: { x: number; y: number; width: number; height: number } } | undefined;
  /** A stage with its own passes: draws `input` with the effect into `output` (a target of outputSize()). */
  drawGl?(kit: GlKit, input: GlImage, output: GlTarget, frame: FrameInfo): void;
  /** The 2d-canvas fallback: draws the effect onto `ctx`, which already holds the input image. */
  draw2d?(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, input: CanvasImageSource, size: Size, frame: FrameInfo): void;
  /** Frees the stage's GL objects (kit given when the stage had GL state). */
  dispose?(kit?: GlKit): void;
}
