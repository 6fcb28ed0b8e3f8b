import type { GlImage, GlKit, GlTarget } from '../pipeline/gl-kit.js';
import type { EffectStage, FrameInfo, Size } from '../pipeline/stage.js';
import type { Segmenter } from './segmenter.js';

/** 'image' and 'blur' use the person mask; 'green' keys out a green screen (no model). */
export type BackgroundType = 'image' | 'blur' | 'green';

/** SPEC §9 / §3: the default blur level (radius 3). */
export const DEFAULT_BLUR_LEVEL = 3;

/** Background weight per pixel (green key or person mask), then the mix with the new background. */
const COMPOSE_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform sampler2D u_bg;
uniform sampler2D u_mask;
uniform float u_mode;
uniform float u_mirrorMask;
uniform float u_hasMask;
uniform vec4 u_bgFit;
void main() {
  vec4 color = texture(u_src, v_uv);
  float background;
  if (u_mode < 0.5) {
    float green = color.g - max(color.r, color.b);
    background = smoothstep(0.06, 0.16, green);
    // spill: a green fringe on the figure's edge is pulled to neutral
    color.g = min(color.g, max(color.r, color.b) + 0.03);
  } else if (u_hasMask > 0.5) {
    vec2 muv = v_uv;
    if (u_mirrorMask > 0.5) muv.x = 1.0 - muv.x;
    vec4 m = texture(u_mask, muv);
    background = 1.0 - smoothstep(0.35, 0.65, max(m.r, m.a));
  } else {
    background = 0.0;
  }
  vec3 bg = texture(u_bg, v_uv * u_bgFit.xy + u_bgFit.zw).rgb;
  outColor = vec4(mix(color.rgb, bg, background), 1.0);
}`;

/** A 9-tap Gaussian along u_dir (in source pixels). */
const BLUR_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform vec2 u_dir;
void main() {
  vec4 sum = texture(u_src, v_uv) * 0.2270270;
  sum += texture(u_src, v_uv + u_dir * 1.3846154) * 0.3162162;
  sum += texture(u_src, v_uv - u_dir * 1.3846154) * 0.3162162;
  sum += texture(u_src, v_uv + u_dir * 3.2307692) * 0.0702703;
  sum += texture(u_src, v_uv - u_dir * 3.2307692) * 0.0702703;
  outColor = sum;
}`;

const COPY = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
void main() { outColor = texture(u_src, v_uv); }`;

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
}

/** VirtualBackground as a pipeline stage (WebGL2 only: SPEC has no 2d virtual background). */
export class BackgroundStage implements EffectStage {
  readonly name = 'VirtualBackground' as const;
  settings: BackgroundSettings;
  /** The person segmentation (image / blur), kept by the plugin across updates. */
  segmenter: Segmenter | undefined;
  #bgTexture: WebGLTexture | undefined;
  #bgImage: HTMLImageElement | undefined;
  #maskTexture: WebGLTexture | undefined;
  #maskVersion = -1;

  constructor(settings: BackgroundSettings, segmenter: Segmenter | undefined) {
    this.settings = settings;
    this.segmenter = segmenter;
  }

  #blurred(kit: GlKit, input: GlImage): WebGLTexture {
    const quarter = { width: Math.max(2, Math.round(input.width / 4)), height: Math.max(2, Math.round(input.height / 4)) };
    const down = kit.target('vb-down', quarter.width, quarter.height);
    const across = kit.target('vb-across', quarter.width, quarter.height);
    kit.draw(kit.program('vb-copy', COPY), down, { u_src: input.texture });
    const blur = kit.program('vb-blur', BLUR_SHADER);
    // blurLevel 1–10 → a spread of 0.4–4 quarter-resolution pixels per tap, applied twice.
    const spread = Math.max(1, Math.min(10, this.settings.blurLevel)) * 0.4;
    for (let pass = 0; pass < 2; pass++) {
      kit.draw(blur, across, { u_src: down.texture }, { u_dir: [spread / quarter.width, 0] });
      kit.draw(blur, down, { u_src: across.texture }, { u_dir: [0, spread / quarter.height] });
    }
    return down.texture;
  }

  drawGl(kit: GlKit, input: GlImage, output: GlTarget, frame: FrameInfo): void {
    const { type, image } = this.settings;
    if (type !== 'green') this.segmenter?.feed(frame.source);
    const mask = this.segmenter?.mask;
    if (mask && this.segmenter && this.segmenter.version !== this.#maskVersion) {
      this.#maskTexture ??= kit.texture();
      kit.upload(this.#maskTexture, mask);
      this.#maskVersion = this.segmenter.version;
    }
    let background: WebGLTexture;
    let fit: [number, number, number, number] = [1, 1, 0, 0];
    if (type === 'blur') {
      background = this.#blurred(kit, input);
    } else {
      if (image && this.#bgImage !== image) {
        this.#bgTexture ??= kit.texture();
        kit.upload(this.#bgTexture, image);
        this.#bgImage = image;
      }
      background = this.#bgTexture ?? input.texture;
      if (image) fit = coverFit({ width: image.naturalWidth, height: image.naturalHeight }, input);
    }
    this.#maskTexture ??= kit.texture();
    kit.draw(kit.program('vb-compose', COMPOSE_SHADER), output, { u_src: input.texture, u_bg: background, u_mask: this.#maskTexture }, {
      u_mode: type === 'green' ? 0 : 1,
      u_mirrorMask: frame.mirrored ? 1 : 0,
      u_hasMask: this.#maskVersion >= 0 ? 1 : 0,
      u_bgFit: fit,
    });
  }

  dispose(kit?: GlKit): void {
    if (kit) {
      if (this.#bgTexture) kit.gl.deleteTexture(this.#bgTexture);
      if (this.#maskTexture) kit.gl.deleteTexture(this.#maskTexture);
    }
    this.#bgTexture = undefined;
    this.#maskTexture = undefined;
    this.#bgImage = undefined;
    this.#maskVersion = -1;
  }
}
