import { EXTRA_CODE } from '../../../constants/error-code.js';
import { invalidParameter } from '../../../errors/catalogue.js';
import { loadImage } from '../../../media/track-processing.js';
import type { PluginCore } from '../../../types.js';
import { applyStage, guarded, removeStage, requireCamera, requireObject, videoContextOf } from '../pipeline/host.js';
import type { WatermarkSize } from './layout.js';
import { WatermarkStage } from './watermark-stage.js';

export type { WatermarkSize, WatermarkSize as Size } from './layout.js';

/** Options of startPlugin('Watermark', …), as the original's. */
export interface WatermarkOptions {
  imageUrl: string;
  /** Left edge in frame pixels (default 0). */
  x?: number;
  /** Top edge in frame pixels (default 0). */
  y?: number;
  /** A scale (0, 1], `{width, height}`, 'contain' or 'cover' (default 'cover', as the original). */
  size?: WatermarkSize;
}

/** Checks the options as the original does; INVALID_PARAMETER with its wording otherwise. */
export function validateWatermarkOptions(value: unknown, functionName: string): WatermarkOptions {
  const options = requireObject(value, 'WatermarkOptions', functionName);
  if (typeof options.imageUrl !== 'string' || options.imageUrl === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'imageUrl is required and must be a string', functionName);
  for (const key of ['x', 'y']) {
    if (options[key] !== undefined && (typeof options[key] !== 'number' || !Number.isFinite(options[key]))) throw invalidParameter(EXTRA_CODE.TYPE, `${key} must be a number`, functionName);
  }
  const size = options.size;
  if (typeof size === 'string' && size !== 'contain' && size !== 'cover') throw invalidParameter(EXTRA_CODE.TYPE, "The size parameter must be 'contain' or 'cover'", functionName);
  if (typeof size === 'number' && !(size > 0 && size <= 1)) throw invalidParameter(EXTRA_CODE.RANGE, 'The size parameter must be greater than 0', functionName);
  if (typeof size === 'object' && size !== null) {
    const { width, height } = size as { width?: unknown; height?: unknown };
    if (typeof width !== 'number' || typeof height !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, 'The size parameter must be an object with width and height properties', functionName);
    if (!(width > 0 && height > 0)) throw invalidParameter(EXTRA_CODE.RANGE, 'The size parameter must be greater than 0', functionName);
  } else if (size !== undefined && typeof size !== 'string' && typeof size !== 'number') {
    throw invalidParameter(EXTRA_CODE.TYPE, "size must be a number, {width, height}, 'contain' or 'cover'", functionName);
  }
  return options as unknown as WatermarkOptions;
}

/**
 * Watermark: an image drawn onto the published camera video at (x, y). Registered with
 * `TRTC.create({ plugins: [Watermark] })`; `startPlugin('Watermark', { imageUrl, x, y, size })`.
 */
export class Watermark {
  static readonly Name = 'Watermark';
  private readonly _core: PluginCore;

  constructor(core: PluginCore) {
    this._core = core;
  }

  /** The name startPlugin refers to. */
  getName(): string {
    return Watermark.Name;
  }

  /** Starts (or replaces) the watermark. Rejects 'load image failed' when the image cannot be loaded. */
  start(options: WatermarkOptions): Promise<void> {
    return guarded(this._core, () => this._start(options));
  }

  private async _start(options: WatermarkOptions): Promise<void> {
    await this._apply(options, 'startPlugin');
  }

  /** Replaces the watermark with new options. */
  update(options: WatermarkOptions): Promise<void> {
    return guarded(this._core, () => this._update(options));
  }

  private async _update(options: WatermarkOptions): Promise<void> {
    await this._apply(options, 'updatePlugin');
  }

  /** Removes the watermark. */
  stop(): Promise<void> {
    return guarded(this._core, () => this._stop());
  }

  private async _stop(): Promise<void> {
    await removeStage(videoContextOf(this._core, 'stopPlugin'), 'Watermark', 'stopPlugin');
  }

  private async _apply(value: unknown, functionName: string): Promise<void> {
    const video = videoContextOf(this._core, functionName);
    const options = validateWatermarkOptions(value, functionName);
    requireCamera(video, functionName);
    const image = await loadImage(options.imageUrl, functionName);
    await applyStage(video, new WatermarkStage(image, options.x ?? 0, options.y ?? 0, options.size), functionName);
  }
}

export default Watermark;
