import { COPY_SHADER, createGl2, GlKit, type GlImage } from './gl-kit.js';
import type { EffectStage, FrameInfo, Size } from './stage.js';

/** A canvas the pipeline draws into: offscreen where the browser has it, else an element (for captureStream). */
export type PipelineCanvas = HTMLCanvasElement | OffscreenCanvas;

/** Runs the stage chain over one source image; the result is left on `canvas`. */
export interface Renderer {
  readonly mode: 'webgl' | '2d';
  readonly canvas: PipelineCanvas;
  render(source: TexImageSource & CanvasImageSource, size: Size, mirror: boolean, stages: readonly EffectStage[], frame: FrameInfo): void;
  /** The GL toolkit (webgl mode), for stages that prepare textures outside a frame. */
  readonly kit: GlKit | undefined;
  dispose(stages: readonly EffectStage[]): void;
}

function makeCanvas(element: boolean): PipelineCanvas {
  if (!element && typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(2, 2);
  return document.createElement('canvas');
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
  readonly #source: WebGLTexture;

  private constructor(canvas: PipelineCanvas, kit: GlKit) {
    this.canvas = canvas;
    this.kit = kit;
    this.#source = kit.texture();
  }

  /** A GL renderer, or undefined where WebGL2 cannot be created. */
  static create(elementCanvas: boolean): GlRenderer | undefined {
    const canvas = makeCanvas(elementCanvas);
    const gl = createGl2(canvas);
    if (!gl) return undefined;
    try {
      return new GlRenderer(canvas, new GlKit(gl));
    } catch {
      return undefined;
    }
  }

  render(source: TexImageSource, size: Size, mirror: boolean, stages: readonly EffectStage[], frame: FrameInfo): void {
    const kit = this.kit;
    const copy = kit.program('copy', COPY_SHADER);
    kit.upload(this.#source, source);
    let current: GlImage = { texture: this.#source, ...size };
    if (mirror) {
      const mirrored = kit.target('mirror', size.width, size.height);
      kit.draw(copy, mirrored, { u_src: this.#source }, { u_mirror: 1 });
      current = mirrored;
    }
    stages.forEach((stage, index) => {
      const out = stage.outputSize?.(current) ?? { width: current.width, height: current.height };
      const target = kit.target(index % 2 === 0 ? 'ping' : 'pong', out.width, out.height);
      stage.drawGl(kit, current, target, frame);
      current = target;
    });
    fit(this.canvas, current);
    kit.draw(copy, null, { u_src: current.texture }, { u_mirror: 0 }, current);
  }

  dispose(stages: readonly EffectStage[]): void {
    for (const stage of stages) stage.dispose?.(this.kit);
    this.kit.gl.deleteTexture(this.#source);
    this.kit.dispose();
    this.kit.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}

type Ctx2d = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** The 2d-canvas fallback (SPEC: no virtual background there). Stages without draw2d are skipped. */
export class Canvas2dRenderer implements Renderer {
  readonly mode = '2d' as const;
  readonly kit = undefined;
  readonly canvas: PipelineCanvas;
  readonly #spare: PipelineCanvas;

  private constructor(canvas: PipelineCanvas, spare: PipelineCanvas) {
    this.canvas = canvas;
    this.#spare = spare;
  }

  static create(elementCanvas: boolean): Canvas2dRenderer | undefined {
    const canvas = makeCanvas(elementCanvas);
    if (!canvas.getContext('2d')) return undefined;
    return new Canvas2dRenderer(canvas, makeCanvas(false));
  }

  render(source: CanvasImageSource, size: Size, mirror: boolean, stages: readonly EffectStage[], frame: FrameInfo): void {
    const usable = stages.filter((stage) => stage.draw2d);
    // Ping-pong between the output canvas and a spare, ending on the output canvas.
    let write = usable.length % 2 === 0 ? this.canvas : this.#spare;
    const ctxOf = (canvas: PipelineCanvas) => canvas.getContext('2d') as Ctx2d;
    fit(write, size);
    let ctx = ctxOf(write);
    ctx.setTransform(mirror ? -1 : 1, 0, 0, 1, mirror ? size.width : 0, 0);
    ctx.drawImage(source, 0, 0, size.width, size.height);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    let current: Size = size;
    for (const stage of usable) {
      const input = write;
      write = write === this.canvas ? this.#spare : this.canvas;
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
