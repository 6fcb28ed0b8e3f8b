import { Downscaled } from '../pipeline/downscale.js';
import type { GlImage, GlKit } from '../pipeline/gl-kit.js';
import { retouchGlsl } from '../pipeline/retouch.js';
import type { EffectStage, FrameInfo, FusedBinding, Size } from '../pipeline/stage.js';

/** Strengths 0–1 of the three retouches. */
export interface BeautyLevels {
  beauty: number;
  brightness: number;
  ruddy: number;
}

/**
 * One per-pixel function, fused into the pipeline's single pass (software WebGL pays per texture read):
 * the shared retouch (pipeline/retouch.ts) by `beauty`, `brightness` and `ruddy`.
 */
const BEAUTY_GLSL = `
uniform sampler2D u_bbSmall;
uniform float u_beauty;
uniform float u_brightness;
uniform float u_ruddy;
${retouchGlsl('bb')}
vec4 bb_effect(vec4 base, vec2 uv) {
  vec3 smoothed = u_beauty > 0.0 ? texture(u_bbSmall, uv).rgb : base.rgb;
  return vec4(bb_retouch(base.rgb, smoothed, u_beauty, u_brightness, u_ruddy), base.a);
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
