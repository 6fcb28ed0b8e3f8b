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
  private readonly _track: MediaStreamTrack;
  private readonly _onMute = () => this.freeze.trackMuted();
  private readonly _onUnmute = () => this.freeze.videoResumed();
  /** Cancels the decode failure check (the decoder fallback). */
  private readonly _cancelDecodeCheck: () => void;

  constructor(userId: string, streamType: 'main' | 'sub', track: MediaStreamTrack, views: HTMLElement[],
    options: VideoPlayerOptions, hooks: VideoPlayerHooks) {
    this._track = track;
    this.freeze = new FreezeMonitor(userId, streamType);
    track.addEventListener('mute', this._onMute);
    track.addEventListener('unmute', this._onUnmute);
    this.player = new VideoPlayer(track, views, options, hooks);
    this._cancelDecodeCheck = checkDecode(track, userId, streamType);
  }

  /** Takes a render-freeze sample (about once a second) while the player should be playing. */
  sample(): void {
    if (this.player.state !== 'STOPPED') this.freeze.sample(this.player.framesRendered);
  }

  stop(): void {
    this._cancelDecodeCheck();
    this._track.removeEventListener('mute', this._onMute);
    this._track.removeEventListener('unmute', this._onUnmute);
    this.freeze.end();
    this.player.stop();
  }
}
