import { invalidOperation } from '../../../errors/catalogue.js';
import type { PluginCore } from '../../../types.js';
import type { CameraInfo } from '../../../plugin-api/video.js';
import { hasWebGl2AndWasm } from '../pipeline/gl-kit.js';
import { guarded, requireCamera, videoContextOf } from '../pipeline/host.js';
import { FaceDetector } from './detector.js';
import { resolveFaceDetectionOptions, type FaceDetectionOptions, type FaceDetectionSettings, type UpdateFaceDetectionOptions } from './options.js';
import { FacePresence } from './presence.js';

export type { FaceDetectionOptions, UpdateFaceDetectionOptions } from './options.js';

/**
 * FaceDetection (trtc-sdk-v5's plugins/video-effect/face-detection): tells the app whether a face is in the
 * camera, with MediaPipe's face detector (served by our server as assets). It watches the captured camera
 * (before any effect), follows a camera switch, and never changes what is published.
 */
export class FaceDetection {
  static readonly Name = 'FaceDetection';
  private readonly _core: PluginCore;
  private _detector: Promise<FaceDetector> | undefined;
  private _settings: FaceDetectionSettings | undefined;
  private readonly _presence = new FacePresence();
  private _video: HTMLVideoElement | undefined;
  private _track: MediaStreamTrack | undefined;
  private _timer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by start / stop: a tick of an older run ends quietly. */
  private _run = 0;

  constructor(core: PluginCore) {
    this._core = core;
  }

  /** True where detection can run (WebAssembly and WebGL2, which MediaPipe's image input uses), as the original's check. */
  static isSupported(): boolean {
    return hasWebGl2AndWasm();
  }

  /** The name startPlugin refers to. */
  getName(): string {
    return FaceDetection.Name;
  }

  /**
   * Starts detecting (loading the model on first use). Errors: INVALID_PARAMETER (options),
   * INVALID_OPERATION (camera not on: 5105; the model cannot load from assetsPath).
   */
  start(options: FaceDetectionOptions): Promise<void> {
    return guarded(this._core, () => this._start(options));
  }

  private async _start(options: FaceDetectionOptions): Promise<void> {
    const fn = 'startPlugin';
    const settings = resolveFaceDetectionOptions(options, undefined, fn);
    requireCamera(videoContextOf(this._core, fn), fn);
    const detector = await this._load(settings.minConfidence, fn);
    this._halt();
    this._settings = settings;
    detector.minConfidence = settings.minConfidence;
    const run = this._run;
    void this._tick(run);
  }

  /** Changes the options given (callback, interval, confidence, timeout); the others stay. INVALID_PARAMETER on bad options. */
  update(options: UpdateFaceDetectionOptions): Promise<void> {
    return guarded(this._core, () => this._update(options));
  }

  private async _update(options: UpdateFaceDetectionOptions): Promise<void> {
    const fn = 'updatePlugin';
    if (!this._settings) throw invalidOperation(undefined, 'FaceDetection is not started: call startPlugin first', fn);
    this._settings = resolveFaceDetectionOptions(options, this._settings, fn);
    const detector = await this._detector;
    if (detector) detector.minConfidence = this._settings.minConfidence;
  }

  /** Stops detecting; the state goes back to "no face" without an event. */
  stop(): Promise<void> {
    this._halt();
    return Promise.resolve();
  }

  /** Stops and frees the model. */
  destroy(): void {
    this._halt();
    this._detector?.then((detector) => detector.close(), () => undefined); // one that failed to load was reported to its start call: nothing to free
    this._detector = undefined;
  }

  private async _load(minConfidence: number, fn: string): Promise<FaceDetector> {
    this._detector ??= FaceDetector.create(this._core.assetsPath, minConfidence);
    try {
      return await this._detector;
    } catch (error) {
      this._detector = undefined;
      throw invalidOperation(undefined, `FaceDetection cannot load its model, check assetsPath (${this._core.assetsPath}): ${String(error)}`, fn);
    }
  }

  private _halt(): void {
    this._run += 1;
    clearTimeout(this._timer);
    this._timer = undefined;
    this._settings = undefined;
    this._presence.reset();
    if (this._video) this._video.srcObject = null;
    this._video = undefined;
    this._track = undefined;
  }

  /** One detection, then the next after detectionInterval (from this one's start). */
  private async _tick(run: number): Promise<void> {
    const settings = this._settings;
    if (run !== this._run || !settings) return;
    const started = performance.now();
    const camera = videoContextOf(this._core, 'startPlugin').camera();
    try {
      if (!camera || camera.track.muted || !camera.track.enabled) {
        // No picture (camera off or muted): the face is gone at once, as the original reports on mute.
        this._report(run, this._presence.lost());
      } else {
        const video = this._watch(camera);
        if (video.readyState >= 2 && video.videoWidth > 0) {
          const detector = await this._detector;
          const hasFace = detector ? await detector.detect(video, video.videoWidth, video.videoHeight) : undefined;
          if (run !== this._run) return;
          this._report(run, this._presence.observe(hasFace, performance.now(), settings.missingTimeout));
        }
      }
    } catch (error) {
      this._core.log.warn(`FaceDetection: detection failed: ${String(error)}`);
    }
    if (run !== this._run) return;
    const wait = Math.max(0, settings.detectionInterval - (performance.now() - started));
    // "No face" is thus reported within one detectionInterval after missingTimeout.
    this._timer = setTimeout(() => void this._tick(run), wait);
  }

  /** The <video> playing the camera track (a new track after a camera switch is followed). */
  private _watch(camera: CameraInfo): HTMLVideoElement {
    if (!this._video) {
      this._video = document.createElement('video');
      this._video.muted = true;
      this._video.playsInline = true;
    }
    if (this._track !== camera.track) {
      this._track = camera.track;
      this._video.srcObject = new MediaStream([camera.track]);
      this._video.play().catch(() => undefined); // muted, so autoplay allows it; a play cut short means the track changed first
    }
    return this._video;
  }

  private _report(run: number, change: boolean | undefined): void {
    if (change === undefined || run !== this._run || !this._settings) return;
    try {
      this._settings.onFaceDetectionStateChanged(change);
    } catch (error) {
      // the app's callback failing must not stop detection
      this._core.log.warn(`FaceDetection: onFaceDetectionStateChanged threw: ${String(error)}`);
    }
  }
}

export default FaceDetection;
