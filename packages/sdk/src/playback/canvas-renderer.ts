/**
 * The canvas player's renderer: an asset of the core loaded on the first canvasRender (video-player.ts;
 * docs/architecture.md "SDK plugins"), so it takes the core's logger rather than importing its own copy.
 */
import type { log as coreLog } from '../log/logger.js';
import { linearTexture, useQuadProgram } from './gl-quad.js';

const VERTEX = `#version 300 es
in vec2 p; out vec2 uv;
void main() { uv = vec2((p.x + 1.0) / 2.0, (1.0 - p.y) / 2.0); gl_Position = vec4(p, 0.0, 1.0); }`;
const FRAGMENT = `#version 300 es
precision mediump float; uniform sampler2D frame; in vec2 uv; out vec4 color;
void main() { color = texture(frame, uv); }`;

let hardwareGl: boolean | undefined;

/**
 * Whether this page has a hardware WebGL2 (probed once, on a throwaway canvas: a canvas keeps the kind of
 * its first context). Software GL (SwiftShader, llvmpipe) is not always flagged as a performance caveat.
 */
function hasHardwareGl(): boolean {
  if (hardwareGl === undefined) {
    const gl = document.createElement('canvas').getContext('webgl2', { failIfMajorPerformanceCaveat: true });
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const renderer = gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    hardwareGl = !!gl && !/swiftshader|llvmpipe|software/i.test(renderer);
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  }
  return hardwareGl;
}

/** Draws a whole video frame into a canvas of the frame's size: WebGL2 when it can, else 2d. */
export class CanvasRenderer {
  canvas: HTMLCanvasElement;
  private _gl: WebGL2RenderingContext | undefined;
  private _ctx: CanvasRenderingContext2D | undefined;

  constructor(canvas: HTMLCanvasElement, log: Pick<typeof coreLog, 'warn'>) {
    this.canvas = canvas;
    // preserveDrawingBuffer: the picture stays readable (snapshots, pixel checks) between frames.
    // A software GL (SwiftShader) uploads each frame on the CPU: 2d is cheaper there (bench: 3.4× the
    // <video> player's CPU with software WebGL, 1.1× with 2d).
    const gl = hasHardwareGl() ? canvas.getContext('webgl2', { preserveDrawingBuffer: true, alpha: false }) : null;
    if (gl && this._setUp(gl)) {
      this._gl = gl;
      canvas.dataset.renderer = 'webgl2';
      canvas.addEventListener('webglcontextlost', () => {
        log.warn('canvas player: webgl context lost, drawing with 2d from now on');
        this._gl = undefined;
        this._replaceCanvas();
      });
    } else if (gl) {
      this._replaceCanvas();
    }
  }

  /** Goes on with 2d on a fresh canvas in this one's place: a canvas keeps the kind of its first context. */
  private _replaceCanvas(): void {
    const fresh = this.canvas.cloneNode(false) as HTMLCanvasElement;
    this.canvas.replaceWith(fresh);
    this.canvas = fresh;
  }

  private _setUp(gl: WebGL2RenderingContext): boolean {
    if (!useQuadProgram(gl, VERTEX, FRAGMENT)) return false;
    linearTexture(gl);
    return true;
  }

  private _context2d(): CanvasRenderingContext2D | undefined {
    this._ctx ??= this.canvas.getContext('2d') ?? undefined;
    if (this._ctx) this.canvas.dataset.renderer = '2d';
    return this._ctx;
  }

  /** Draws the video's current frame, resizing the canvas to it; false when there is no frame yet. */
  draw(video: HTMLVideoElement): boolean {
    const { videoWidth: width, videoHeight: height } = video;
    if (width === 0 || height === 0) return false;
    if (this.canvas.width !== width) this.canvas.width = width;
    if (this.canvas.height !== height) this.canvas.height = height;
    const gl = this._gl;
    if (gl) {
      gl.viewport(0, 0, width, height);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, video);
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
      return true;
    }
    const ctx = this._context2d();
    if (!ctx) return false;
    ctx.drawImage(video, 0, 0, width, height);
    return true;
  }
}
