import type { GlKit } from './gl-kit.js';
import type { Size } from './stage.js';

/**
 * A small copy of the source frame, scaled by the 2d canvas (Skia: fast on the CPU) and uploaded as a
 * texture. Sampled with bilinear filtering it is a wide box blur for the price of ONE texture read in the
 * fused pass — software WebGL (SwiftShader) pays about 8 ms per full-frame texture read at 640×480.
 */
export class Downscaled {
  private readonly _canvas: OffscreenCanvas | HTMLCanvasElement;
  private _texture: WebGLTexture | undefined;

  constructor() {
    this._canvas = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(2, 2) : document.createElement('canvas');
  }

  /**
   * Draws `source` at `size` (mirrored left-right with `mirror`, so the shader reads it at the frame's own
   * uv: no per-pixel select) and uploads it; returns the texture.
   */
  update(kit: GlKit, source: CanvasImageSource, size: Size, mirror = false): WebGLTexture {
    const canvas = this._canvas;
    const width = Math.max(2, Math.round(size.width));
    const height = Math.max(2, Math.round(size.height));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'medium';
    ctx.setTransform(mirror ? -1 : 1, 0, 0, 1, mirror ? width : 0, 0);
    ctx.drawImage(source, 0, 0, width, height);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    this._texture ??= kit.texture();
    kit.upload(this._texture, canvas);
    return this._texture;
  }

  dispose(kit?: GlKit): void {
    if (kit && this._texture) kit.gl.deleteTexture(this._texture);
    this._texture = undefined;
  }
}
