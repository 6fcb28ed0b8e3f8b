import type { FrameTap } from '../pipeline/frame-tap.js';
import type { GlImage, GlKit, GlTarget } from '../pipeline/gl-kit.js';
import type { EffectStage, FrameInfo, Size } from '../pipeline/stage.js';
import { fillTransform, rotationUv, uprightSize, type LayerFillMode, type LayerRotation, type Rect } from './layout.js';

/** Where a layer's pixels come from. */
export type LayerSource =
  | { kind: 'camera' }
  | { kind: 'tap'; tap: FrameTap }
  | { kind: 'image'; image: TexImageSource & CanvasImageSource; size: Size };

/** A layer ready to draw. */
export interface MixerLayer {
  source: LayerSource;
  rect: Rect;
  zOrder: number;
  mirror: boolean;
  fillMode: LayerFillMode;
  /** Clockwise turn of the picture in its rect. */
  rotation: LayerRotation;
}

/** The mixed frame: its size and background, and the layers bottom to top. */
export interface MixerLayout {
  container: Size;
  background: [number, number, number, number];
  layers: MixerLayer[];
}

/** One layer into its rectangle: mirror, the turn back to the upright picture, then the fill transform; outside the source (contain) stays empty. */
const LAYER_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform vec4 u_fit;
uniform float u_mirror;
uniform vec4 u_rot;
uniform vec2 u_rotT;
void main() {
  vec2 uv = v_uv;
  if (u_mirror > 0.5) uv.x = 1.0 - uv.x;
  uv = vec2(u_rot.x * uv.x + u_rot.y * uv.y, u_rot.z * uv.x + u_rot.w * uv.y) + u_rotT;
  uv = uv * u_fit.xy + u_fit.zw;
  if (uv.x < 0.0 || uv.y < 0.0 || uv.x > 1.0 || uv.y > 1.0) discard;
  outColor = texture(u_src, uv);
}`;

/** VideoMixer as the pipeline stage that changes the frame: the container with its layers. */
export class MixerStage implements EffectStage {
  readonly name = 'VideoMixer' as const;
  layout: MixerLayout;
  private readonly _textures = new Map<object, { texture: WebGLTexture; version: number }>();

  constructor(layout: MixerLayout) {
    this.layout = layout;
  }

  outputSize(): Size {
    return this.layout.container;
  }

  private _texture(kit: GlKit, source: LayerSource, input: GlImage): { texture: WebGLTexture; size: Size } | undefined {
    if (source.kind === 'camera') return { texture: input.texture, size: input };
    const key = source.kind === 'tap' ? source.tap : source.image;
    let entry = this._textures.get(key);
    if (!entry) {
      entry = { texture: kit.texture(), version: -1 };
      this._textures.set(key, entry);
    }
    if (source.kind === 'tap') {
      const image = source.tap.image;
      if (!image && entry.version < 0) return undefined;
      if (image && entry.version !== source.tap.version) {
        kit.upload(entry.texture, image);
        entry.version = source.tap.version;
      }
      return { texture: entry.texture, size: source.tap.size };
    }
    if (entry.version < 0) {
      kit.upload(entry.texture, source.image);
      entry.version = 0;
    }
    return { texture: entry.texture, size: source.size };
  }

  drawGl(kit: GlKit, input: GlImage, output: GlTarget): void {
    const gl = kit.gl;
    kit.clear(output, this.layout.background);
    const program = kit.program('mixer-layer', LAYER_SHADER);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    try {
      for (const layer of this.layout.layers) {
        const found = this._texture(kit, layer.source, input);
        if (!found) continue;
        const [a, b, c, d, tx, ty] = rotationUv(layer.rotation);
        kit.draw(program, output, { u_src: found.texture }, {
          u_fit: fillTransform(found.size, uprightSize(layer.rect, layer.rotation), layer.fillMode),
          u_mirror: layer.mirror ? 1 : 0,
          u_rot: [a, b, c, d],
          u_rotT: [tx, ty],
        }, undefined, layer.rect);
      }
    } finally {
      gl.disable(gl.BLEND);
    }
  }

  /** 2d fallback: the same layers with drawImage. */
  draw2d(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, input: CanvasImageSource, size: Size, frame: FrameInfo): void {
    const [r, g, b] = this.layout.background;
    ctx.save();
    ctx.globalCompositeOperation = 'copy';
    ctx.fillStyle = `rgb(${r * 255}, ${g * 255}, ${b * 255})`;
    ctx.fillRect(0, 0, size.width, size.height);
    ctx.globalCompositeOperation = 'source-over';
    for (const layer of this.layout.layers) {
      const image = layer.source.kind === 'camera' ? input : layer.source.kind === 'tap' ? layer.source.tap.image : layer.source.image;
      const source = layer.source.kind === 'camera' ? frame.sourceSize : layer.source.kind === 'tap' ? layer.source.tap.size : layer.source.size;
      if (!image || source.width === 0) continue;
      const { x, y, width, height } = layer.rect;
      // Drawn upright about the rect's centre, then turned clockwise into it.
      const upright = uprightSize(layer.rect, layer.rotation);
      const [sx, sy, ox, oy] = fillTransform(source, upright, layer.fillMode);
      ctx.save();
      ctx.beginPath();
      ctx.rect(x, y, width, height);
      ctx.clip();
      ctx.translate(x + width / 2, y + height / 2);
      if (layer.mirror) ctx.scale(-1, 1);
      ctx.rotate((layer.rotation * Math.PI) / 180);
      // The source spans uv (0 - o) / s … (1 - o) / s of the upright rect.
      ctx.drawImage(image, -upright.width / 2 + (-ox / sx) * upright.width, -upright.height / 2 + (-oy / sy) * upright.height, upright.width / sx, upright.height / sy);
      ctx.restore();
    }
    ctx.restore();
  }

  /** Drops textures of sources no longer in the layout. */
  prune(kit: GlKit | undefined): void {
    const live = new Set<object>(this.layout.layers.flatMap<object>((layer) => layer.source.kind === 'tap' ? [layer.source.tap] : layer.source.kind === 'image' ? [layer.source.image] : []));
    for (const [key, entry] of this._textures) {
      if (live.has(key)) continue;
      kit?.gl.deleteTexture(entry.texture);
      this._textures.delete(key);
    }
  }

  dispose(kit?: GlKit): void {
    for (const entry of this._textures.values()) kit?.gl.deleteTexture(entry.texture);
    this._textures.clear();
  }
}
