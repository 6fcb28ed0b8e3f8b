/**
 * 5.17's `view`: the mix previewed locally, as the original plays its mixed track into the view. A muted,
 * playing <video> of the mixed track inside the element (or the element with that id); `null` removes it, a
 * later update with another view moves it there, no `view` keeps it where it is. Removed when the mixer stops.
 */
import { resolveView } from '../../../playback/view.js';

/**
 * The element a `view` option names (checked before anything is mixed): `null` / `undefined` as given.
 * Throws INVALID_PARAMETER for an id not in the document or a value that is no element.
 */
export function previewTarget(view: unknown, functionName: string): HTMLElement | null | undefined {
  if (view === null || view === undefined) return view;
  if (Array.isArray(view)) return resolveView(view as HTMLElement[], functionName)[0] ?? null;
  return resolveView(view as string | HTMLElement, functionName)[0];
}

/** What the preview shows and where. */
export class MixerPreview {
  private _video: HTMLVideoElement | undefined;

  /** The <video> showing the mix, if any (for tests and callers that style it). */
  get element(): HTMLVideoElement | undefined {
    return this._video;
  }

  /**
   * Shows `track` in `target` (from previewTarget), or removes the preview for `null`; `undefined` keeps
   * the current place and only follows a new track.
   */
  async show(target: HTMLElement | null | undefined, track: MediaStreamTrack | null): Promise<void> {
    if (target === null) {
      this.remove();
      return;
    }
    const parent = target ?? this._video?.parentElement;
    if (!parent || !track) return;
    const video = this._video ?? this._make();
    if (video.parentElement !== parent) parent.appendChild(video);
    const current = (video.srcObject as MediaStream | null)?.getVideoTracks()[0];
    if (current !== track) video.srcObject = new MediaStream([track]);
    // Autoplay of a muted video is allowed; a refusal leaves the element in place for the app to play.
    await video.play().catch(() => undefined);
  }

  /** Removes the preview element. */
  remove(): void {
    if (!this._video) return;
    this._video.pause();
    this._video.srcObject = null;
    this._video.remove();
    this._video = undefined;
  }

  private _make(): HTMLVideoElement {
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    video.setAttribute('data-conclave', 'video-mixer-preview');
    video.style.cssText = 'width:100%;height:100%;object-fit:contain;background:#000';
    this._video = video;
    return video;
  }
}
