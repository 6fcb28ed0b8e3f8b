import { Downscaled } from '../pipeline/downscale.js';
import type { GlImage, GlKit, Uniforms } from '../pipeline/gl-kit.js';
import { retouchGlsl } from '../pipeline/retouch.js';
import type { EffectStage, FrameInfo, FusedBinding } from '../pipeline/stage.js';
import type { FaceMesher } from './face-mesh.js';
import { faceShape, MAX_MOVES } from './face-shape.js';
import type { BeautyLevels } from './options.js';

const MOVES = Array.from({ length: MAX_MOVES }, (_, i) => i);

/**
 * One per-pixel function in the fused pass. The warp reads the pass's input (`u_src`) at a displaced
 * position — which is why Beauty is the first stage (STAGE_ORDER): the input is then the camera image
 * itself. Each move: content at its centre shifted by its vector, weight (1 − d²/r²)²; each eye: a
 * magnification by strength · (1 − d²/r²). Then the shared retouch (pipeline/retouch.ts): dermabrasion
 * smooths, whiten brightens.
 */
const SHADER = `
uniform sampler2D u_fbSmall;
uniform float u_fbSmooth;
uniform float u_fbWhiten;
uniform float u_fbWarp;
${MOVES.map((i) => `uniform highp vec4 u_fbMove${i};\nuniform highp float u_fbRadius${i};`).join('\n')}
uniform highp vec4 u_fbEye0;
uniform highp vec4 u_fbEye1;
${retouchGlsl('fb')}
vec2 fb_move(highp vec2 p, highp vec4 move, highp float radius) {
  highp vec2 d = p - move.xy;
  highp float r2 = radius * radius;
  highp float d2 = dot(d, d);
  if (radius <= 0.0 || d2 >= r2) return vec2(0.0);
  float w = 1.0 - d2 / r2;
  return -w * w * move.zw;
}
vec2 fb_bulge(highp vec2 p, highp vec4 eye) {
  highp vec2 d = p - eye.xy;
  highp float r2 = eye.z * eye.z;
  highp float d2 = dot(d, d);
  if (eye.z <= 0.0 || d2 >= r2) return vec2(0.0);
  return -d * eye.w * (1.0 - d2 / r2);
}
vec4 fb_effect(vec4 base, vec2 uv) {
  vec4 color = base;
  vec2 at = uv;
  if (u_fbWarp > 0.5) {
    // pixel units, highp: squared distances pass mediump's range on real GPUs
    highp vec2 p = uv * u_size;
    highp vec2 shift = fb_bulge(p, u_fbEye0) + fb_bulge(p, u_fbEye1)${MOVES.map((i) => `\n      + fb_move(p, u_fbMove${i}, u_fbRadius${i})`).join('')};
    // a bilinear read only where the picture moves (software WebGL pays per filtered read)
    if (dot(shift, shift) > 0.0025) {
      at = (p + shift) / u_size;
      color = texture(u_src, at);
    }
  }
  vec3 smoothed = u_fbSmooth > 0.0 ? texture(u_fbSmall, at).rgb : color.rgb;
  return vec4(fb_retouch(color.rgb, smoothed, u_fbSmooth, u_fbWhiten, 0.0), color.a);
}`;

/** Beauty as a pipeline stage: levels change live; the face mesh runs only while a face-shape level is above 0. */
export class FaceBeautyStage implements EffectStage {
  readonly name = 'Beauty' as const;
  levels: BeautyLevels;
  /** The landmarks, kept by the plugin across updates (undefined until a shape level needs them). */
  mesher: FaceMesher | undefined;
  private readonly _small = new Downscaled();

  constructor(levels: BeautyLevels, mesher: FaceMesher | undefined) {
    this.levels = levels;
    this.mesher = mesher;
  }

  readonly shader = { fn: 'fb_effect', glsl: SHADER };

  bind(kit: GlKit, input: GlImage, frame: FrameInfo): FusedBinding {
    const { whiten, dermabrasion, lift, shave, eye, chin } = this.levels;
    const uniforms: Uniforms = { u_fbSmooth: dermabrasion, u_fbWhiten: whiten, u_fbWarp: 0 };
    const zero = [0, 0, 0, 0];
    for (const i of MOVES) {
      uniforms[`u_fbMove${i}`] = zero;
      uniforms[`u_fbRadius${i}`] = 0;
    }
    uniforms.u_fbEye0 = zero;
    uniforms.u_fbEye1 = zero;
    const shaping = lift > 0 || shave > 0 || eye > 0 || chin > 0;
    const mesher = shaping ? this.mesher : undefined;
    mesher?.feed(frame.source, frame.sourceSize);
    const landmarks = mesher?.landmarks;
    if (landmarks) {
      const { moves, bulges } = faceShape(landmarks, input, frame.mirrored, { lift, shave, eye, chin });
      moves.slice(0, MAX_MOVES).forEach((move, i) => {
        uniforms[`u_fbMove${i}`] = [move.cx, move.cy, move.dx, move.dy];
        uniforms[`u_fbRadius${i}`] = move.radius;
      });
      bulges.slice(0, 2).forEach((bulge, i) => {
        uniforms[`u_fbEye${i}`] = [bulge.cx, bulge.cy, bulge.radius, bulge.strength];
      });
      uniforms.u_fbWarp = 1;
    }
    const small = dermabrasion > 0
      ? this._small.update(kit, frame.source, { width: frame.sourceSize.width / 4, height: frame.sourceSize.height / 4 }, frame.mirrored)
      : input.texture;
    return { textures: { u_fbSmall: small }, uniforms };
  }

  dispose(kit?: GlKit): void {
    this._small.dispose(kit);
  }
}
