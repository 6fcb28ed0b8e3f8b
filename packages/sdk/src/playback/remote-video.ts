import { checkDecode } from './decode-tap.js';
import { FreezeMonitor } from './freeze.js';
import { VideoPlayer, type VideoPlayerHooks, type VideoPlayerOptions } from './video-player.js';

/**
 * A remote video being played: its player and its freeze monitor, fed by the track's mute / unmute
 * (video freeze) and by frame-count samples (render freeze). stop() releases all three.
 */
export class RemoteVideo {
  readonly player: VideoPlayer;
  readonly freeze: FreezeMonitor;
  readonly #track: MediaStreamTrack;
  readonly #onMute = () => this.freeze.trackMuted();
  readonly #onUnmute = () => this.freeze.videoResumed();
  /** Cancels the decode failure check (the decoder fallback, issue 15). */
  readonly #cancelDecodeCheck: () => void;

  constructor(userId: string, streamType: 'main' | 'sub', track: MediaStreamTrack, views: HTMLElement[],
    options: VideoPlayerOptions, hooks: VideoPlayerHooks) {
    this.#track = track;
    this.freeze = new FreezeMonitor(userId, streamType);
    track.addEventListener('mute', this.#onMute);
    track.addEventListener('unmute', this.#onUnmute);
    this.player = new VideoPlayer(track, views, options, hooks);
    this.#cancelDecodeCheck = checkDecode(track, userId, streamType);
  }

  /** Takes a render-freeze sample (about once a second) while the player should be playing. */
  sample(): void {
    if (this.player.state !== 'STOPPED') this.freeze.sample(this.player.framesRendered);
  }

  stop(): void {
    this.#cancelDecodeCheck();
    this.#track.removeEventListener('mute', this.#onMute);
    this.#track.removeEventListener('unmute', this.#onUnmute);
    this.freeze.end();
    this.player.stop();
  }
}
