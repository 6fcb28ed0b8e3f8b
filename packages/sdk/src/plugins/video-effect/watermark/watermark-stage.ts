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

/** The watermark effect: one image at a place (a new start replaces it: docs/behaviour.md §5.6). */
export class WatermarkStage implements EffectStage {
  readonly name = 'Watermark' as const;
  private readonly _image: HTMLImageElement;
  private readonly _x: number;
  private readonly _y: number;
  private readonly _size: WatermarkSize | undefined;
  private _texture: WebGLTexture | undefined;

  constructor(image: HTMLImageElement, x: number, y: number, size: WatermarkSize | undefined) {
    this._image = image;
    this._x = x;
    this._y = y;
    this._size = size;
  }

  private _rect(frame: Size) {
    return watermarkRect({ width: this._image.naturalWidth, height: this._image.naturalHeight }, frame, this._x, this._y, this._size);
  }

  readonly shader = { fn: 'wm_effect', glsl: WATERMARK_GLSL };

  bind(kit: GlKit, input: GlImage): FusedBinding {
    if (!this._texture) {
      this._texture = kit.texture();
      kit.upload(this._texture, this._image);
    }
    const rect = this._rect(input);
    return { textures: { u_wmMark: this._texture }, uniforms: { u_wmRect: [rect.x, rect.y, rect.width, rect.height] } };
  }

  overlay(kit: GlKit, frame: Size): { texture: WebGLTexture; rect: { x: number; y: number; width: number; height: number } } {
    if (!this._texture) {
      this._texture = kit.texture();
      kit.upload(this._texture, this._image);
    }
    return { texture: this._texture, rect: this._rect(frame) };
  }

  draw2d(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, _input: CanvasImageSource, size: Size): void {
    const rect = this._rect(size);
    ctx.drawImage(this._image, rect.x, rect.y, rect.width, rect.height);
  }

  dispose(kit?: GlKit): void {
    if (kit && this._texture) kit.gl.deleteTexture(this._texture);
    this._texture = undefined;
  }
}
