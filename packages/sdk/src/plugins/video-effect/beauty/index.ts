import { invalidOperation } from '../../../errors/catalogue.js';
import type { PluginCore } from '../../../types.js';
import { hasWebGl2AndWasm } from '../pipeline/gl-kit.js';
import { applyStage, guarded, pipelineOf, removeStage, requireCamera, videoContextOf } from '../pipeline/host.js';
import { FaceBeautyStage } from './beauty-stage.js';
import { FaceMesher } from './face-mesh.js';
import { needsLandmarks, resolveBeautyOptions, type BeautyLevels, type BeautyOptions, type UpdateBeautyOptions } from './options.js';

export type { AuthParam, BeautyOptions, Effect, UpdateBeautyOptions } from './options.js';

/**
 * Beauty (trtc-sdk-v5's plugins/video-effect/beauty): face-aware retouching of the published camera on the
 * WebGL effect pipeline — whiten and dermabrasion (the retouch BasicBeauty uses), and the face-shape
 * warps lift, shave, eye and chin driven by MediaPipe face-mesh landmarks (served by our server as assets,
 * loaded on the first shape level above 0). Start, update and stop while publishing: no renegotiation.
 */
export class Beauty {
  static readonly Name = 'Beauty';
  private readonly _core: PluginCore;
  private _mesher: Promise<FaceMesher> | undefined;
  private _onError: (() => unknown) | undefined;

  constructor(core: PluginCore) {
    this._core = core;
  }

  /** True where the effect can run (WebGL2 and WebAssembly). */
  static isSupported(): boolean {
    return hasWebGl2AndWasm();
  }

  /** The name startPlugin refers to. */
  getName(): string {
    return Beauty.Name;
  }

  /**
   * Starts the retouch with the given levels (0–1, default 0). Errors: INVALID_PARAMETER (options),
   * ENV_NOT_SUPPORTED 5210 (a non-empty `effect`: the vendor's sticker catalogue), INVALID_OPERATION (camera not
   * on: 5105; no WebGL2; the face model cannot load from assetsPath).
   */
  start(options: BeautyOptions): Promise<void> {
    return guarded(this._core, () => this._start(options));
  }

  private async _start(options: BeautyOptions): Promise<void> {
    const fn = 'startPlugin';
    const levels = resolveBeautyOptions(options, undefined, fn);
    this._onError = options.onError;
    await this._apply(levels, fn);
  }

  /** Changes the levels given (the others stay); starts the effect if it was not running. Errors as start's. */
  update(options: UpdateBeautyOptions): Promise<void> {
    return guarded(this._core, () => this._update(options));
  }

  private async _update(options: UpdateBeautyOptions): Promise<void> {
    const fn = 'updatePlugin';
    const current = pipelineOf(videoContextOf(this._core, fn)).stage<FaceBeautyStage>('Beauty');
    await this._apply(resolveBeautyOptions(options, current?.levels, fn), fn);
  }

  /** Stops the retouch (the camera goes out plain again unless other effects run). */
  stop(): Promise<void> {
    return guarded(this._core, () => removeStage(videoContextOf(this._core, 'stopPlugin'), 'Beauty', 'stopPlugin'));
  }

  /** Frees the face model. */
  destroy(): void {
    this._mesher?.then((mesher) => mesher.close(), () => undefined); // one that failed to load was reported to its start call: nothing to free
    this._mesher = undefined;
  }

  private async _apply(levels: BeautyLevels, fn: string): Promise<void> {
    const video = videoContextOf(this._core, fn);
    requireCamera(video, fn);
    const pipeline = pipelineOf(video);
    if (pipeline.mode !== 'webgl') throw invalidOperation(undefined, pipeline.mode === '2d' ? 'not support beauty in 2d mode' : 'webgl context create failed', fn);
    const mesher = needsLandmarks(levels) ? await this._loadMesher(fn) : undefined;
    const current = pipeline.stage<FaceBeautyStage>('Beauty');
    if (current) {
      current.levels = levels;
      current.mesher = mesher ?? current.mesher;
      return;
    }
    await applyStage(video, new FaceBeautyStage(levels, mesher), fn);
  }

  private async _loadMesher(fn: string): Promise<FaceMesher> {
    this._mesher ??= FaceMesher.create(this._core.assetsPath);
    try {
      return await this._mesher;
    } catch (error) {
      this._mesher = undefined;
      try {
        this._onError?.();
      } catch {
        // the app's callback failing changes nothing here
      }
      throw invalidOperation(undefined, `Beauty cannot load its face model, check assetsPath (${this._core.assetsPath}): ${String(error)}`, fn);
    }
  }
}

export default Beauty;
