import { COPY_SHADER, createGl2, GlKit, type GlImage, type GlTarget, type Uniforms } from './gl-kit.js';
import type { EffectStage, FrameInfo, Size } from './stage.js';

/** A canvas the pipeline draws into: offscreen where the browser has it, else an element (for captureStream). */
export type PipelineCanvas = HTMLCanvasElement | OffscreenCanvas;

/** Runs the stage chain over one source image; the result is left on `canvas`. */
export interface Renderer {
  readonly mode: 'webgl' | '2d';
  readonly canvas: PipelineCanvas;
  render(source: TexImageSource & CanvasImageSource, size: Size, mirror: boolean, stages: readonly EffectStage[], frame: FrameInfo): void;
  /** Resolves when the work of the frames rendered so far is done (GPU included). */
  gpuDone?(): Promise<void>;
  /** The GL toolkit (webgl mode), for stages that prepare textures outside a frame. */
  readonly kit: GlKit | undefined;
  dispose(stages: readonly EffectStage[]): void;
}

function makeCanvas(element: boolean): PipelineCanvas {
  if (!element && typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(2, 2);
  return document.createElement('canvas');
}

/** Runs of consecutive fusable stages (arrays), and the stages with their own passes (alone). */
export function fusedGroups(stages: readonly EffectStage[]): Array<EffectStage[] | EffectStage> {
  const groups: Array<EffectStage[] | EffectStage> = [];
  for (const stage of stages) {
    const last = groups[groups.length - 1];
    if (stage.shader && Array.isArray(last)) last.push(stage);
    else groups.push(stage.shader ? [stage] : stage);
  }
  return groups;
}

/** The fragment shader of a run of fusable stages: each stage's function applied in order. */
export function fusedShader(stages: readonly EffectStage[]): string {
  return `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform vec2 u_size;
${stages.map((stage) => stage.shader!.glsl).join('\n')}
void main() {
  // same size in and out: an unfiltered fetch (software WebGL pays per filtered read)
  vec4 color = texelFetch(u_src, ivec2(v_uv * u_size), 0);
${stages.map((stage) => `  color = ${stage.shader!.fn}(color, v_uv);`).join('\n')}
  outColor = color;
}`;
}

function fit(canvas: PipelineCanvas, size: Size): void {
  if (canvas.width !== size.width) canvas.width = size.width;
  if (canvas.height !== size.height) canvas.height = size.height;
}

/** The WebGL2 renderer: one upload, one pass per stage (ping-pong targets), one blit to the canvas. */
export class GlRenderer implements Renderer {
  readonly mode = 'webgl' as const;
  readonly canvas: PipelineCanvas;
  readonly kit: GlKit;
  private readonly _source: WebGLTexture;
  private _staging: OffscreenCanvas | undefined;

  private constructor(canvas: PipelineCanvas, kit: GlKit) {
    this.canvas = canvas;
    this.kit = kit;
    this._source = kit.texture();
  }

  /** A GL renderer, or undefined where WebGL2 cannot be created. */
  static create(elementCanvas: boolean): GlRenderer | undefined {
    const canvas = makeCanvas(elementCanvas);
    const gl = createGl2(canvas);
    if (!gl) return undefined;
    try {
      return new GlRenderer(canvas, new GlKit(gl));
    } catch {
      return undefined; // documented above (a shader this GPU refuses): the pipeline falls back to its 2D renderer
    }
  }

  /**
   * A VideoFrame goes through a 2d canvas first: in software WebGL (SwiftShader) texImage2D of a
   * camera frame converts its YUV on the slow path (~18 ms at 640×480), while drawImage plus a canvas
   * upload takes ~5 ms.
   */
  private _staged(source: TexImageSource, size: Size): TexImageSource {
    if (typeof VideoFrame === 'undefined' || !(source instanceof VideoFrame) || typeof OffscreenCanvas === 'undefined') return source;
    this._staging ??= new OffscreenCanvas(size.width, size.height);
    fit(this._staging, size);
    const ctx = this._staging.getContext('2d');
    if (!ctx) return source;
    ctx.drawImage(source, 0, 0, size.width, size.height);
    return this._staging;
  }

  render(source: TexImageSource, size: Size, mirror: boolean, stages: readonly EffectStage[], frame: FrameInfo): void {
    const kit = this.kit;
    const copy = kit.program('copy', COPY_SHADER);
    const staged = this._staged(source, size);
    kit.upload(this._source, staged);
    // Stages that scale the frame on the 2d canvas read the staged RGB copy (one YUV conversion per frame).
    if (staged !== source) frame = { ...frame, source: staged as OffscreenCanvas };
    let current: GlImage = { texture: this._source, ...size };
    if (mirror) {
      const mirrored = kit.target('mirror', size.width, size.height);
      kit.draw(copy, mirrored, { u_src: this._source }, { u_mirror: 1 });
      current = mirrored;
    }
    // Trailing overlay stages (the watermark) are drawn last as blended quads over their rectangles.
    let split = stages.length;
    while (split > 0 && stages[split - 1].overlay) split -= 1;
    const overlays = stages.slice(split);
    const groups = fusedGroups(stages.slice(0, split));
    let onCanvas = false;
    groups.forEach((group, index) => {
      const last = index === groups.length - 1;
      const pong = index % 2 === 0 ? 'ping' : 'pong';
      if (Array.isArray(group)) {
        // One pass for the whole run of per-pixel stages; the last run draws straight onto the canvas.
        const textures: Record<string, WebGLTexture> = { u_src: current.texture };
        const uniforms: Uniforms = {};
        for (const stage of group) {
          const binding = stage.bind?.(kit, current, frame);
          Object.assign(textures, binding?.textures);
          Object.assign(uniforms, binding?.uniforms);
        }
        const program = kit.program(`fused:${group.map((stage) => stage.shader!.fn).join('+')}`, fusedShader(group));
        if (last) {
          fit(this.canvas, current);
          kit.draw(program, null, textures, uniforms, current);
          onCanvas = true;
          return;
        }
        const target = kit.target(pong, current.width, current.height);
        kit.draw(program, target, textures, uniforms);
        current = target;
      } else {
        const out = group.outputSize?.(current) ?? { width: current.width, height: current.height };
        const target = kit.target(pong, out.width, out.height);
        group.drawGl?.(kit, current, target, frame);
        current = target;
      }
    });
    if (!onCanvas) {
      fit(this.canvas, current);
      kit.draw(copy, null, { u_src: current.texture }, { u_mirror: 0 }, current);
    }
    this._drawOverlays(overlays, current, null);
  }

  /** Blends each overlay's image over its rectangle of `target` (null: the canvas), which holds the frame of `size`. */
  private _drawOverlays(overlays: readonly EffectStage[], size: Size, target: GlTarget | null): void {
    if (overlays.length === 0) return;
    const kit = this.kit;
    const gl = kit.gl;
    const copy = kit.program('copy', COPY_SHADER);
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
    try {
      for (const stage of overlays) {
        const drawn = stage.overlay?.(kit, size);
        if (!drawn) continue;
        const { rect } = drawn;
        // A target's rows run top-down; the canvas's bottom-up: there the rect's y is flipped.
        const y = target ? rect.y : size.height - rect.y - rect.height;
        kit.draw(copy, target, { u_src: drawn.texture }, { u_mirror: 0 }, size, { x: rect.x, y, width: rect.width, height: rect.height });
      }
    } finally {
      gl.disable(gl.BLEND);
    }
  }

  /**
   * Resolves when the GPU has finished the commands issued so far (a fence polled without blocking), so
   * the frame time can include the GPU's work while the loop itself never waits for it.
   */
  gpuDone(): Promise<void> {
    const gl = this.kit.gl;
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl.flush();
    if (!sync) return Promise.resolve();
    return new Promise((resolve) => {
      const poll = () => {
        const status = gl.clientWaitSync(sync, 0, 0);
        if (status === gl.TIMEOUT_EXPIRED) {
          setTimeout(poll, 1);
          return;
        }
        gl.deleteSync(sync);
        resolve();
      };
      poll();
    });
  }

  dispose(stages: readonly EffectStage[]): void {
    for (const stage of stages) stage.dispose?.(this.kit);
    this.kit.gl.deleteTexture(this._source);
    this.kit.dispose();
    this.kit.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

type Ctx2d = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** The 2d-canvas fallback (no virtual background there: docs/behaviour.md §5.6). Stages without draw2d are skipped. */
export class Canvas2dRenderer implements Renderer {
  readonly mode = '2d' as const;
  readonly kit = undefined;
  readonly canvas: PipelineCanvas;
  private readonly _spare: PipelineCanvas;

  private constructor(canvas: PipelineCanvas, spare: PipelineCanvas) {
    this.canvas = canvas;
    this._spare = spare;
  }

  static create(elementCanvas: boolean): Canvas2dRenderer | undefined {
    const canvas = makeCanvas(elementCanvas);
    if (!canvas.getContext('2d')) return undefined;
    return new Canvas2dRenderer(canvas, makeCanvas(false));
  }

  render(source: CanvasImageSource, size: Size, mirror: boolean, stages: readonly EffectStage[], frame: FrameInfo): void {
    const usable = stages.filter((stage) => stage.draw2d);
    // Ping-pong between the output canvas and a spare, ending on the output canvas.
    let write = usable.length % 2 === 0 ? this.canvas : this._spare;
    const ctxOf = (canvas: PipelineCanvas) => canvas.getContext('2d') as Ctx2d;
    fit(write, size);
    let ctx = ctxOf(write);
    ctx.setTransform(mirror ? -1 : 1, 0, 0, 1, mirror ? size.width : 0, 0);
    ctx.drawImage(source, 0, 0, size.width, size.height);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    let current: Size = size;
    for (const stage of usable) {
      const input = write;
      write = write === this.canvas ? this._spare : this.canvas;
      const out = stage.outputSize?.(current) ?? current;
      fit(write, out);
      ctx = ctxOf(write);
      ctx.drawImage(input, 0, 0);
      stage.draw2d?.(ctx, input, out, frame);
      current = out;
    }
  }

  dispose(stages: readonly EffectStage[]): void {
    for (const stage of stages) stage.dispose?.();
  }
}
