/**
 * 5.17's `view`: the mix previewed locally, as the original plays its mixed track into the view. A muted,
 * playing <video> of the mixed track inside each element given (an element, its id, or a list of them); `null`
 * removes them, a later update with other views moves them there, no `view` keeps them where they are. Removed
 * when the mixer stops.
 */
import { resolveView } from '../../../playback/view.js';

/**
 * The elements a `view` option names (checked before anything is mixed): `null` / `undefined` as given.
 * Throws INVALID_PARAMETER for an id not in the document or a value that is no element.
 */
export function previewTarget(view: unknown, functionName: string): HTMLElement[] | null | undefined {
  if (view === null || view === undefined) return view;
  const targets = resolveView(view as string | HTMLElement | HTMLElement[], functionName);
  return targets.length > 0 ? targets : null;
}

/** What the preview shows and where. */
export class MixerPreview {
  private _videos: HTMLVideoElement[] = [];

  /** The <video> elements showing the mix (for tests and callers that style them). */
  get elements(): readonly HTMLVideoElement[] {
    return this._videos;
  }

  /**
   * Shows `track` in each of `targets` (from previewTarget), or removes the preview for `null`; `undefined`
   * keeps the current places and only follows a new track.
   */
  async show(targets: HTMLElement[] | null | undefined, track: MediaStreamTrack | null): Promise<void> {
    if (targets === null) {
      this.remove();
      return;
    }
    const parents = targets ?? this._videos.map((video) => video.parentElement).filter((p): p is HTMLElement => p !== null);
    if (parents.length === 0 || !track) return;
    // One video per place: those already in a place stay, the rest are made; videos in places no longer given go.
    const kept = parents.map((parent) => this._videos.find((video) => video.parentElement === parent) ?? this._make(parent));
    for (const video of this._videos) if (!kept.includes(video)) this._drop(video);
    this._videos = kept;
    await Promise.all(kept.map(async (video) => {
      const current = (video.srcObject as MediaStream | null)?.getVideoTracks()[0];
      if (current !== track) video.srcObject = new MediaStream([track]);
      // Autoplay of a muted video is allowed; a refusal leaves the element in place for the app to play.
      await video.play().catch(() => undefined);
    }));
  }

  /** Removes the preview elements. */
  remove(): void {
    for (const video of this._videos) this._drop(video);
    this._videos = [];
  }

  private _drop(video: HTMLVideoElement): void {
    video.pause();
    video.srcObject = null;
    video.remove();
  }

  private _make(parent: HTMLElement): HTMLVideoElement {
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    video.setAttribute('data-conclave', 'video-mixer-preview');
    video.style.cssText = 'width:100%;height:100%;object-fit:contain;background:#000';
    parent.appendChild(video);
    return video;
  }
}
