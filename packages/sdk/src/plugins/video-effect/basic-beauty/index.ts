import type { PluginCore } from '../../../types.js';
import { applyStage, guarded, numberIn, pipelineOf, removeStage, requireCamera, requireObject, videoContextOf } from '../pipeline/host.js';
import { BeautyStage, type BeautyLevels } from './beauty-stage.js';

/** Options of startPlugin('BasicBeauty', …), as the original's: each 0–1. */
export interface BasicBeautyOptions {
  /** Skin smoothing (default 0.5). */
  beauty?: number;
  /** Brightening (default 0.5). */
  brightness?: number;
  /** Rosy tone (default 0.5). */
  ruddy?: number;
}

const DEFAULT_LEVEL = 0.5;

/** Checks the options (numbers 0–1); INVALID_PARAMETER otherwise. Missing levels come from `base`. */
export function resolveBeautyLevels(value: unknown, base: BeautyLevels | undefined, functionName: string): BeautyLevels {
  const options = value === undefined ? {} : requireObject(value, 'BasicBeautyOptions', functionName);
  const level = (key: keyof BeautyLevels) => numberIn(options, key, 0, 1, functionName) ?? base?.[key] ?? DEFAULT_LEVEL;
  return { beauty: level('beauty'), brightness: level('brightness'), ruddy: level('ruddy') };
}

/**
 * BasicBeauty: skin smoothing, brightening and a rosy tone, as GPU shaders on the published camera.
 * `startPlugin('BasicBeauty', { beauty, brightness, ruddy })`, then `updatePlugin` / `stopPlugin`.
 */
export class BasicBeauty {
  static readonly Name = 'BasicBeauty';
  private readonly _core: PluginCore;

  constructor(core: PluginCore) {
    this._core = core;
  }

  /** The name startPlugin refers to. */
  getName(): string {
    return BasicBeauty.Name;
  }

  /** Starts the retouch with the given levels (0–1, default 0.5 each). */
  start(options?: BasicBeautyOptions): Promise<void> {
    return guarded(this._core, () => this._start(options));
  }

  private async _start(options?: BasicBeautyOptions): Promise<void> {
    const fn = 'startPlugin';
    const video = videoContextOf(this._core, fn);
    const levels = resolveBeautyLevels(options, undefined, fn);
    requireCamera(video, fn);
    await applyStage(video, new BeautyStage(levels), fn);
  }

  /** Changes the levels live (the levels not given stay). */
  update(options?: BasicBeautyOptions): Promise<void> {
    return guarded(this._core, () => this._update(options));
  }

  private async _update(options?: BasicBeautyOptions): Promise<void> {
    const fn = 'updatePlugin';
    const video = videoContextOf(this._core, fn);
    const stage = pipelineOf(video).stage<BeautyStage>('BasicBeauty');
    const levels = resolveBeautyLevels(options, stage?.levels, fn);
    if (stage) {
      stage.levels = levels;
      return;
    }
    requireCamera(video, fn);
    await applyStage(video, new BeautyStage(levels), fn);
  }

  /** Stops the retouch. */
  stop(): Promise<void> {
    return guarded(this._core, () => this._stop());
  }

  private async _stop(): Promise<void> {
    await removeStage(videoContextOf(this._core, 'stopPlugin'), 'BasicBeauty', 'stopPlugin');
  }
}

export default BasicBeauty;
