import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import { log } from '../log/logger.js';
import { importOnce } from '../loader/import-once.js';
import { CANVAS_FPS_STEPS, snapCanvasFps } from './canvas-fps.js';
import type { CanvasRenderer } from './canvas-renderer.js';
import { PlaybackCore, type PlayerHooks } from './playback-core.js';
import type { PlayerState } from './player-state.js';

/** How the video fills its view. */
export type FillMode = 'contain' | 'cover' | 'fill';

/** Rendering options of a video player. */
export interface VideoPlayerOptions {
  fillMode?: FillMode;
  mirror?: boolean;
  /** Image shown before the first frame. */
  poster?: string;
  /** Render into a <canvas> (canvasRender) instead of showing the <video>. */
  canvas?: boolean;
}

/** Video player hooks: those of every player, plus the first decoded frame with its real size. */
export interface VideoPlayerHooks extends PlayerHooks {
  onFirstFrame?(size: { width: number; height: number }): void;
  /** The shown video's size changed (its first size included): video-size-changed. */
  onSizeChanged?(size: { width: number; height: number }): void;
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { width: number; height: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/** The canvas renderer is an asset loaded on the first canvasRender (docs/architecture.md "SDK plugins"). */
function loadCanvasRenderer(): Promise<typeof CanvasRenderer> {
  return importOnce<{ CanvasRenderer: typeof CanvasRenderer }>(`${DEFAULT_SERVER_ORIGIN}/sdk/assets/canvas-renderer.js`).then((module) => module.CanvasRenderer);
}

/**
 * Renders a video track into one or more view elements, each with its own muted, inline <video>
 * that fills the view. The first element drives the player state, the first-frame report and the
 * rendered-frame count (for render-freeze detection). With `canvas`, each <video> is hidden and a
 * <canvas> beside it shows its frames (WebGL2, else 2d), drawn at 15 fps at first, then at the step of
 * 15/30/45/60 fps that the source's frame rate snaps to (docs/behaviour.md §9); fill mode and mirror apply to the canvas.
 * Drawing (and the first-frame report) starts once the renderer has loaded; if it cannot load, the <video>s are shown.
 */
export class VideoPlayer {
  private readonly _elements: HTMLVideoElement[] = [];
  private readonly _renderers: CanvasRenderer[] = [];
  /** The canvases made for the renderers still loading. */
  private _canvases: HTMLCanvasElement[] = [];
  /** Bumped by each teardown, so a renderer loaded for views since replaced is not used. */
  private _epoch = 0;
  private _drawTimer: ReturnType<typeof setTimeout> | undefined;
  private _track: MediaStreamTrack;
  private _options: VideoPlayerOptions;
  private readonly _hooks: VideoPlayerHooks;
  private _core: PlaybackCore | undefined;
  private _frames = 0;
  private _firstFrame = false;
  private _frameHandle: number | undefined;
  /** The last size reported to onSizeChanged, and the listener of the driving element's resize events. */
  private _size = { width: 0, height: 0 };
  private _resizeOf: { video: HTMLVideoElement; listener: () => void } | undefined;
  /** Bumped when another element or track takes over, so stale frame callbacks stop. */
  private _generation = 0;

  constructor(track: MediaStreamTrack, views: HTMLElement[], options: VideoPlayerOptions = {}, hooks: VideoPlayerHooks = {}) {
    this._track = track;
    this._options = options;
    this._hooks = hooks;
    this._render(views);
  }

  private _render(views: HTMLElement[]): void {
    const options = this._options;
    for (const view of views) {
      const video = document.createElement('video');
      video.autoplay = true;
      video.muted = true;
      video.playsInline = true;
      video.setAttribute('playsinline', '');
      video.dataset.conclave = 'video';
      if (options.poster) video.poster = options.poster;
      const shown: HTMLElement = options.canvas ? document.createElement('canvas') : video;
      Object.assign(shown.style, { width: '100%', height: '100%', objectFit: options.fillMode ?? 'cover', transform: options.mirror ? 'scaleX(-1)' : '', backgroundColor: '#000' });
      if (options.canvas) {
        shown.dataset.conclave = 'canvas';
        shown.style.display = 'block';
        // The source <video> stays in the page (a detached or display:none one may stop decoding), unseen.
        Object.assign(video.style, { position: 'absolute', width: '1px', height: '1px', opacity: '0', pointerEvents: 'none' });
        view.appendChild(shown);
        this._canvases.push(shown as HTMLCanvasElement);
      }
      video.srcObject = new MediaStream([this._track]);
      view.appendChild(video);
      this._elements.push(video);
      if (this._elements.length === 1) this._drive(video);
      else video.play().catch(() => undefined); // a muted copy of the driven element: the first element's play tells the app of a refusal
    }
    if (this._canvases.length > 0) this._attachRenderers();
  }

  /** Loads the canvas renderer, then draws into the canvases; shows the <video>s instead when it cannot load. */
  private _attachRenderers(): void {
    const epoch = this._epoch;
    loadCanvasRenderer().then((Renderer) => {
      if (epoch !== this._epoch) return;
      this._renderers.push(...this._canvases.map((canvas) => new Renderer(canvas, log)));
      this._canvases = [];
      if (this._core) this._startDrawing(this._generation);
    }, (error: unknown) => {
      if (epoch !== this._epoch) return;
      log.warn('canvas player: its renderer failed to load, showing the <video> instead:', error);
      this._options = { ...this._options, canvas: false };
      for (const canvas of this._canvases) canvas.remove();
      this._canvases = [];
      for (const video of this._elements) {
        Object.assign(video.style, { position: '', width: '100%', height: '100%', opacity: '', pointerEvents: '', objectFit: this._options.fillMode ?? 'cover', transform: this._options.mirror ? 'scaleX(-1)' : '', backgroundColor: '#000' });
      }
      const first = this._elements[0];
      if (!first) return;
      this._stopDriving();
      this._drive(first);
    });
  }

  /** Reports the first frame once, with its size. */
  private _reportFirst(width: number, height: number): void {
    if (this._firstFrame || width === 0 || height === 0) return;
    this._firstFrame = true;
    this._hooks.onFirstFrame?.({ width, height });
  }

  /** The canvas loop: draws every new decoded frame, re-snapping its rate to the source's once a second. */
  private _startDrawing(generation: number): void {
    const decoded = (video: HTMLVideoElement) => video.getVideoPlaybackQuality?.().totalVideoFrames ?? 0;
    const drawn = this._elements.map(() => -1);
    let fps: number = CANVAS_FPS_STEPS[0];
    let sample = { at: performance.now(), frames: decoded(this._elements[0]) };
    const tick = () => {
      if (this._generation !== generation) return;
      this._elements.forEach((video, index) => {
        const frames = decoded(video);
        if (frames === drawn[index] || !this._renderers[index]?.draw(video)) return;
        drawn[index] = frames;
        if (index > 0) return;
        this._frames++;
        this._reportFirst(video.videoWidth, video.videoHeight);
      });
      const now = performance.now();
      if (now - sample.at >= 1000) {
        const frames = decoded(this._elements[0]);
        fps = snapCanvasFps((frames - sample.frames) * 1000 / (now - sample.at));
        sample = { at: now, frames };
      }
      this._drawTimer = setTimeout(tick, 1000 / fps);
    };
    tick();
  }

  /** Makes `video` the element that drives state, first frame and frame counting. */
  private _drive(video: FrameCallbackVideo): void {
    this._core = new PlaybackCore(video, this._track, this._hooks);
    const generation = ++this._generation;
    const listener = () => {
      const { videoWidth: width, videoHeight: height } = video;
      if (width === 0 || height === 0 || (width === this._size.width && height === this._size.height)) return;
      this._size = { width, height };
      this._hooks.onSizeChanged?.({ width, height });
    };
    video.addEventListener('resize', listener);
    this._resizeOf = { video, listener };
    if (this._options.canvas) {
      // Drawn once the renderer is there (_attachRenderers starts the loop when it loads later).
      if (this._renderers.length > 0) this._startDrawing(generation);
    } else if (video.requestVideoFrameCallback) {
      const onFrame = (_now: number, meta: { width: number; height: number }) => {
        if (this._generation !== generation) return;
        this._frames++;
        this._reportFirst(meta.width || video.videoWidth, meta.height || video.videoHeight);
        this._frameHandle = video.requestVideoFrameCallback?.(onFrame);
      };
      this._frameHandle = video.requestVideoFrameCallback(onFrame);
    } else {
      video.addEventListener('loadeddata', () => this._reportFirst(video.videoWidth, video.videoHeight));
      video.addEventListener('resize', () => this._reportFirst(video.videoWidth, video.videoHeight));
    }
    void this._core.play();
  }

  get state(): PlayerState {
    return this._core?.state ?? 'STOPPED';
  }

  get blocked(): boolean {
    return this._core?.blocked ?? false;
  }

  /** Frames rendered so far by the first element (where the browser can tell; else decoded frames). */
  get framesRendered(): number {
    const video = this._elements[0];
    if (!video) return 0;
    if (this._options.canvas || (video as FrameCallbackVideo).requestVideoFrameCallback) return this._frames;
    return video.getVideoPlaybackQuality?.().totalVideoFrames ?? 0;
  }

  /** Resumes a paused or refused player. */
  resume(): Promise<void> {
    for (const video of this._elements.slice(1)) video.play().catch(() => undefined); // copies: the first element's resume below reports
    return this._core?.resume() ?? Promise.resolve();
  }

  /** Pauses on the app's request (pauseRemotePlayer) until resume(). */
  pause(): void {
    this._core?.pause();
    for (const video of this._elements.slice(1)) video.pause();
  }

  /** Changes fill mode / mirror, and moves the video to other views when given. */
  update(options: VideoPlayerOptions, views?: HTMLElement[]): void {
    this._options = { ...this._options, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    if (views) {
      this._teardown();
      this._render(views);
      return;
    }
    for (const shown of this._options.canvas ? [...this._renderers.map((r) => r.canvas), ...this._canvases] : this._elements) {
      shown.style.objectFit = this._options.fillMode ?? 'cover';
      shown.style.transform = this._options.mirror ? 'scaleX(-1)' : '';
    }
  }

  /** Swaps the track being shown in place (e.g. after a device switch). */
  setTrack(track: MediaStreamTrack): void {
    this._track = track;
    this._stopDriving();
    this._elements.forEach((video, index) => {
      video.srcObject = new MediaStream([track]);
      if (index === 0) this._drive(video);
      else video.play().catch(() => undefined); // a muted copy of the driven element: the first element's play tells the app of a refusal
    });
  }

  private _stopDriving(): void {
    this._generation++;
    clearTimeout(this._drawTimer);
    const first = this._elements[0] as FrameCallbackVideo | undefined;
    if (first && this._frameHandle !== undefined) first.cancelVideoFrameCallback?.(this._frameHandle);
    this._frameHandle = undefined;
    this._resizeOf?.video.removeEventListener('resize', this._resizeOf.listener);
    this._resizeOf = undefined;
    this._core?.stop();
    this._core = undefined;
  }

  get track(): MediaStreamTrack {
    return this._track;
  }

  /** The video elements (first one is the reference for size). */
  get elements(): readonly HTMLVideoElement[] {
    return this._elements;
  }

  private _teardown(): void {
    this._stopDriving();
    for (const video of this._elements) {
      video.srcObject = null;
      video.remove();
    }
    for (const renderer of this._renderers) renderer.canvas.remove();
    for (const canvas of this._canvases) canvas.remove();
    this._epoch++;
    this._elements.length = 0;
    this._renderers.length = 0;
    this._canvases = [];
  }

  /** Removes the video elements from their views (STOPPED). */
  stop(): void {
    this._teardown();
  }
}
