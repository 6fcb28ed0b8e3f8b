import type { GlImage, GlKit } from '../pipeline/gl-kit.js';
import type { EffectStage, FrameInfo, FusedBinding, Size } from '../pipeline/stage.js';
import type { Segmenter } from './segmenter.js';

/** 'image', 'blur' and 'color' use the person mask; 'green' keys out a green screen (no model). */
export type BackgroundType = 'image' | 'blur' | 'green' | 'color';

/** docs/behaviour.md §9 / §3: the default blur level (radius 3). */
export const DEFAULT_BLUR_LEVEL = 3;

/** Green-screen keying: the green weight of the pixel decides how much of the background image shows. */
const GREEN_GLSL = `
uniform sampler2D u_vbBg;
uniform vec4 u_vbBgFit;
vec4 vb_green(vec4 color, vec2 uv) {
  float background = smoothstep(0.06, 0.16, color.g - max(color.r, color.b));
  // spill: a green fringe on the figure's edge is pulled to neutral
  color.g = min(color.g, max(color.r, color.b) + 0.03);
  vec3 bg = texture(u_vbBg, uv * u_vbBgFit.xy + u_vbBgFit.zw).rgb;
  return vec4(mix(color.rgb, bg, background), 1.0);
}`;

/**
 * Person mask: the background layer (blurred frame or image) arrives premultiplied by the background
 * weight (1 − person), composed on the CPU at the mask's rate, so the pass reads ONE texture.
 */
const LAYER_GLSL = `
uniform sampler2D u_vbLayer;
uniform float u_vbHasLayer;
vec4 vb_layer(vec4 color, vec2 uv) {
  if (u_vbHasLayer < 0.5) return color;
  vec4 layer = texture(u_vbLayer, uv);
  // a crisper edge than the bilinear mask: the weight through a steep ramp, the colour un-premultiplied
  float weight = clamp(layer.a * 2.0 - 0.5, 0.0, 1.0);
  return vec4(color.rgb * (1.0 - weight) + layer.rgb * (weight / max(layer.a, 0.004)), 1.0);
}`;

/** uv scale and offset that fit an image over the frame like CSS object-fit: cover. */
export function coverFit(image: Size, frame: Size): [number, number, number, number] {
  const imageAspect = image.width / image.height;
  const frameAspect = frame.width / frame.height;
  if (imageAspect > frameAspect) {
    const scale = frameAspect / imageAspect;
    return [scale, 1, (1 - scale) / 2, 0];
  }
  const scale = imageAspect / frameAspect;
  return [1, scale, 0, (1 - scale) / 2];
}

/** The settings of a background effect. */
export interface BackgroundSettings {
  type: BackgroundType;
  /** The background image (image and green). */
  image?: HTMLImageElement;
  /** 1–10 (blur). */
  blurLevel: number;
  /** A CSS colour (color). */
  color?: string;
}

type Ctx2d = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** VirtualBackground as a pipeline stage (WebGL2 only: no 2d virtual background, docs/behaviour.md §5.6). */
export class BackgroundStage implements EffectStage {
  readonly name = 'VirtualBackground' as const;
  settings: BackgroundSettings;
  /** The person segmentation (image / blur), kept by the plugin across updates. */
  segmenter: Segmenter | undefined;
  private _bgTexture: WebGLTexture | undefined;
  private _bgImage: HTMLImageElement | undefined;
  private _layerTexture: WebGLTexture | undefined;
  /** What the layer was last built from: mask version and settings. */
  private _layerKey = '';
  private readonly _layer: OffscreenCanvas | HTMLCanvasElement;

  constructor(settings: BackgroundSettings, segmenter: Segmenter | undefined) {
    this.settings = settings;
    this.segmenter = segmenter;
    this._layer = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(2, 2) : document.createElement('canvas');
  }

  get shader() {
    return this.settings.type === 'green' ? { fn: 'vb_green', glsl: GREEN_GLSL } : { fn: 'vb_layer', glsl: LAYER_GLSL };
  }

  bind(kit: GlKit, input: GlImage, frame: FrameInfo): FusedBinding {
    return this.settings.type === 'green' ? this._bindGreen(kit, input) : this._bindLayer(kit, input, frame);
  }

  private _bindGreen(kit: GlKit, input: GlImage): FusedBinding {
    const image = this.settings.image;
    if (image && this._bgImage !== image) {
      this._bgTexture ??= kit.texture();
      kit.upload(this._bgTexture, image);
      this._bgImage = image;
    }
    const fit = image ? coverFit({ width: image.naturalWidth, height: image.naturalHeight }, input) : [1, 1, 0, 0];
    return { textures: { u_vbBg: this._bgTexture ?? input.texture }, uniforms: { u_vbBgFit: fit } };
  }

  /**
   * The background layer in the source's orientation: the frame scaled down (blur: bilinear reads of a
   * tiny copy are a wide blur) or the image (cover-fit), with the person cut out of its alpha
   * ('destination-out' with the mask), uploaded premultiplied. Blur rebuilds it each frame (small); an
   * image only when the mask changes.
   */
  private _bindLayer(kit: GlKit, input: GlImage, frame: FrameInfo): FusedBinding {
    const { type, image, blurLevel, color } = this.settings;
    const segmenter = this.segmenter;
    segmenter?.feed(frame.source);
    const mask = segmenter?.mask;
    if (!mask || !segmenter) return { textures: { u_vbLayer: input.texture }, uniforms: { u_vbHasLayer: 0 } };
    const key = `${segmenter.version}:${type}:${blurLevel}:${color ?? ''}:${frame.mirrored}`;
    if (type === 'blur' || key !== this._layerKey || image !== this._bgImage) {
      // blurLevel 1–10 → the frame scaled down 6–24 times (radius ≈ 3–12 pixels); an image at full size
      const factor = type === 'blur' ? 4 + 2 * Math.max(1, Math.min(10, blurLevel)) : 1;
      const width = Math.max(2, Math.round(frame.sourceSize.width / factor));
      const height = Math.max(2, Math.round(frame.sourceSize.height / factor));
      const canvas = this._layer;
      if (canvas.width !== width) canvas.width = width;
      if (canvas.height !== height) canvas.height = height;
      const ctx = canvas.getContext('2d') as Ctx2d;
      ctx.globalCompositeOperation = 'copy';
      ctx.imageSmoothingEnabled = true;
      // The layer is built in the frame's orientation (the source and the mask mirrored when the frame is,
      // the image upright), so the shader reads it at the frame's own uv.
      const mirror = (draw: () => void) => {
        ctx.setTransform(frame.mirrored ? -1 : 1, 0, 0, 1, frame.mirrored ? width : 0, 0);
        draw();
        ctx.setTransform(1, 0, 0, 1, 0, 0);
      };
      if (type === 'color') {
        ctx.fillStyle = color ?? '#000';
        ctx.fillRect(0, 0, width, height);
      } else if (type === 'blur' || !image) {
        mirror(() => ctx.drawImage(frame.source, 0, 0, width, height));
      } else {
        const [sx, sy, ox, oy] = coverFit({ width: image.naturalWidth, height: image.naturalHeight }, { width, height });
        ctx.drawImage(image, ox * image.naturalWidth, oy * image.naturalHeight, sx * image.naturalWidth, sy * image.naturalHeight, 0, 0, width, height);
      }
      ctx.globalCompositeOperation = 'destination-out';
      mirror(() => ctx.drawImage(mask, 0, 0, width, height));
      ctx.globalCompositeOperation = 'source-over';
      this._layerTexture ??= kit.texture();
      kit.upload(this._layerTexture, canvas, true);
      this._layerKey = key;
      this._bgImage = image;
    }
    return { textures: { u_vbLayer: this._layerTexture ?? input.texture }, uniforms: { u_vbHasLayer: 1 } };
  }

  dispose(kit?: GlKit): void {
    if (kit) {
      if (this._bgTexture) kit.gl.deleteTexture(this._bgTexture);
      if (this._layerTexture) kit.gl.deleteTexture(this._layerTexture);
    }
    this._bgTexture = undefined;
    this._layerTexture = undefined;
    this._bgImage = undefined;
    this._layerKey = '';
  }
}
