import { CanvasRenderer, CANVAS_FPS_STEPS, snapCanvasFps } from './canvas-renderer.js';
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
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { width: number; height: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/**
 * Renders a video track into one or more view elements, each with its own muted, inline <video>
 * that fills the view. The first element drives the player state, the first-frame report and the
 * rendered-frame count (for render-freeze detection). With `canvas`, each <video> is hidden and a
 * <canvas> beside it shows its frames (WebGL2, else 2d), drawn at 15 fps at first, then at the step of
 * 15/30/45/60 fps that the source's frame rate snaps to (SPEC §9); fill mode and mirror apply to the canvas.
 */
export class VideoPlayer {
  readonly #elements: HTMLVideoElement[] = [];
  readonly #renderers: CanvasRenderer[] = [];
  #drawTimer: ReturnType<typeof setTimeout> | undefined;
  #track: MediaStreamTrack;
  #options: VideoPlayerOptions;
  readonly #hooks: VideoPlayerHooks;
  #core: PlaybackCore | undefined;
  #frames = 0;
  #firstFrame = false;
  #frameHandle: number | undefined;
  /** Bumped when another element or track takes over, so stale frame callbacks stop. */
  #generation = 0;

  constructor(track: MediaStreamTrack, views: HTMLElement[], options: VideoPlayerOptions = {}, hooks: VideoPlayerHooks = {}) {
    this.#track = track;
    this.#options = options;
    this.#hooks = hooks;
    this.#render(views);
  }

  #render(views: HTMLElement[]): void {
    const options = this.#options;
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
        this.#renderers.push(new CanvasRenderer(shown as HTMLCanvasElement));
      }
      video.srcObject = new MediaStream([this.#track]);
      view.appendChild(video);
      this.#elements.push(video);
      if (this.#elements.length === 1) this.#drive(video);
      else video.play().catch(() => undefined);
    }
  }

  /** Reports the first frame once, with its size. */
  #reportFirst(width: number, height: number): void {
    if (this.#firstFrame || width === 0 || height === 0) return;
    this.#firstFrame = true;
    this.#hooks.onFirstFrame?.({ width, height });
  }

  /** The canvas loop: draws every new decoded frame, re-snapping its rate to the source's once a second. */
  #startDrawing(generation: number): void {
    const decoded = (video: HTMLVideoElement) => video.getVideoPlaybackQuality?.().totalVideoFrames ?? 0;
    const drawn = this.#elements.map(() => -1);
    let fps: number = CANVAS_FPS_STEPS[0];
    let sample = { at: performance.now(), frames: decoded(this.#elements[0]) };
    const tick = () => {
      if (this.#generation !== generation) return;
      this.#elements.forEach((video, index) => {
        const frames = decoded(video);
        if (frames === drawn[index] || !this.#renderers[index]?.draw(video)) return;
        drawn[index] = frames;
        if (index > 0) return;
        this.#frames++;
        this.#reportFirst(video.videoWidth, video.videoHeight);
      });
      const now = performance.now();
      if (now - sample.at >= 1000) {
        const frames = decoded(this.#elements[0]);
        fps = snapCanvasFps((frames - sample.frames) * 1000 / (now - sample.at));
        sample = { at: now, frames };
      }
      this.#drawTimer = setTimeout(tick, 1000 / fps);
    };
    tick();
  }

  /** Makes `video` the element that drives state, first frame and frame counting. */
  #drive(video: FrameCallbackVideo): void {
    this.#core = new PlaybackCore(video, this.#track, this.#hooks);
    const generation = ++this.#generation;
    if (this.#renderers.length > 0) {
      this.#startDrawing(generation);
    } else if (video.requestVideoFrameCallback) {
      const onFrame = (_now: number, meta: { width: number; height: number }) => {
        if (this.#generation !== generation) return;
        this.#frames++;
        this.#reportFirst(meta.width || video.videoWidth, meta.height || video.videoHeight);
        this.#frameHandle = video.requestVideoFrameCallback?.(onFrame);
      };
      this.#frameHandle = video.requestVideoFrameCallback(onFrame);
    } else {
      video.addEventListener('loadeddata', () => this.#reportFirst(video.videoWidth, video.videoHeight));
      video.addEventListener('resize', () => this.#reportFirst(video.videoWidth, video.videoHeight));
    }
    void this.#core.play();
  }

  get state(): PlayerState {
    return this.#core?.state ?? 'STOPPED';
  }

  get blocked(): boolean {
    return this.#core?.blocked ?? false;
  }

  /** Frames rendered so far by the first element (where the browser can tell; else decoded frames). */
  get framesRendered(): number {
    const video = this.#elements[0];
    if (!video) return 0;
    if (this.#renderers.length > 0 || (video as FrameCallbackVideo).requestVideoFrameCallback) return this.#frames;
    return video.getVideoPlaybackQuality?.().totalVideoFrames ?? 0;
  }

  /** Resumes a paused or refused player. */
  resume(): Promise<void> {
    return this.#core?.resume() ?? Promise.resolve();
  }

  /** Changes fill mode / mirror, and moves the video to other views when given. */
  update(options: VideoPlayerOptions, views?: HTMLElement[]): void {
    this.#options = { ...this.#options, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    if (views) {
      this.#teardown();
      this.#render(views);
      return;
    }
    for (const shown of this.#renderers.length > 0 ? this.#renderers.map((r) => r.canvas) : this.#elements) {
      shown.style.objectFit = this.#options.fillMode ?? 'cover';
      shown.style.transform = this.#options.mirror ? 'scaleX(-1)' : '';
    }
  }

  /** Swaps the track being shown in place (e.g. after a device switch). */
  setTrack(track: MediaStreamTrack): void {
    this.#track = track;
    this.#stopDriving();
    this.#elements.forEach((video, index) => {
      video.srcObject = new MediaStream([track]);
      if (index === 0) this.#drive(video);
      else video.play().catch(() => undefined);
    });
  }

  #stopDriving(): void {
    this.#generation++;
    clearTimeout(this.#drawTimer);
    const first = this.#elements[0] as FrameCallbackVideo | undefined;
    if (first && this.#frameHandle !== undefined) first.cancelVideoFrameCallback?.(this.#frameHandle);
    this.#frameHandle = undefined;
    this.#core?.stop();
    this.#core = undefined;
  }

  get track(): MediaStreamTrack {
    return this.#track;
  }

  /** The video elements (first one is the reference for size). */
  get elements(): readonly HTMLVideoElement[] {
    return this.#elements;
  }

  #teardown(): void {
    this.#stopDriving();
    for (const video of this.#elements) {
      video.srcObject = null;
      video.remove();
    }
    for (const renderer of this.#renderers) renderer.canvas.remove();
    this.#elements.length = 0;
    this.#renderers.length = 0;
  }

  /** Removes the video elements from their views (STOPPED). */
  stop(): void {
    this.#teardown();
  }
}
