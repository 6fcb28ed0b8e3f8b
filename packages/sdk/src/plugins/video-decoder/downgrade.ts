/**
 * Downgrade levels 0–4 of the decoder under load (docs/behaviour.md §9), re-evaluated at most every 5 s:
 * 0 everything; 1 every frame decoded, every other one drawn; 2 frames beyond half the group of pictures
 * dropped; 3 key frames only; 4 everything dropped. A floor (e.g. from a compute-pressure monitor) keeps the
 * level at or above it.
 */

export const MAX_LEVEL = 4;
export const EVALUATE_EVERY_MS = 5000;
/** Decode time over the source's frame interval above which the decoder cannot keep up. */
const OVERLOAD = 0.9;
/** Below this (and nothing queued) there is room to decode more. */
const RELAXED = 0.5;
/** Frames waiting to decode beyond which the decoder is behind. */
const MAX_QUEUE = 3;

/** What the decoder measured since the last evaluation. */
export interface DecodeLoad {
  /** Mean decode time of a frame (ms); undefined when nothing was decoded (e.g. level 4). */
  decodeMs: number | undefined;
  /** Mean interval between source frames (ms). */
  frameIntervalMs: number;
  /** Frames waiting to decode now. */
  queue: number;
}

/** The next level from the current one and the load, kept within [floor, 4]. */
export function nextLevel(level: number, load: DecodeLoad, floor = 0): number {
  let next = level;
  if (load.decodeMs === undefined) next = level - 1; // nothing measured (all dropped): probe one step down
  else if (load.queue > MAX_QUEUE || load.decodeMs > load.frameIntervalMs * OVERLOAD) next = level + 1;
  else if (load.queue === 0 && load.decodeMs < load.frameIntervalMs * RELAXED) next = level - 1;
  return Math.min(MAX_LEVEL, Math.max(floor, next, 0));
}

/** Decides per frame what a level keeps, knowing the group of pictures from the key frames seen. */
export class FrameGate {
  /** Frames since the last key frame (that one included). */
  private _sinceKey = 0;
  /** Frames of the last complete group of pictures (key frame to key frame); 0 while unknown. */
  private _gop = 0;
  /** True once frames were dropped inside the current group: its later frames cannot decode. */
  private _broken = false;

  /** Whether the frame is decoded at this level. */
  admit(key: boolean, level: number): boolean {
    if (key) {
      if (this._sinceKey > 0) this._gop = this._sinceKey;
      this._sinceKey = 0;
      this._broken = false;
    }
    this._sinceKey += 1;
    if (level >= 4) return false;
    if (level === 3 && !key) this._broken = true;
    if (level === 2 && !key && this._sinceKey > Math.max(1, Math.floor((this._gop || 30) / 2))) this._broken = true;
    return !this._broken;
  }

  /** Whether a decoded frame is drawn (level 1 draws every other one). */
  static draw(level: number, decodedIndex: number): boolean {
    return level !== 1 || decodedIndex % 2 === 0;
  }
}
