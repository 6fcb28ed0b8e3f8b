/** How the video fills its view. */
export type FillMode = 'contain' | 'cover' | 'fill';

/**
 * Renders a video track into one or more view elements, each with its own muted, inline
 * <video> that fills the view.
 */
export class VideoPlayer {
  readonly #elements: HTMLVideoElement[] = [];
  #track: MediaStreamTrack;
  #options: { fillMode?: FillMode; mirror?: boolean };

  constructor(track: MediaStreamTrack, views: HTMLElement[], options: { fillMode?: FillMode; mirror?: boolean } = {}) {
    this.#track = track;
    this.#options = options;
    this.#render(views);
  }

  #render(views: HTMLElement[]): void {
    const options = this.#options;
    const track = this.#track;
    for (const view of views) {
      const video = document.createElement('video');
      video.autoplay = true;
      video.muted = true;
      video.playsInline = true;
      video.setAttribute('playsinline', '');
      video.dataset.conclave = 'video';
      Object.assign(video.style, {
        width: '100%',
        height: '100%',
        objectFit: options.fillMode ?? 'cover',
        transform: options.mirror ? 'scaleX(-1)' : '',
        backgroundColor: '#000',
      });
      video.srcObject = new MediaStream([track]);
      view.appendChild(video);
      video.play().catch(() => undefined);
      this.#elements.push(video);
    }
  }

  /** Changes fill mode / mirror, and moves the video to other views when given. */
  update(options: { fillMode?: FillMode; mirror?: boolean }, views?: HTMLElement[]): void {
    this.#options = { ...this.#options, ...options };
    if (views) {
      this.stop();
      this.#render(views);
      return;
    }
    for (const video of this.#elements) {
      video.style.objectFit = this.#options.fillMode ?? 'cover';
      video.style.transform = this.#options.mirror ? 'scaleX(-1)' : '';
    }
  }

  /** Swaps the track being shown (e.g. after a device switch). */
  setTrack(track: MediaStreamTrack): void {
    this.#track = track;
    for (const video of this.#elements) {
      video.srcObject = new MediaStream([track]);
      video.play().catch(() => undefined);
    }
  }

  get track(): MediaStreamTrack {
    return this.#track;
  }

  /** The video elements (first one is the reference for size). */
  get elements(): readonly HTMLVideoElement[] {
    return this.#elements;
  }

  /** Removes the video elements from their views. */
  stop(): void {
    for (const video of this.#elements) {
      video.srcObject = null;
      video.remove();
    }
    this.#elements.length = 0;
  }
}
