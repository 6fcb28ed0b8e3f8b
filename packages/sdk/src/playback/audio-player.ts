/** Every live audio element, so a speaker change reaches them all. */
const elements = new Set<HTMLAudioElement>();
let defaultSpeaker: string | undefined;

type SinkElement = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };

/** Routes every remote audio element, present and future, to this output device. */
export async function setDefaultSpeaker(speakerId: string): Promise<void> {
  defaultSpeaker = speakerId;
  await Promise.all([...elements].map((element) => (element as SinkElement).setSinkId?.(speakerId)));
}

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
    elements.add(this.#element);
    if (defaultSpeaker) (this.#element as SinkElement).setSinkId?.(defaultSpeaker).catch(() => undefined);
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
    elements.delete(this.#element);
    this.#element.pause();
    this.#element.srcObject = null;
  }
}
