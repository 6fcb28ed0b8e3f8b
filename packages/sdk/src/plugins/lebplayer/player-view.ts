import type { FillMode, MediaType } from './options.js';

/** The elements of one playback in its view: a box holding a muted <video> (the picture) and an <audio> (the sound). */
export class PlayerView {
  readonly box: HTMLDivElement;
  readonly video: HTMLVideoElement;
  readonly audio: HTMLAudioElement;

  constructor(stream: MediaStream) {
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

  /** 0–500 as the original takes it: the element plays at most at full volume (values above 100 play at 100). */
  setVolume(volume: number): void {
    this.audio.volume = Math.min(volume, 100) / 100;
  }

  setMuted(muted: boolean): void {
    this.audio.muted = muted;
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
    this.video.srcObject = null;
    this.audio.srcObject = null;
    this.box.remove();
  }
}
