/**
 * The WebGL2 toolkit the effect stages share: one context, a full-frame quad, compiled programs, pooled
 * render targets. Texture convention in every pass: v = 0 is the TOP row of the image (as uploaded from a
 * VideoFrame), so a stage works in top-left pixel coordinates like a 2d canvas; only the final blit to the
 * canvas flips.
 */

/** A texture with its size. */
export interface GlImage {
  texture: WebGLTexture;
  width: number;
  height: number;
}

/** A texture that can be drawn into. */
export interface GlTarget extends GlImage {
  framebuffer: WebGLFramebuffer;
}

/** Uniform values: numbers (float), arrays (vec2/3/4), or `{ int }` for samplers / int uniforms. */
export type Uniforms = Record<string, number | readonly number[] | { int: number }>;

/** The vertex shader of every pass: a full-frame quad, `v_uv` with v = 0 at the top of the source. */
const VERTEX = `#version 300 es
in vec2 a_pos;
out vec2 v_uv;
uniform float u_flipY;
void main() {
  v_uv = vec2(a_pos.x * 0.5 + 0.5, u_flipY > 0.5 ? 0.5 - a_pos.y * 0.5 : a_pos.y * 0.5 + 0.5);
  gl_Position = vec4(a_pos, 0.0, 1.0);
}`;

/** A plain copy (optionally mirrored), the first and last pass of every frame. */
export const COPY_SHADER = `#version 300 es
precision mediump float;
in vec2 v_uv;
out vec4 outColor;
uniform sampler2D u_src;
uniform float u_mirror;
void main() {
  vec2 uv = v_uv;
  if (u_mirror > 0.5) uv.x = 1.0 - uv.x;
  outColor = texture(u_src, uv);
}`;

interface Program {
  program: WebGLProgram;
  uniforms: Map<string, WebGLUniformLocation | null>;
}

/** Creates a WebGL2 context on a canvas; undefined when the environment has none. */
export function createGl2(canvas: HTMLCanvasElement | OffscreenCanvas): WebGL2RenderingContext | undefined {
  try {
    const gl = canvas.getContext('webgl2', { alpha: false, antialias: false, depth: false, stencil: false, premultipliedAlpha: false, preserveDrawingBuffer: false });
    return (gl as WebGL2RenderingContext | null) ?? undefined;
  } catch {
    return undefined; // documented above: no WebGL2 here, the pipeline falls back to its 2D renderer
  }
}

/** True where WebGL2 and WebAssembly exist: what the MediaPipe-based effects need (their isSupported()). */
export function hasWebGl2AndWasm(): boolean {
  if (typeof document === 'undefined' || typeof WebAssembly === 'undefined') return false;
  const gl = createGl2(document.createElement('canvas'));
  gl?.getExtension('WEBGL_lose_context')?.loseContext();
  return gl !== undefined;
}

/** The shared GL state of the pipeline. */
export class GlKit {
  readonly gl: WebGL2RenderingContext;
  private readonly _programs = new Map<string, Program>();
  private readonly _targets = new Map<string, GlTarget>();
  private readonly _vao: WebGLVertexArrayObject;
  private readonly _buffer: WebGLBuffer;

  constructor(gl: WebGL2RenderingContext) {
    this.gl = gl;
    const vao = gl.createVertexArray();
    const buffer = gl.createBuffer();
    if (!vao || !buffer) throw new Error('webgl context create failed');
    this._vao = vao;
    this._buffer = buffer;
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
  }

  /** Compiles (once per key) a fragment shader against the shared vertex shader. */
  program(key: string, fragment: string): Program {
    const found = this._programs.get(key);
    if (found) return found;
    const gl = this.gl;
    const compile = (type: number, source: string) => {
      const shader = gl.createShader(type);
      if (!shader) throw new Error('webgl context create failed');
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`shader ${key}: ${gl.getShaderInfoLog(shader) ?? ''}`);
      return shader;
    };
    const program = gl.createProgram();
    if (!program) throw new Error('webgl context create failed');
    gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(program, compile(gl.FRAGMENT_SHADER, fragment));
    gl.bindAttribLocation(program, 0, 'a_pos');
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`program ${key}: ${gl.getProgramInfoLog(program) ?? ''}`);
    const made = { program, uniforms: new Map<string, WebGLUniformLocation | null>() };
    this._programs.set(key, made);
    return made;
  }

  /** A texture for images uploaded by stages (linear filtering, clamped). */
  texture(): WebGLTexture {
    const gl = this.gl;
    const texture = gl.createTexture();
    if (!texture) throw new Error('webgl context create failed');
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return texture;
  }

  /** Uploads an image, canvas, bitmap or VideoFrame into a texture (top row at v = 0). */
  upload(texture: WebGLTexture, source: TexImageSource, premultiply = false): void {
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, premultiply);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
    if (premultiply) gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
  }

  /** A pooled render target, (re)allocated at the given size. */
  target(key: string, width: number, height: number): GlTarget {
    const found = this._targets.get(key);
    if (found && found.width === width && found.height === height) return found;
    const gl = this.gl;
    const texture = found?.texture ?? this.texture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    const framebuffer = found?.framebuffer ?? gl.createFramebuffer();
    if (!framebuffer) throw new Error('webgl context create failed');
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const made = { texture, framebuffer, width, height };
    this._targets.set(key, made);
    return made;
  }

  /**
   * One pass: binds `textures` to units 0.. (named uniforms), sets `uniforms`, draws the quad into
   * `target` (null: the canvas, flipped so the image stands upright).
   */
  draw(program: Program, target: GlTarget | null, textures: Record<string, WebGLTexture>, uniforms: Uniforms = {}, size?: { width: number; height: number },
    rect?: { x: number; y: number; width: number; height: number }): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, target?.framebuffer ?? null);
    const width = target?.width ?? size?.width ?? gl.drawingBufferWidth;
    const height = target?.height ?? size?.height ?? gl.drawingBufferHeight;
    // A rect (top-left origin) draws the quad into that part of a target only: rows of a target run
    // top-down (v = 0 at the top), so it maps to the viewport as is.
    if (rect) gl.viewport(Math.round(rect.x), Math.round(rect.y), Math.round(rect.width), Math.round(rect.height));
    else gl.viewport(0, 0, width, height);
    gl.useProgram(program.program);
    const location = (name: string) => {
      if (!program.uniforms.has(name)) program.uniforms.set(name, gl.getUniformLocation(program.program, name));
      return program.uniforms.get(name) ?? null;
    };
    let unit = 0;
    for (const [name, texture] of Object.entries(textures)) {
      gl.activeTexture(gl.TEXTURE0 + unit);
      gl.bindTexture(gl.TEXTURE_2D, texture);
      gl.uniform1i(location(name), unit);
      unit += 1;
    }
    gl.uniform1f(location('u_flipY'), target ? 0 : 1);
    gl.uniform2f(location('u_size'), width, height);
    for (const [name, value] of Object.entries(uniforms)) {
      const at = location(name);
      if (at === null) continue;
      if (typeof value === 'number') gl.uniform1f(at, value);
      else if ('int' in value) gl.uniform1i(at, value.int);
      else if (value.length === 2) gl.uniform2fv(at, value as number[]);
      else if (value.length === 3) gl.uniform3fv(at, value as number[]);
      else gl.uniform4fv(at, value as number[]);
    }
    gl.bindVertexArray(this._vao);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.bindVertexArray(null);
  }

  /** Fills a target with one colour (components 0–1). */
  clear(target: GlTarget, rgba: readonly [number, number, number, number]): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, target.width, target.height);
    gl.clearColor(rgba[0], rgba[1], rgba[2], rgba[3]);
    gl.clear(gl.COLOR_BUFFER_BIT);
  }

  /** Frees every GL object the kit made. */
  dispose(): void {
    const gl = this.gl;
    for (const target of this._targets.values()) {
      gl.deleteTexture(target.texture);
      gl.deleteFramebuffer(target.framebuffer);
    }
    for (const program of this._programs.values()) gl.deleteProgram(program.program);
    gl.deleteBuffer(this._buffer);
    gl.deleteVertexArray(this._vao);
    this._targets.clear();
    this._programs.clear();
  }
}
