import type { DerivedTrack, TrackProcessor } from '../../../media/track-processing.js';
import { elementLoop, hasInsertableStreams, insertableLoop, type FrameLoop } from './frame-loop.js';
import { Canvas2dRenderer, GlRenderer, type Renderer } from './renderer.js';
import { STAGE_ORDER, type EffectStage, type FrameInfo } from './stage.js';

/** docs/behaviour.md §9: video contexts run at 15 fps (the camera profile's rate when it is known). */
const DEFAULT_FRAME_RATE = 15;
/** Frame times kept for stats(). */
const TIMING_WINDOW = 600;
/** The User Timing measure each processed frame records (read by the benchmark). */
export const FRAME_MEASURE = 'conclave-video-effect-frame';

/** Processing figures of the pipeline. */
export interface PipelineStats {
  mode: 'webgl' | '2d' | 'none';
  frames: number;
  /** Milliseconds per frame over the last frames. */
  medianMs: number;
  p95Ms: number;
  stages: string[];
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/**
 * The one video-effect pipeline of a client: the effect stages in their order, one renderer (WebGL2, else
 * 2d canvas), and the frame loops that turn the camera track into the processed track. Effects are added and
 * removed while frames flow; the processed track stays the same, so nothing is renegotiated.
 */
export class EffectPipeline implements TrackProcessor {
  private readonly _stages = new Map<string, EffectStage>();
  private _ordered: EffectStage[] = [];
  private _renderer: Renderer | undefined;
  private _rendererTried = false;
  private readonly _timings: number[] = [];
  private _frames = 0;
  private readonly _loops = new Set<FrameLoop>();

  /** 'webgl' or '2d' (creating the renderer on first use); 'none' where neither context can be made. */
  get mode(): 'webgl' | '2d' | 'none' {
    return this._ensureRenderer()?.mode ?? 'none';
  }

  /** The renderer (created on first use). */
  get renderer(): Renderer | undefined {
    return this._ensureRenderer();
  }

  get isEmpty(): boolean {
    return this._stages.size === 0;
  }

  has(name: string): boolean {
    return this._stages.has(name);
  }

  stage<T extends EffectStage>(name: EffectStage['name']): T | undefined {
    return this._stages.get(name) as T | undefined;
  }

  /** Adds or replaces the stage of that name (same-type effects replace each other). */
  set(stage: EffectStage): void {
    const old = this._stages.get(stage.name);
    this._stages.set(stage.name, stage);
    this._order();
    if (old && old !== stage) old.dispose?.(this._renderer?.kit);
  }

  remove(name: EffectStage['name']): void {
    const old = this._stages.get(name);
    if (!old) return;
    this._stages.delete(name);
    this._order();
    old.dispose?.(this._renderer?.kit);
  }

  private _order(): void {
    this._ordered = [...this._stages.values()].sort((a, b) => STAGE_ORDER[a.name] - STAGE_ORDER[b.name]);
  }

  private _ensureRenderer(): Renderer | undefined {
    if (!this._rendererTried) {
      this._rendererTried = true;
      const element = !hasInsertableStreams();
      this._renderer = GlRenderer.create(element) ?? Canvas2dRenderer.create(element);
    }
    return this._renderer;
  }

  private _record(started: number): void {
    const ms = performance.now() - started;
    this._frames += 1;
    this._timings.push(ms);
    if (this._timings.length > TIMING_WINDOW) this._timings.shift();
    try {
      performance.measure(FRAME_MEASURE, { start: started, duration: ms });
      if (this._frames % TIMING_WINDOW === 0) performance.clearMeasures(FRAME_MEASURE);
    } catch {
      // User Timing is only instrumentation
    }
  }

  /** Processing figures over the last frames. */
  stats(): PipelineStats {
    const sorted = [...this._timings].sort((a, b) => a - b);
    return {
      mode: this._renderer?.mode ?? 'none',
      frames: this._frames,
      medianMs: percentile(sorted, 0.5),
      p95Ms: percentile(sorted, 0.95),
      stages: this._ordered.map((stage) => stage.name),
    };
  }

  /**
   * TrackProcessor: a processed track of `source` (mirrored first when the publish mirror is on, so the
   * watermark stays readable). Frames faster than the frame rate are dropped.
   */
  process(source: MediaStreamTrack, options: { mirror: boolean; frameRate?: number }): DerivedTrack {
    const renderer = this._ensureRenderer();
    if (!renderer) throw new Error('webgl context create failed');
    const frameRate = options.frameRate ?? source.getSettings?.().frameRate ?? DEFAULT_FRAME_RATE;
    const minGapUs = 1e6 / Math.max(1, frameRate) * 0.8;
    let last = -Infinity;
    const run = (image: TexImageSource & CanvasImageSource, width: number, height: number, timestamp: number) => {
      const started = performance.now();
      const frame: FrameInfo = { timestamp, sourceSize: { width, height }, source: image, mirrored: options.mirror };
      renderer.render(image, { width, height }, options.mirror, this._ordered, frame);
      if (renderer.gpuDone) void renderer.gpuDone().then(() => this._record(started));
      else this._record(started);
    };
    let loop: FrameLoop;
    if (hasInsertableStreams() && !(renderer.canvas instanceof HTMLCanvasElement)) {
      loop = insertableLoop(source, (frame) => {
        if (frame.timestamp - last < minGapUs) return undefined;
        last = frame.timestamp;
        run(frame, frame.displayWidth, frame.displayHeight, frame.timestamp);
        return renderer.canvas;
      });
    } else {
      loop = elementLoop(source, renderer.canvas as HTMLCanvasElement, frameRate, (video, timestamp) => {
        run(video, video.videoWidth, video.videoHeight, timestamp);
      });
    }
    this._loops.add(loop);
    return {
      track: loop.track,
      stop: () => {
        loop.stop();
        this._loops.delete(loop);
      },
    };
  }

  /** Stops every loop and frees the renderer and the stages. */
  dispose(): void {
    for (const loop of this._loops) loop.stop();
    this._loops.clear();
    this._renderer?.dispose(this._ordered);
    this._renderer = undefined;
    this._rendererTried = false;
    this._stages.clear();
    this._ordered = [];
  }
}
