/**
 * Face detection with MediaPipe's face detector (npm @mediapipe/face_detection, short-range model: a face
 * within about 2 m of the camera, as a webcam sees it), served by our server under
 * `<assetsPath>/face_detection/`. CPU inference (XNNPACK), one frame at a time.
 */
import { createSolution, ModelInput, type MediaPipeSolution } from '../pipeline/mediapipe.js';

interface DetectionResults {
  detections: Array<Record<string, unknown>>;
}

/**
 * A detection's score. The package's typings leave it out; each detection carries its classification list
 * (entries of an index, a score, optional label and name) under an unnamed property: the score is the
 * numeric entry value other than the index. Undefined when none is found.
 */
export function scoreOf(detection: Record<string, unknown>): number | undefined {
  for (const [key, value] of Object.entries(detection)) {
    if (key === 'boundingBox' || key === 'landmarks' || !Array.isArray(value)) continue;
    for (const entry of value as unknown[]) {
      if (typeof entry !== 'object' || entry === null) continue;
      for (const [field, score] of Object.entries(entry)) {
        if (field !== 'index' && typeof score === 'number' && score >= 0 && score <= 1) return score;
      }
    }
  }
  return undefined;
}

/** Where a face is in the frame: centre and size as fractions of its width and height (top-left origin). */
export interface FaceBox {
  xCenter: number;
  yCenter: number;
  width: number;
  height: number;
}

/** A detection's bounding box (normalised, as the package reports it), or undefined when it has none. */
function boxOf(detection: Record<string, unknown>): FaceBox | undefined {
  const box = detection.boundingBox as Partial<FaceBox> | undefined;
  if (!box || typeof box.xCenter !== 'number' || typeof box.yCenter !== 'number' || typeof box.width !== 'number' || typeof box.height !== 'number') return undefined;
  return { xCenter: box.xCenter, yCenter: box.yCenter, width: box.width, height: box.height };
}

/** The model's input width: the detector itself works at 128×128. */
const INPUT_WIDTH = 320;

/** A loaded detector: detect() answers whether a frame holds a face scoring at least the confidence set. */
export class FaceDetector {
  private readonly _solution: MediaPipeSolution<DetectionResults>;
  private readonly _input = new ModelInput(INPUT_WIDTH);
  private _faces = 0;
  /** The box of the best-scoring face of the last detection. */
  private _box: FaceBox | undefined;
  private _confidence: number;

  private constructor(solution: MediaPipeSolution<DetectionResults>, confidence: number) {
    this._solution = solution;
    this._confidence = confidence;
    solution.onResults((results) => {
      const faces = results.detections.filter((detection) => (scoreOf(detection) ?? 1) >= this._confidence);
      this._faces = faces.length;
      const best = faces.reduce<Record<string, unknown> | undefined>((a, b) => (a && (scoreOf(a) ?? 1) >= (scoreOf(b) ?? 1) ? a : b), undefined);
      this._box = best ? boxOf(best) : undefined;
    });
  }

  /** Loads the solution from `<assetsPath>/face_detection/` and runs the model once (the first run compiles the graph). */
  static async create(assetsPath: string, minConfidence: number): Promise<FaceDetector> {
    const solution = await createSolution<DetectionResults>(assetsPath, 'face_detection', 'FaceDetection');
    // Setting `model` is what puts the model file where the graph reads it. The graph's own score threshold
    // (minDetectionConfidence) stays at its default, 0.5: setting it breaks this package's CPU graph (its
    // TensorsToDetectionsCalculator then lacks num_classes); minConfidence filters the scores here instead.
    solution.setOptions({ model: 'short', selfieMode: false, useCpuInference: true });
    await solution.initialize();
    const detector = new FaceDetector(solution, minConfidence);
    await detector.detect(detector._input.canvas, 2, 2);
    return detector;
  }

  /** Changes the score a face needs (the graph passes faces scoring 0.5 and more: below that acts as 0.5). */
  set minConfidence(value: number) {
    this._confidence = value;
  }

  /** Whether `frame` (of `width`×`height`) holds a face. */
  async detect(frame: CanvasImageSource, width: number, height: number): Promise<boolean> {
    this._faces = 0;
    await this._solution.send({ image: this._input.draw(frame, width, height) });
    return this._faces > 0;
  }

  /** Where the best-scoring face of `frame` is (the frame is read at once), or undefined when there is none. */
  async locate(frame: CanvasImageSource, width: number, height: number): Promise<FaceBox | undefined> {
    this._box = undefined;
    await this.detect(frame, width, height);
    return this._box;
  }

  close(): void {
    this._solution.close().catch(() => undefined); // a model that failed or closed: nothing left to free
  }
}
