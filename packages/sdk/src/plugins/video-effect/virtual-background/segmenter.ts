/**
 * Person segmentation with MediaPipe's selfie segmentation (npm @mediapipe/selfie_segmentation: its script,
 * wasm and model are served by our server under `<assetsPath>/selfie_segmentation/`). Inference runs beside
 * the frame loop, on a small copy of the frame, at most one at a time: frames keep flowing with the latest
 * mask, so a slow model lowers the mask's rate, not the video's.
 */
import { loadScript } from '../pipeline/mediapipe.js';

/** The model's input: 256×144 (the landscape model). */
const INPUT = { width: 256, height: 144 };
/** Masks per second: a person moves little in 1/8 s, and inference shares the main thread with the frames. */
const MASK_RATE = 8;

/** The subset of MediaPipe's SelfieSegmentation solution used here. */
interface SelfieSegmentationSolution {
  setOptions(options: Record<string, unknown>): void;
  onResults(listener: (results: { segmentationMask: CanvasImageSource & TexImageSource }) => void): void;
  initialize(): Promise<void>;
  send(inputs: { image: HTMLCanvasElement }): Promise<void>;
  close(): Promise<void>;
}
type SolutionCtor = new (config: { locateFile: (file: string) => string }) => SelfieSegmentationSolution;

/**
 * Decides when inference is too slow for the device (the original's onAbort): the median of the last
 * `window` inference times above `limitMs`.
 */
export class SlowGuard {
  private readonly _times: number[] = [];
  private readonly _window: number;
  private readonly _limitMs: number;

  constructor(window = 10, limitMs = 400) {
    this._window = window;
    this._limitMs = limitMs;
  }

  /** Records one inference; true when the device is too slow. */
  add(ms: number): boolean {
    this._times.push(ms);
    if (this._times.length > this._window) this._times.shift();
    if (this._times.length < this._window) return false;
    const sorted = [...this._times].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] > this._limitMs;
  }
}

/** A running segmentation: feed() frames, read `mask` (the latest one) and `version`. */
export class Segmenter {
  /** The latest person mask (alpha / red: person), or undefined before the first result. */
  mask: (CanvasImageSource & TexImageSource) | undefined;
  /** Increments with each new mask (to upload it once). */
  version = 0;
  /** Called once when inference turns out too slow (or fails); feeding stops. */
  onSlow: ((error: Error) => void) | undefined;
  private readonly _solution: SelfieSegmentationSolution;
  private readonly _canvas: HTMLCanvasElement;
  private readonly _ctx: CanvasRenderingContext2D;
  private readonly _guard = new SlowGuard();
  private _busy = false;
  private _lastSent = 0;
  private _closed = false;
  private _failed = false;

  private constructor(solution: SelfieSegmentationSolution) {
    this._solution = solution;
    this._canvas = document.createElement('canvas');
    this._canvas.width = INPUT.width;
    this._canvas.height = INPUT.height;
    this._ctx = this._canvas.getContext('2d', { willReadFrequently: false }) as CanvasRenderingContext2D;
    solution.onResults((results) => {
      this.mask = results.segmentationMask;
      this.version += 1;
    });
  }

  /** Loads the solution from `<assetsPath>/selfie_segmentation/` and runs the model once. */
  static async create(assetsPath: string): Promise<Segmenter> {
    const base = `${assetsPath.replace(/\/+$/, '')}/selfie_segmentation/`;
    await loadScript(`${base}selfie_segmentation.js`);
    const Solution = (globalThis as unknown as { SelfieSegmentation?: SolutionCtor }).SelfieSegmentation;
    if (!Solution) throw new Error('selfie_segmentation.js did not define SelfieSegmentation');
    const solution = new Solution({ locateFile: (file) => `${base}${file}` });
    // CPU inference (XNNPACK): steadier than the GPU path where WebGL is software (SwiftShader), and
    // it needs no read-back of the mask from the model's own GL context.
    solution.setOptions({ modelSelection: 1, useCpuInference: true, selfieMode: false });
    await solution.initialize();
    const segmenter = new Segmenter(solution);
    // The first inference compiles the graph: do it before the effect shows.
    await segmenter._infer(document.createElement('canvas'));
    return segmenter;
  }

  private async _infer(image: HTMLCanvasElement): Promise<void> {
    if (image.width < 2) {
      image.width = INPUT.width;
      image.height = INPUT.height;
    }
    await this._solution.send({ image });
  }

  /** Offers a frame; it is segmented when no inference is running and the mask rate allows. */
  feed(frame: CanvasImageSource): void {
    const now = performance.now();
    if (this._busy || this._closed || this._failed || now - this._lastSent < 1000 / MASK_RATE) return;
    this._busy = true;
    this._lastSent = now;
    this._ctx.drawImage(frame, 0, 0, INPUT.width, INPUT.height);
    this._infer(this._canvas).then(() => {
      this._busy = false;
      if (this._guard.add(performance.now() - now)) this._fail(new Error('segmentation is too slow on this device'));
    }, (error: unknown) => {
      this._busy = false;
      this._fail(error instanceof Error ? error : new Error(String(error)));
    });
  }

  private _fail(error: Error): void {
    if (this._failed || this._closed) return;
    this._failed = true;
    this.onSlow?.(error);
  }

  close(): void {
    if (this._closed) return;
    this._closed = true;
    this._solution.close().catch(() => undefined); // a model that failed or closed: nothing left to free
  }
}
