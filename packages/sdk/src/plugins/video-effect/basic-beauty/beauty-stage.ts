import type { GlImage, GlKit, GlTarget } from '../pipeline/gl-kit.js';
import type { EffectStage, Size } from '../pipeline/stage.js';

/** Strengths 0–1 of the three retouches. */
export interface BeautyLevels {
  beauty: number;
  brightness: number;
  ruddy: number;
}

/**
 * One pass: edge-preserving smoothing (a 12-tap bilateral ring: fine skin texture is averaged, strong edges
 * kept), then a brightening curve that lifts mid-tones without clipping, then a rosy tint.
 */
const BEAUTY_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform vec2 u_size;
uniform float u_beauty;
uniform float u_brightness;
uniform float u_ruddy;
const vec3 LUMA = vec3(0.299, 0.587, 0.114);
void main() {
  vec4 base = texture(u_src, v_uv);
  vec3 color = base.rgb;
  if (u_beauty > 0.0) {
    vec2 px = max(1.5, u_size.y / 200.0) / u_size;
    float center = dot(color, LUMA);
    vec3 sum = color;
    float total = 1.0;
    for (int i = 0; i < 12; i++) {
      float angle = float(i) * 0.5235988;
      float radius = (i % 2 == 0) ? 1.0 : 2.0;
      vec3 c = texture(u_src, v_uv + vec2(cos(angle), sin(angle)) * px * radius).rgb;
      float d = dot(c, LUMA) - center;
      float w = exp(-d * d * 40.0);
      sum += c * w;
      total += w;
    }
    color = mix(color, sum / total, clamp(u_beauty, 0.0, 1.0));
  }
  if (u_brightness > 0.0) color = 1.0 - pow(1.0 - clamp(color, 0.0, 1.0), vec3(1.0 + u_brightness * 0.8));
  if (u_ruddy > 0.0) {
    color.r = color.r + u_ruddy * 0.25 * (1.0 - color.r) * (0.3 + color.r);
    color.g = color.g * (1.0 - 0.08 * u_ruddy);
    color.b = color.b * (1.0 - 0.04 * u_ruddy);
  }
  outColor = vec4(clamp(color, 0.0, 1.0), base.a);
}`;

/** BasicBeauty as a pipeline stage; levels change live with update(). */
export class BeautyStage implements EffectStage {
  readonly name = 'BasicBeauty' as const;
  levels: BeautyLevels;

  constructor(levels: BeautyLevels) {
    this.levels = levels;
  }

  drawGl(kit: GlKit, input: GlImage, output: GlTarget): void {
    const { beauty, brightness, ruddy } = this.levels;
    kit.draw(kit.program('basic-beauty', BEAUTY_SHADER), output, { u_src: input.texture }, { u_beauty: beauty, u_brightness: brightness, u_ruddy: ruddy });
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
