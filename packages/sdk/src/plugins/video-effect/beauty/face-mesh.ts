/**
 * Face landmarks with MediaPipe's face mesh (npm @mediapipe/face_mesh: its script, wasm and packed models
 * are served by our server under `<assetsPath>/face_mesh/`). Inference runs beside the frame loop, on a
 * small copy of the frame, at most one at a time: frames keep flowing with the latest landmarks.
 */
import { createSolution, ModelInput, type MediaPipeSolution } from '../pipeline/mediapipe.js';
import type { Size } from '../pipeline/stage.js';
import type { Point } from './face-shape.js';

interface MeshResults {
  multiFaceLandmarks?: Point[][];
}

/** Landmark sets per second: the warps follow a moving head within about 1/10 s. */
const MESH_RATE = 10;
/** The model's input width (the landmark model works on a 192×192 crop of the face). */
const INPUT_WIDTH = 480;
/** Weight of a new landmark position against the previous one: steadier warps on a still face. */
const SMOOTHING = 0.6;

/** A running face mesh: feed() frames, read `landmarks` (the latest face's, undefined with no face). */
export class FaceMesher {
  landmarks: Point[] | undefined;
  private readonly _solution: MediaPipeSolution<MeshResults>;
  private readonly _input = new ModelInput(INPUT_WIDTH);
  private _busy = false;
  private _lastSent = -Infinity;
  private _closed = false;

  private constructor(solution: MediaPipeSolution<MeshResults>) {
    this._solution = solution;
    solution.onResults((results) => {
      const face = results.multiFaceLandmarks?.[0];
      const previous = this.landmarks;
      this.landmarks = face && previous?.length === face.length
        ? face.map((p, i) => ({ x: previous[i].x + (p.x - previous[i].x) * SMOOTHING, y: previous[i].y + (p.y - previous[i].y) * SMOOTHING }))
        : face?.map((p) => ({ x: p.x, y: p.y }));
    });
  }

  /** Loads the solution from `<assetsPath>/face_mesh/` and runs the model once (the first run compiles the graph). */
  static async create(assetsPath: string): Promise<FaceMesher> {
    const solution = await createSolution<MeshResults>(assetsPath, 'face_mesh', 'FaceMesh');
    // The confidences stay at the graph's defaults (0.5): setting them breaks this package's CPU graph (its
    // detector's TensorsToDetectionsCalculator then lacks num_classes).
    solution.setOptions({ maxNumFaces: 1, refineLandmarks: false, selfieMode: false, useCpuInference: true });
    await solution.initialize();
    const mesher = new FaceMesher(solution);
    await solution.send({ image: mesher._input.canvas });
    mesher.landmarks = undefined;
    return mesher;
  }

  /** Offers a frame; its landmarks are computed when no inference is running and the rate allows. */
  feed(frame: CanvasImageSource, size: Size): void {
    const now = performance.now();
    if (this._busy || this._closed || now - this._lastSent < 1000 / MESH_RATE) return;
    this._busy = true;
    this._lastSent = now;
    const image = this._input.draw(frame, size.width, size.height);
    this._solution.send({ image }).then(() => {
      this._busy = false;
    }, () => {
      this._busy = false; // a failed inference keeps the last landmarks; the next frame tries again
    });
  }

  close(): void {
    if (this._closed) return;
    this._closed = true;
    this.landmarks = undefined;
    this._solution.close().catch(() => undefined); // a model that failed or closed: nothing left to free
  }
}
