import { EXTRA_CODE } from '../../../constants/error-code.js';
import { invalidOperation, invalidParameter, operationFailed } from '../../../errors/catalogue.js';
import { loadImage } from '../../../media/track-processing.js';
import type { PluginCore } from '../../../types.js';
import { hasWebGl2AndWasm } from '../pipeline/gl-kit.js';
import { applyStage, guarded, numberIn, pipelineOf, removeStage, requireCamera, requireObject, videoContextOf } from '../pipeline/host.js';
import { BackgroundStage, DEFAULT_BLUR_LEVEL, type BackgroundSettings, type BackgroundType } from './background-stage.js';
import { Segmenter } from './segmenter.js';
import { FaceDetector } from '../face-detection/detector.js';
import { FaceCenteringStage } from './face-centering.js';

/** The credentials in the options (the original's typings export the shape). */
export interface AuthParam {
  sdkAppId: number;
  userId: string;
  userSig: string;
}

/** Options of startPlugin('VirtualBackground', …): the original's, plus SPEC's 'green' type and imageUrl. */
export interface VirtualBackgroundOptions {
  /** Accepted for compatibility with the original (which checks a licence); not needed here. */
  sdkAppId?: number;
  userId?: string;
  userSig?: string;
  /** 'blur' (default), 'image' (needs src), 'color' (a solid colour, `color`), or 'green' (green-screen keying, needs src). */
  type?: BackgroundType;
  /** The background colour of type 'color': a CSS colour or [r, g, b] (0–255); default black. */
  color?: string | [number, number, number];
  /** 5.17's face centering: the frame is cropped and zoomed to keep the face in the middle (MediaPipe face detection; face-centering.ts). */
  enableFaceCentering?: boolean;
  /** 5.17's edge refinement: accepted; Conclave's mask is always the refined one. */
  enableEffectOptimization?: boolean;
  /** 1–10, default 3. */
  blurLevel?: number;
  /** The background image URL. */
  src?: string;
  /** SPEC's name for src. */
  imageUrl?: string;
  /** Called when the device turns out too slow for segmentation (the effect then stops). */
  onAbort?: (error: unknown) => void;
}

/** Options of updatePlugin('VirtualBackground', …). */
export type UpdateVirtualBackgroundOptions = Omit<VirtualBackgroundOptions, 'sdkAppId' | 'userId' | 'userSig' | 'onAbort'>;

const TYPES: readonly unknown[] = ['image', 'blur', 'green', 'color'];

/** The CSS colour of a `color` option (string or [r, g, b]); undefined when absent. INVALID_PARAMETER when malformed. */
export function cssColor(value: unknown, functionName: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return value;
  if (Array.isArray(value) && value.length === 3 && value.every((v) => typeof v === 'number' && v >= 0 && v <= 255)) return `rgb(${value.map((v: number) => Math.round(v)).join(',')})`;
  throw invalidParameter(EXTRA_CODE.TYPE, 'color must be a CSS colour or [r, g, b] (0–255)', functionName);
}

/** Checks the options; INVALID_PARAMETER otherwise. */
export function validateVirtualBackgroundOptions(value: unknown, functionName: string): VirtualBackgroundOptions {
  const options = requireObject(value ?? {}, 'VirtualBackgroundOptions', functionName);
  if (options.type !== undefined && !TYPES.includes(options.type)) throw invalidParameter(EXTRA_CODE.RANGE, "type must be 'image', 'blur', 'color' or 'green'", functionName);
  cssColor(options.color, functionName);
  for (const flag of ['enableFaceCentering', 'enableEffectOptimization'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `${flag} must be a boolean`, functionName);
  }
  numberIn(options, 'blurLevel', 1, 10, functionName);
  const src = options.src ?? options.imageUrl;
  if (src !== undefined && typeof src !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'src must be a string', functionName);
  if ((options.type === 'image' || options.type === 'green') && !src) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'src is required', functionName);
  if (options.onAbort !== undefined && typeof options.onAbort !== 'function') throw invalidParameter(EXTRA_CODE.TYPE, 'onAbort must be a function', functionName);
  return options as VirtualBackgroundOptions;
}

/**
 * VirtualBackground: replaces (image, green screen) or blurs the background of the published camera, with
 * MediaPipe's selfie segmentation whose files our server serves as assets.
 */
export class VirtualBackground {
  static readonly Name = 'VirtualBackground';
  private readonly _core: PluginCore;
  private _segmenter: Promise<Segmenter> | undefined;
  private _detector: Promise<FaceDetector> | undefined;
  private _onAbort: ((error: unknown) => void) | undefined;

  constructor(core: PluginCore) {
    this._core = core;
  }

  /** True where the effect can run (WebGL2), as the original's check. */
  static isSupported(): boolean {
    return hasWebGl2AndWasm();
  }

  /** The name startPlugin refers to. */
  getName(): string {
    return VirtualBackground.Name;
  }

  /** Starts the background effect (loading the model on first use for image / blur). */
  start(options?: VirtualBackgroundOptions): Promise<void> {
    return guarded(this._core, () => this._start(options));
  }

  private async _start(options?: VirtualBackgroundOptions): Promise<void> {
    const fn = 'startPlugin';
    const checked = validateVirtualBackgroundOptions(options, fn);
    this._onAbort = checked.onAbort;
    await this._apply(checked, fn);
  }

  /** Changes type, image or blur level live. */
  update(options: UpdateVirtualBackgroundOptions): Promise<void> {
    return guarded(this._core, () => this._update(options));
  }

  private async _update(options: UpdateVirtualBackgroundOptions): Promise<void> {
    const fn = 'updatePlugin';
    const checked = validateVirtualBackgroundOptions(options, fn);
    const current = pipelineOf(videoContextOf(this._core, fn)).stage<BackgroundStage>('VirtualBackground');
    await this._apply({ ...(current ? { type: current.settings.type, blurLevel: current.settings.blurLevel } : {}), ...checked }, fn, current?.settings.image, current?.settings.color);
  }

  /** Stops the effect. */
  stop(): Promise<void> {
    return guarded(this._core, () => this._stop());
  }

  private async _stop(): Promise<void> {
    const video = videoContextOf(this._core, 'stopPlugin');
    await removeStage(video, 'FaceCentering', 'stopPlugin');
    await removeStage(video, 'VirtualBackground', 'stopPlugin');
  }

  /** Frees the model. */
  destroy(): void {
    this._segmenter?.then((segmenter) => segmenter.close(), () => undefined); // one that failed to load was reported to its start call: nothing to free
    this._segmenter = undefined;
    this._detector?.then((detector) => detector.close(), () => undefined); // likewise
    this._detector = undefined;
  }

  private async _apply(options: VirtualBackgroundOptions, fn: string, keepImage?: HTMLImageElement, keepColor?: string): Promise<void> {
    const video = videoContextOf(this._core, fn);
    requireCamera(video, fn);
    const pipeline = pipelineOf(video);
    if (pipeline.mode === '2d') throw invalidOperation(undefined, 'not support virtual background in 2d mode', fn);
    if (pipeline.mode === 'none') throw invalidOperation(undefined, 'webgl context create failed', fn);
    const type = options.type ?? 'blur';
    const src = options.src ?? options.imageUrl;
    const image = src ? await loadImage(src, fn) : keepImage;
    const settings: BackgroundSettings = { type, image, blurLevel: options.blurLevel ?? DEFAULT_BLUR_LEVEL, color: cssColor(options.color, fn) ?? keepColor };
    const segmenter = type === 'green' ? undefined : await this._loadSegmenter(fn);
    const current = pipeline.stage<BackgroundStage>('VirtualBackground');
    if (current) {
      current.settings = settings;
      current.segmenter = segmenter ?? current.segmenter;
    } else {
      await applyStage(video, new BackgroundStage(settings, segmenter), fn);
    }
    if (options.enableFaceCentering === true && !pipeline.has('FaceCentering')) await applyStage(video, new FaceCenteringStage(await this._loadDetector(fn)), fn);
    if (options.enableFaceCentering === false) await removeStage(video, 'FaceCentering', fn);
  }

  /** The face detector of enableFaceCentering (the FaceDetection plugin's, its model from assetsPath). */
  private async _loadDetector(fn: string): Promise<FaceDetector> {
    this._detector ??= FaceDetector.create(this._core.assetsPath, 0.5);
    try {
      return await this._detector;
    } catch (error) {
      this._detector = undefined;
      throw invalidOperation(undefined, `VirtualBackground cannot load the face detection model of enableFaceCentering, check assetsPath (${this._core.assetsPath}): ${String(error)}`, fn);
    }
  }

  private async _loadSegmenter(fn: string): Promise<Segmenter> {
    this._segmenter ??= Segmenter.create(this._core.assetsPath);
    let segmenter: Segmenter;
    try {
      segmenter = await this._segmenter;
    } catch (error) {
      this._segmenter = undefined;
      throw invalidOperation(undefined, `VirtualBackground cannot load its model, check assetsPath (${this._core.assetsPath}): ${String(error)}`, fn);
    }
    segmenter.onSlow = (error) => {
      // Too slow for this device: stop the effect (the camera goes out plain again) and tell the app.
      const video = videoContextOf(this._core, 'startPlugin');
      removeStage(video, 'FaceCentering', 'startPlugin').catch(() => undefined); // the camera may be off by now: no stage to remove
      removeStage(video, 'VirtualBackground', 'startPlugin').catch(() => undefined); // likewise; the app hears of the slowness below
      this.destroy();
      this._onAbort?.(operationFailed(EXTRA_CODE.VIDEO_CONTEXT_ERROR, `VirtualBackground aborted: ${error.message}`, 'startPlugin', error));
    };
    return segmenter;
  }
}

export default VirtualBackground;
