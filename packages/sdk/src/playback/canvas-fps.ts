/** Frame rates the canvas player runs at (docs/behaviour.md §9): it starts at the first and snaps to the source's. */
export const CANVAS_FPS_STEPS = [15, 30, 45, 60] as const;

/** The canvas player's frame rate for a source measured at `sourceFps`: the lowest step at or above it. */
export function snapCanvasFps(sourceFps: number): number {
  return CANVAS_FPS_STEPS.find((step) => step >= sourceFps - 0.5) ?? CANVAS_FPS_STEPS[CANVAS_FPS_STEPS.length - 1];
}
