import type { GlImage, GlKit } from '../pipeline/gl-kit.js';
import type { EffectStage, FusedBinding, Size } from '../pipeline/stage.js';
import { watermarkRect, type WatermarkSize } from './layout.js';

/** Blends the watermark image over the frame inside its rectangle (straight alpha). */
const WATERMARK_GLSL = `
uniform sampler2D u_wmMark;
uniform vec4 u_wmRect;
vec4 wm_effect(vec4 color, vec2 uv) {
  vec2 m = (uv * u_size - u_wmRect.xy) / u_wmRect.zw;
  if (m.x >= 0.0 && m.y >= 0.0 && m.x <= 1.0 && m.y <= 1.0) {
    vec4 mark = texture(u_wmMark, m);
    color.rgb = mix(color.rgb, mark.rgb, mark.a);
  }
  return color;
}`;

/** The watermark effect: one image at a place (a new start replaces it, as SPEC's overlay rules say). */
export class WatermarkStage implements EffectStage {
  readonly name = 'Watermark' as const;
  readonly #image: HTMLImageElement;
  readonly #x: number;
  readonly #y: number;
  readonly #size: WatermarkSize | undefined;
  #texture: WebGLTexture | undefined;

  constructor(image: HTMLImageElement, x: number, y: number, size: WatermarkSize | undefined) {
    this.#image = image;
    this.#x = x;
    this.#y = y;
    this.#size = size;
  }

  #rect(frame: Size) {
    return watermarkRect({ width: this.#image.naturalWidth, height: this.#image.naturalHeight }, frame, this.#x, this.#y, this.#size);
  }

  readonly shader = { fn: 'wm_effect', glsl: WATERMARK_GLSL };

  bind(kit: GlKit, input: GlImage): FusedBinding {
    if (!this.#texture) {
      this.#texture = kit.texture();
      kit.upload(this.#texture, this.#image);
    }
    const rect = this.#rect(input);
    return { textures: { u_wmMark: this.#texture }, uniforms: { u_wmRect: [rect.x, rect.y, rect.width, rect.height] } };
  }

  overlay(kit: GlKit, frame: Size): { texture: WebGLTexture; rect: { x: number; y: number; width: number; height: number } } {
    if (!this.#texture) {
      this.#texture = kit.texture();
      kit.upload(this.#texture, this.#image);
    }
    return { texture: this.#texture, rect: this.#rect(frame) };
  }

  draw2d(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, _input: CanvasImageSource, size: Size): void {
    const rect = this.#rect(size);
    ctx.drawImage(this.#image, rect.x, rect.y, rect.width, rect.height);
  }

  dispose(kit?: GlKit): void {
    if (kit && this.#texture) kit.gl.deleteTexture(this.#texture);
    this.#texture = undefined;
  }
}
