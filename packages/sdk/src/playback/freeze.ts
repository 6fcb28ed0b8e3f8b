/** Render freeze: decode fps at or below this (docs/behaviour.md §9 'render-freeze fps threshold 2'). */
export const RENDER_FREEZE_FPS = 2;
/** A single freeze counts at most this long (docs/behaviour.md §9 'freeze durations capped 5000 ms'). */
export const FREEZE_CAP_MS = 5000;

/** The figures of one kind of freeze. */
export interface FreezeFigures {
  /** Freezes that started. */
  count: number;
  /** Total frozen time in ms (each freeze capped at 5000 ms), including a freeze in progress. */
  durationMs: number;
  /** True while frozen. */
  active: boolean;
}

/** One remote video's freeze figures (read by the statistics module). */
export interface FreezeStats {
  userId: string;
  streamType: 'main' | 'sub';
  /** Frames per second rendered over the last sample. */
  fps: number;
  /** The remote track was muted (remote mute → unmute / unsubscribe / publish change). */
  videoFreeze: FreezeFigures;
  /** Rendering at RENDER_FREEZE_FPS fps or less while playing. */
  renderFreeze: FreezeFigures;
}

class Span {
  count = 0;
  private _total = 0;
  private _since: number | undefined;

  start(now: number): void {
    if (this._since !== undefined) return;
    this.count++;
    this._since = now;
  }

  stop(now: number): void {
    if (this._since === undefined) return;
    this._total += Math.min(FREEZE_CAP_MS, now - this._since);
    this._since = undefined;
  }

  figures(now: number): FreezeFigures {
    const current = this._since === undefined ? 0 : Math.min(FREEZE_CAP_MS, now - this._since);
    return { count: this.count, durationMs: this._total + current, active: this._since !== undefined };
  }
}

/**
 * Freeze detection of one remote video (docs/behaviour.md §4). Video freeze: starts when the remote track is
 * muted, stops on unmute, unsubscribe or a publish change. Render freeze: starts when the rendered
 * frame rate is 2 fps or less, ends above 2. Pure: the caller feeds events and frame counts.
 */
export class FreezeMonitor {
  readonly userId: string;
  readonly streamType: 'main' | 'sub';
  private readonly _now: () => number;
  private readonly _video = new Span();
  private readonly _render = new Span();
  private _lastFrames: number | undefined;
  private _lastAt = 0;
  private _fps = 0;

  constructor(userId: string, streamType: 'main' | 'sub', now: () => number = () => Date.now()) {
    this.userId = userId;
    this.streamType = streamType;
    this._now = now;
  }

  /** The remote track was muted. */
  trackMuted(): void {
    this._video.start(this._now());
  }

  /** The remote track unmuted, was unsubscribed, or the remote's publish state changed. */
  videoResumed(): void {
    this._video.stop(this._now());
  }

  /**
   * A frame-count sample (total frames rendered so far), taken about every second while the
   * player should be playing. A render freeze is not counted while the video is frozen at the source.
   */
  sample(totalFrames: number): void {
    const now = this._now();
    if (this._lastFrames !== undefined && now > this._lastAt) {
      this._fps = ((totalFrames - this._lastFrames) * 1000) / (now - this._lastAt);
      const sourceFrozen = this._video.figures(now).active;
      if (this._fps <= RENDER_FREEZE_FPS && !sourceFrozen) this._render.start(now);
      else this._render.stop(now);
    }
    this._lastFrames = totalFrames;
    this._lastAt = now;
  }

  /** Playback stopped: ends any freeze in progress. */
  end(): void {
    const now = this._now();
    this._video.stop(now);
    this._render.stop(now);
    this._lastFrames = undefined;
    this._fps = 0;
  }

  stats(): FreezeStats {
    const now = this._now();
    return {
      userId: this.userId,
      streamType: this.streamType,
      fps: Math.round(this._fps * 10) / 10,
      videoFreeze: this._video.figures(now),
      renderFreeze: this._render.figures(now),
    };
  }
}
