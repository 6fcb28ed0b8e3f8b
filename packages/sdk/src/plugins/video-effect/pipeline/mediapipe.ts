/**
 * Loading MediaPipe's legacy "solutions" (npm @mediapipe/selfie_segmentation, face_detection, face_mesh),
 * whose script, wasm and model files our server serves as assets under `<assetsPath>/<solution>/`. Each
 * script defines its class as a global: one that would shadow a global of ours (FaceDetection: the plugin's
 * own UMD name) is taken and the previous value put back.
 */

/** The part of a legacy MediaPipe solution used here. */
export interface MediaPipeSolution<R> {
  setOptions(options: Record<string, unknown>): void;
  onResults(listener: (results: R) => void): void;
  initialize(): Promise<void>;
  send(inputs: { image: HTMLCanvasElement }): Promise<void>;
  close(): Promise<void>;
}
type SolutionCtor<R> = new (config: { locateFile: (file: string) => string }) => MediaPipeSolution<R>;

const scripts = new Map<string, Promise<void>>();

/** Loads a classic script once per URL. */
export function loadScript(url: string): Promise<void> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.crossOrigin = 'anonymous';
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(url);
        reject(new Error(`cannot load ${url}`));
      };
      document.head.appendChild(script);
    });
    scripts.set(url, loading);
  }
  return loading;
}

const classes = new Map<string, Promise<unknown>>();

/**
 * Creates a solution from `<assetsPath>/<folder>/<folder>.js` whose class the script puts at
 * `globalThis[globalName]`; the global's previous value (if any) is restored.
 */
export async function createSolution<R>(assetsPath: string, folder: string, globalName: string): Promise<MediaPipeSolution<R>> {
  const base = `${assetsPath.replace(/\/+$/, '')}/${folder}/`;
  let loading = classes.get(base) as Promise<SolutionCtor<R>> | undefined;
  if (!loading) {
    loading = (async () => {
      const scope = globalThis as unknown as Record<string, unknown>;
      const had = Object.prototype.hasOwnProperty.call(scope, globalName);
      const previous = scope[globalName];
      await loadScript(`${base}${folder}.js`);
      const Solution = scope[globalName] as SolutionCtor<R> | undefined;
      if (had) scope[globalName] = previous;
      if (typeof Solution !== 'function' || Solution === previous) throw new Error(`${folder}.js did not define ${globalName}`);
      return Solution;
    })();
    classes.set(base, loading);
    loading.catch(() => classes.delete(base)); // forgotten so the next call retries; the caller gets the rejection
  }
  const Solution = await loading;
  return new Solution({ locateFile: (file) => `${base}${file}` });
}

/**
 * Draws a frame into a small canvas for the model (aspect kept, at most `maxWidth` wide); the canvas is
 * reused between calls.
 */
export class ModelInput {
  readonly canvas: HTMLCanvasElement;
  private readonly _ctx: CanvasRenderingContext2D;
  private readonly _maxWidth: number;

  constructor(maxWidth: number) {
    this._maxWidth = maxWidth;
    this.canvas = document.createElement('canvas');
    this.canvas.width = 2;
    this.canvas.height = 2;
    this._ctx = this.canvas.getContext('2d') as CanvasRenderingContext2D;
  }

  /** Draws `frame` of `width`×`height`; returns the canvas. */
  draw(frame: CanvasImageSource, width: number, height: number): HTMLCanvasElement {
    const scale = Math.min(1, this._maxWidth / Math.max(1, width));
    const w = Math.max(2, Math.round(width * scale));
    const h = Math.max(2, Math.round(height * scale));
    if (this.canvas.width !== w) this.canvas.width = w;
    if (this.canvas.height !== h) this.canvas.height = h;
    this._ctx.drawImage(frame, 0, 0, w, h);
    return this.canvas;
  }
}
