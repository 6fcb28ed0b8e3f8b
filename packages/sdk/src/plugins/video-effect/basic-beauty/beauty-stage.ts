import { Downscaled } from '../pipeline/downscale.js';
import type { GlImage, GlKit } from '../pipeline/gl-kit.js';
import type { EffectStage, FrameInfo, FusedBinding, Size } from '../pipeline/stage.js';

/** Strengths 0–1 of the three retouches. */
export interface BeautyLevels {
  beauty: number;
  brightness: number;
  ruddy: number;
}

/**
 * One per-pixel function, fused into the pipeline's single pass (software WebGL pays per texture read):
 * edge-preserving smoothing — a quarter-size copy of the frame read bilinearly is a 4×4-pixel box blur,
 * mixed in only where it differs little from the pixel (fine skin texture goes, strong edges stay) — by
 * `beauty`; then a brightening curve that lifts mid-tones without clipping; then a rosy tint.
 */
const BEAUTY_GLSL = `
uniform sampler2D u_bbSmall;
uniform float u_beauty;
uniform float u_brightness;
uniform float u_ruddy;
vec4 bb_effect(vec4 base, vec2 uv) {
  vec3 color = base.rgb;
  if (u_beauty > 0.0) {
    const vec3 LUMA = vec3(0.299, 0.587, 0.114);
    vec3 smoothed = texture(u_bbSmall, uv).rgb;
    float d = abs(dot(color - smoothed, LUMA));
    color = mix(color, smoothed, clamp(u_beauty, 0.0, 1.0) * (1.0 - smoothstep(0.06, 0.2, d)));
  }
  // lifts mid-tones most, leaves black and white in place
  if (u_brightness > 0.0) color += u_brightness * 0.5 * color * (1.0 - color);
  if (u_ruddy > 0.0) {
    color.r = color.r + u_ruddy * 0.25 * (1.0 - color.r) * (0.3 + color.r);
    color.g = color.g * (1.0 - 0.08 * u_ruddy);
    color.b = color.b * (1.0 - 0.04 * u_ruddy);
  }
  return vec4(clamp(color, 0.0, 1.0), base.a);
}`;

/** BasicBeauty as a pipeline stage; levels change live with update(). */
export class BeautyStage implements EffectStage {
  readonly name = 'BasicBeauty' as const;
  levels: BeautyLevels;
  private readonly _small = new Downscaled();

  constructor(levels: BeautyLevels) {
    this.levels = levels;
  }

  readonly shader = { fn: 'bb_effect', glsl: BEAUTY_GLSL };

  bind(kit: GlKit, input: GlImage, frame: FrameInfo): FusedBinding {
    const { beauty, brightness, ruddy } = this.levels;
    const textures: Record<string, WebGLTexture> = {};
    if (beauty > 0) textures.u_bbSmall = this._small.update(kit, frame.source, { width: frame.sourceSize.width / 4, height: frame.sourceSize.height / 4 }, frame.mirrored);
    else textures.u_bbSmall = input.texture;
    return { textures, uniforms: { u_beauty: beauty, u_brightness: brightness, u_ruddy: ruddy } };
  }

  dispose(kit?: GlKit): void {
    this._small.dispose(kit);
  }

  /** 2d fallback: a blurred copy blended in for smoothing, CSS brightness, a soft red overlay. */
  draw2d(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, input: CanvasImageSource, size: Size): void {
    const { beauty, brightness, ruddy } = this.levels;
    ctx.save();
    if (beauty > 0) {
      ctx.globalAlpha = beauty * 0.7;
      ctx.filter = 'blur(2px)';
      ctx.drawImage(input, 0, 0, size.width, size.height);
      ctx.globalAlpha = 1;
    }
    if (brightness > 0) {
      ctx.filter = `brightness(${1 + brightness * 0.35})`;
      ctx.globalCompositeOperation = 'copy';
      ctx.drawImage(ctx.canvas, 0, 0);
      ctx.globalCompositeOperation = 'source-over';
    }
    ctx.filter = 'none';
    if (ruddy > 0) {
      ctx.globalCompositeOperation = 'soft-light';
      ctx.fillStyle = `rgba(255, 60, 60, ${0.35 * ruddy})`;
      ctx.fillRect(0, 0, size.width, size.height);
    }
    ctx.restore();
  }
}
