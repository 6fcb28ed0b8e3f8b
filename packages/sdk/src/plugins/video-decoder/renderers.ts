/**
 * Where the decoder's pictures go: a canvas in the remote video's view. 'webgl' draws the wasm decoder's
 * I420 planes with a YUV→RGB shader (WebGL2); 'videoFrame' wraps pictures in VideoFrames and draws them with
 * 2d. A canvas keeps the kind of its first context, so each attempt gets a fresh canvas.
 */
import { linearTexture, useQuadProgram } from '../../playback/gl-quad.js';
import type { RendererKind } from './chain.js';

/** Thrown when the renderer's graphics context cannot be created (failure code 7). */
export class ContextUnavailable extends Error {}

export interface Renderer {
  readonly canvas: HTMLCanvasElement;
  drawFrame(frame: VideoFrame): void;
  drawI420(data: ArrayBuffer, width: number, height: number): void;
}

const VERTEX = `#version 300 es
in vec2 p; out vec2 uv;
void main() { uv = vec2((p.x + 1.0) / 2.0, (1.0 - p.y) / 2.0); gl_Position = vec4(p, 0.0, 1.0); }`;
// BT.601 limited range, as H264 from WebRTC encoders is.
const FRAGMENT = `#version 300 es
precision mediump float; uniform sampler2D y; uniform sampler2D u; uniform sampler2D v; in vec2 uv; out vec4 color;
void main() {
  float Y = 1.164 * (texture(y, uv).r - 0.0625); float U = texture(u, uv).r - 0.5; float V = texture(v, uv).r - 0.5;
  color = vec4(Y + 1.596 * V, Y - 0.391 * U - 0.813 * V, Y + 2.018 * U, 1.0);
}`;

function sized(canvas: HTMLCanvasElement, width: number, height: number): void {
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
}

class VideoFrameRenderer implements Renderer {
  readonly canvas: HTMLCanvasElement;
  private readonly _ctx: CanvasRenderingContext2D;

  constructor(canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new ContextUnavailable('2d context unsupported');
    this.canvas = canvas;
    this._ctx = ctx;
  }

  drawFrame(frame: VideoFrame): void {
    sized(this.canvas, frame.displayWidth, frame.displayHeight);
    this._ctx.drawImage(frame, 0, 0);
  }

  drawI420(data: ArrayBuffer, width: number, height: number): void {
    const frame = new VideoFrame(data, { format: 'I420', codedWidth: width, codedHeight: height, timestamp: 0 });
    try {
      this.drawFrame(frame);
    } finally {
      frame.close();
    }
  }
}

class WebGlRenderer implements Renderer {
  readonly canvas: HTMLCanvasElement;
  private readonly _gl: WebGL2RenderingContext;
  private readonly _textures: WebGLTexture[] = [];

  constructor(canvas: HTMLCanvasElement) {
    const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, alpha: false });
    if (!gl) throw new ContextUnavailable('webgl2 unsupported');
    this.canvas = canvas;
    this._gl = gl;
    const program = useQuadProgram(gl, VERTEX, FRAGMENT);
    if (!program) throw new ContextUnavailable('webgl program set-up failed');
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    ['y', 'u', 'v'].forEach((name, unit) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      const texture = linearTexture(gl);
      gl.uniform1i(gl.getUniformLocation(program, name), unit);
      this._textures.push(texture);
    });
  }

  drawFrame(frame: VideoFrame): void {
    // Not used by the chain (WebCodecs pictures go to the video-frame renderer); copy out to I420 if needed.
    const { codedWidth: width, codedHeight: height } = frame;
    const data = new ArrayBuffer(width * height * 1.5);
    void frame.copyTo(data, { format: 'I420' } as VideoFrameCopyToOptions).then(() => this.drawI420(data, width, height));
  }

  drawI420(data: ArrayBuffer, width: number, height: number): void {
    const gl = this._gl;
    if (gl.isContextLost()) throw new ContextUnavailable('webgl context lost');
    sized(this.canvas, width, height);
    gl.viewport(0, 0, width, height);
    const planes: [number, number, number][] = [[0, width, height], [width * height, width / 2, height / 2], [width * height * 1.25, width / 2, height / 2]];
    planes.forEach(([offset, w, h], unit) => {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, w, h, 0, gl.RED, gl.UNSIGNED_BYTE, new Uint8Array(data, offset, w * h));
    });
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }
}

/** Makes a renderer of `kind` on a fresh canvas; throws ContextUnavailable when its context cannot be had. */
export function createRenderer(kind: RendererKind, canvas: HTMLCanvasElement): Renderer {
  return kind === 'webgl' ? new WebGlRenderer(canvas) : new VideoFrameRenderer(canvas);
}
