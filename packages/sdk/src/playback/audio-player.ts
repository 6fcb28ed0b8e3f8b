/**
 * Plays a remote audio track through a hidden <audio> element. Muting keeps the track
 * flowing and only silences the element, so unmuting is instant.
 */
export class AudioPlayer {
  readonly #element: HTMLAudioElement;
  #muted = false;

  constructor(track: MediaStreamTrack) {
    this.#element = document.createElement('audio');
    this.#element.autoplay = true;
    this.#element.srcObject = new MediaStream([track]);
    this.#element.dataset.conclave = 'audio';
    this.#element.play().catch(() => undefined);
  }

  setMuted(muted: boolean): void {
    this.#muted = muted;
    this.#element.muted = muted;
  }

  get muted(): boolean {
    return this.#muted;
  }

  /** Sets the element volume, clamped to 0..1 (SPEC §5). */
  setVolume(volume: number): void {
    this.#element.volume = Math.min(1, Math.max(0, volume));
  }

  stop(): void {
    this.#element.pause();
    this.#element.srcObject = null;
  }
}
