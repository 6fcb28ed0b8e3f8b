/**
 * Beauty's face-shape warps, from MediaPipe face-mesh landmarks (468 points, normalised to the frame):
 * local translations (a disc of content moved by a vector, fading to nothing at its radius) pull the cheeks
 * in (lift), the jaw in and up (shave) and the chin down (chin); a bulge magnifies each eye (eye). All in
 * frame pixels, top-left origin; each strength 0–1 scales a fraction of the face's own size.
 */
import type { Size } from '../pipeline/stage.js';

/** A landmark: x, y normalised to the frame (0–1, top-left origin). */
export interface Point {
  x: number;
  y: number;
}

/** The face-shape strengths (0–1). */
export interface ShapeLevels {
  lift: number;
  shave: number;
  eye: number;
  chin: number;
}

/** A translation: content at (cx, cy) moves by (dx, dy); radius in pixels. */
export interface Move {
  cx: number;
  cy: number;
  dx: number;
  dy: number;
  radius: number;
}

/** A magnification around (cx, cy) by `strength` (0–1 of the radius' content), radius in pixels. */
export interface Bulge {
  cx: number;
  cy: number;
  radius: number;
  strength: number;
}

/** Landmark indices of MediaPipe's canonical face mesh. */
export const MESH = Object.freeze({
  /** Face edge at the ears, one per side (image left, image right). */
  sides: [234, 454],
  /** Mid cheeks on the face contour. */
  cheeks: [132, 361],
  /** Jaw on the contour: its angle and lower. */
  jaw: [172, 397, 150, 379],
  /** Between the eyes, nose tip, lower lip, chin. */
  bridge: 168,
  nose: 1,
  lip: 17,
  chin: 152,
  /** Eye corners and lids: [outer, inner, upper, lower] of each eye. */
  eyes: [[33, 133, 159, 145], [263, 362, 386, 374]],
} as const);

/** Maximum moves per face (2 cheeks, 4 jaw points, the chin): the shader's uniform slots. */
export const MAX_MOVES = 7;

const toward = (from: Point, to: Point, length: number): [number, number] => {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const norm = Math.hypot(dx, dy) || 1;
  return [(dx / norm) * length, (dy / norm) * length];
};

/**
 * The warps for one face: `landmarks` normalised to the source frame, `size` the frame's size in pixels,
 * `mirrored` when the frame is the mirror image of the source (landmark x flipped).
 */
export function faceShape(landmarks: readonly Point[], size: Size, mirrored: boolean, levels: ShapeLevels): { moves: Move[]; bulges: Bulge[] } {
  const at = (index: number): Point => {
    const point = landmarks[index];
    return { x: (mirrored ? 1 - point.x : point.x) * size.width, y: point.y * size.height };
  };
  const width = Math.hypot(at(MESH.sides[0]).x - at(MESH.sides[1]).x, at(MESH.sides[0]).y - at(MESH.sides[1]).y);
  const nose = at(MESH.nose);
  const moves: Move[] = [];
  const move = (index: number, target: Point, amount: number, radius: number) => {
    if (amount <= 0) return;
    const from = at(index);
    const [dx, dy] = toward(from, target, amount);
    moves.push({ cx: from.x, cy: from.y, dx, dy, radius });
  };
  for (const index of MESH.cheeks) move(index, nose, levels.lift * 0.07 * width, 0.3 * width);
  const lip = at(MESH.lip);
  for (const index of MESH.jaw) move(index, lip, levels.shave * 0.06 * width, 0.2 * width);
  if (levels.chin > 0) {
    const chin = at(MESH.chin);
    const bridge = at(MESH.bridge);
    const length = Math.hypot(chin.x - bridge.x, chin.y - bridge.y);
    const [dx, dy] = toward(bridge, chin, levels.chin * 0.1 * length);
    moves.push({ cx: chin.x, cy: chin.y, dx, dy, radius: 0.3 * width });
  }
  const bulges: Bulge[] = [];
  if (levels.eye > 0) {
    for (const eye of MESH.eyes) {
      const points = eye.map(at);
      const cx = points.reduce((sum, p) => sum + p.x, 0) / points.length;
      const cy = points.reduce((sum, p) => sum + p.y, 0) / points.length;
      const eyeWidth = Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y);
      bulges.push({ cx, cy, radius: 1.1 * eyeWidth, strength: 0.3 * levels.eye });
    }
  }
  return { moves, bulges };
}
