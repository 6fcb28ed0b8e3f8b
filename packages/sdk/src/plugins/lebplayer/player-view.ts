import type { FillMode, MediaType } from './options.js';

/**
 * The elements of one playback in its view: a box holding a muted <video> (the picture) and an <audio> (the sound).
 * Volume 0–100 is the audio element's; above 100 the sound is amplified through a Web Audio GainNode, as the
 * original's player does (its volume goes to 500): the element is then muted and only keeps the track flowing.
 */
export class PlayerView {
  readonly box: HTMLDivElement;
  readonly video: HTMLVideoElement;
  readonly audio: HTMLAudioElement;
  private readonly _stream: MediaStream;
  private readonly _audioContext: () => AudioContext;
  private _volume = 100;
  private _muted = false;
  private _amplifier: { source: MediaStreamAudioSourceNode; gain: GainNode } | undefined;

  /** `audioContext` gives the Web Audio context that amplifies volumes above 100 (asked for only then). */
  constructor(stream: MediaStream, audioContext: () => AudioContext) {
    this._stream = stream;
    this._audioContext = audioContext;
    this.box = document.createElement('div');
    this.box.style.cssText = 'position:relative;width:100%;height:100%;overflow:hidden;background:#000';
    this.box.dataset.conclave = 'lebplayer';
    this.video = document.createElement('video');
    this.video.style.cssText = 'width:100%;height:100%;display:block';
    this.video.autoplay = true;
    this.video.playsInline = true;
    this.video.muted = true; // the sound plays through the audio element (its own volume and mute)
    this.video.srcObject = stream;
    this.audio = document.createElement('audio');
    this.audio.autoplay = true;
    this.audio.srcObject = stream;
    this.box.append(this.video, this.audio);
  }

  /** Moves the box into `parent`. */
  mount(parent: HTMLElement): void {
    parent.appendChild(this.box);
  }

  setFillMode(mode: FillMode): void {
    this.video.style.objectFit = mode;
  }

  /** 0–500 as the original takes it: 100 plays the stream as it comes, above 100 amplifies (× volume / 100). */
  setVolume(volume: number): void {
    this._volume = volume;
    this._apply();
  }

  setMuted(muted: boolean): void {
    this._muted = muted;
    this._apply();
  }

  /** The gain applied to the sound now (1 without amplification; for tests and diagnostics). */
  get gain(): number {
    return this._amplifier ? this._amplifier.gain.gain.value : 1;
  }

  private _apply(): void {
    if (this._volume > 100) this._amplifier ??= this._amplify();
    else this._unamplify();
    const amplifier = this._amplifier;
    if (amplifier) {
      amplifier.gain.gain.value = this._muted ? 0 : this._volume / 100;
      this.audio.muted = true;
      this.box.dataset.gain = String(amplifier.gain.gain.value);
    } else {
      this.audio.muted = this._muted;
      this.audio.volume = Math.min(this._volume, 100) / 100;
      delete this.box.dataset.gain;
    }
  }

  /** track → GainNode → speakers; undefined (the element plays at most at full volume) when Web Audio cannot. */
  private _amplify(): { source: MediaStreamAudioSourceNode; gain: GainNode } | undefined {
    const track = this._stream.getAudioTracks()[0];
    if (!track || typeof AudioContext === 'undefined') return undefined;
    try {
      const ctx = this._audioContext();
      if (ctx.state !== 'running') ctx.resume().catch(() => undefined); // a context the page may not start yet: the gain plays once it does
      const source = ctx.createMediaStreamSource(new MediaStream([track]));
      const gain = ctx.createGain();
      source.connect(gain).connect(ctx.destination);
      return { source, gain };
    } catch {
      return undefined; // documented above: the element plays at most at full volume
    }
  }

  private _unamplify(): void {
    this._amplifier?.source.disconnect();
    this._amplifier?.gain.disconnect();
    this._amplifier = undefined;
  }

  /** Plays `type`'s element; rejects as the browser does (NotAllowedError when autoplay is refused). */
  play(type: MediaType): Promise<void> {
    return (type === 'video' ? this.video : this.audio).play();
  }

  pause(): void {
    this.video.pause();
    this.audio.pause();
  }

  remove(): void {
    this._unamplify();
    this.video.srcObject = null;
    this.audio.srcObject = null;
    this.box.remove();
  }
}
