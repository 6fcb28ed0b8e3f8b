import type { GlImage, GlKit, GlTarget } from '../pipeline/gl-kit.js';
import type { EffectStage, Size } from '../pipeline/stage.js';
import { watermarkRect, type WatermarkSize } from './layout.js';

/** Blends the watermark image over the frame inside its rectangle (straight alpha). */
const WATERMARK_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform sampler2D u_mark;
uniform vec2 u_size;
uniform vec4 u_rect;
void main() {
  vec4 color = texture(u_src, v_uv);
  vec2 m = (v_uv * u_size - u_rect.xy) / u_rect.zw;
  if (m.x >= 0.0 && m.y >= 0.0 && m.x <= 1.0 && m.y <= 1.0) {
    vec4 mark = texture(u_mark, m);
    color.rgb = mix(color.rgb, mark.rgb, mark.a);
  }
  outColor = color;
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

  drawGl(kit: GlKit, input: GlImage, output: GlTarget): void {
    if (!this.#texture) {
      this.#texture = kit.texture();
      kit.upload(this.#texture, this.#image);
    }
    const rect = this.#rect(input);
    kit.draw(kit.program('watermark', WATERMARK_SHADER), output, { u_src: input.texture, u_mark: this.#texture }, { u_rect: [rect.x, rect.y, rect.width, rect.height] });
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
