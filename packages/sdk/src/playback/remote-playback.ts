import type { Emitter } from '../common/emitter.js';
import type { RemoteUser, VideoRequest, Wants } from '../room/remote-user.js';
import type { TRTCEventTypes } from '../types.js';
import { AudioPlayer } from './audio-player.js';
import { AutoplayGuard } from './autoplay.js';
import type { FreezeStats } from './freeze.js';
import { RemoteVideo } from './remote-video.js';

/** Render-freeze sampling period. */
const FREEZE_SAMPLE_MS = 1_000;

type StreamType = 'main' | 'sub';
type Tracks = Partial<Record<'audio' | 'video' | 'aux', MediaStreamTrack>>;

/** What remote playback needs from the roster around it. */
export interface PlaybackHost {
  readonly events: Emitter<TRTCEventTypes>;
  /** Every remote user (for the freeze sampling). */
  users(): Iterable<RemoteUser>;
  /** enterRoom's enableAutoPlayDialog (default true). */
  autoPlayDialog(): boolean;
  /** A view with receiveWhenViewVisible came into or went out of sight: the subscription follows. */
  visibilityChanged(user: RemoteUser): void;
}

/**
 * Playing what is received of remote users: audio and video players (play states, autoplay, volume,
 * first frame, the `track` event), freeze sampling (docs/behaviour.md §4 video and render freeze) and the
 * visibility of views with receiveWhenViewVisible.
 */
export class RemotePlayback {
  private readonly _host: PlaybackHost;
  private readonly _autoplay: AutoplayGuard;
  private _freezeTimer: ReturnType<typeof setInterval> | undefined;

  constructor(host: PlaybackHost) {
    this._host = host;
    this._autoplay = new AutoplayGuard(() => host.autoPlayDialog(), (event) => host.events.emit('autoplay-failed', event));
  }

  /** Creates players for tracks that are subscribed (`sent`) and present; removes the others. */
  refresh(user: RemoteUser, tracks: Tracks, sent: Wants | undefined): void {
    const { events } = this._host;
    const userId = user.userId;
    if (sent?.audio && tracks.audio && !user.audioPlayer) {
      const track = tracks.audio;
      user.audioPlayer = new AudioPlayer(track, {
        onState: (state, reason) => events.emit('audio-play-state-changed', { userId, state, reason }),
        onBlocked: (resume) => this._autoplay.blocked({ userId, mediaType: 'audio', resume }),
      });
      user.audioPlayer.setMuted(user.audioMuted);
      user.audioPlayer.setVolume(user.volume);
      events.emit('track', { userId, track, sourceTrack: track });
    } else if (!sent?.audio && user.audioPlayer) {
      this.stopAudio(user);
    }
    for (const streamType of ['main', 'sub'] as const) {
      const track = streamType === 'main' ? tracks.video : tracks.aux;
      const request = user.videoRequests[streamType];
      const subscribed = streamType === 'main' ? !!(sent?.bigVideo || sent?.smallVideo) : !!sent?.auxVideo;
      if (!subscribed) {
        this.stopVideo(user, streamType);
        continue;
      }
      if (!track || !request || user.videoPlayers[streamType]) continue;
      user.videoPlayers[streamType] = new RemoteVideo(userId, streamType, track, request.views,
        { fillMode: request.fillMode, mirror: request.mirror, poster: request.poster, canvas: request.canvasRender }, {
          onState: (state, reason) => events.emit('video-play-state-changed', { userId, streamType, state, reason }),
          onBlocked: (resume) => this._autoplay.blocked({ userId, mediaType: streamType === 'main' ? 'video' : 'screen', resume }),
          onFirstFrame: ({ width, height }) => events.emit('first-video-frame', { userId, streamType, width, height }),
          onSizeChanged: ({ width, height }) => events.emit('video-size-changed', { userId, streamType, newWidth: width, newHeight: height }),
        });
      events.emit('track', { userId, streamType, track, sourceTrack: track });
    }
    this._updateFreezeTimer();
  }

  /** The remote's publish state changed: that ends a video freeze (docs/behaviour.md §4). */
  publishChanged(user: RemoteUser): void {
    user.videoPlayers.main?.freeze.videoResumed();
    user.videoPlayers.sub?.freeze.videoResumed();
  }

  stopAudio(user: RemoteUser): void {
    user.audioPlayer?.stop();
    user.audioPlayer = undefined;
  }

  stopVideo(user: RemoteUser, streamType: StreamType): void {
    user.videoPlayers[streamType]?.stop();
    user.videoPlayers[streamType] = undefined;
    if (!user.audioPlayer && !user.videoPlayers.main && !user.videoPlayers.sub) this._autoplay.forget(user.userId);
    this._updateFreezeTimer();
  }

  /** Stops every player of a user (what the app asked for is kept). */
  stopAll(user: RemoteUser): void {
    this.stopAudio(user);
    this.stopVideo(user, 'main');
    this.stopVideo(user, 'sub');
  }

  /** Applies a changed request (view, fill mode, mirror) to a playing video. */
  update(user: RemoteUser, streamType: StreamType, request: VideoRequest, viewsChanged: boolean): void {
    user.videoPlayers[streamType]?.player.update({ fillMode: request.fillMode, mirror: request.mirror }, viewsChanged ? request.views : undefined);
  }

  /** Samples rendered frames of every playing remote video once a second (render-freeze detection). */
  private _updateFreezeTimer(): void {
    const any = [...this._host.users()].some((user) => user.videoPlayers.main || user.videoPlayers.sub);
    if (any && this._freezeTimer === undefined) {
      this._freezeTimer = setInterval(() => {
        for (const user of this._host.users()) {
          user.videoPlayers.main?.sample();
          user.videoPlayers.sub?.sample();
        }
      }, FREEZE_SAMPLE_MS);
    } else if (!any && this._freezeTimer !== undefined) {
      clearInterval(this._freezeTimer);
      this._freezeTimer = undefined;
    }
  }

  /**
   * Freeze figures of every remote video being played, for the statistics report. Figures of a
   * video restart when its player is recreated.
   */
  freezeStats(): FreezeStats[] {
    return [...this._host.users()].flatMap((user) => [user.videoPlayers.main, user.videoPlayers.sub])
      .flatMap((video) => (video ? [video.freeze.stats()] : []));
  }

  /** Watches the view of a video with receiveWhenViewVisible: hidden views are unsubscribed. */
  observe(user: RemoteUser, streamType: StreamType, request: VideoRequest): void {
    this.unobserve(user, streamType);
    const view = request.views[0];
    if (!request.receiveWhenViewVisible || !view || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const visible = entries.some((entry) => entry.isIntersecting);
      if (user.hidden[streamType] === !visible) return;
      user.hidden[streamType] = !visible;
      this._host.visibilityChanged(user);
    }, { root: request.viewRoot ?? null });
    observer.observe(view);
    user.observers[streamType] = observer;
  }

  unobserve(user: RemoteUser, streamType: StreamType): void {
    user.observers[streamType]?.disconnect();
    user.observers[streamType] = undefined;
    user.hidden[streamType] = false;
  }

  /** Forgets a user entirely (it left, or the room was reset). */
  release(user: RemoteUser): void {
    this.stopAll(user);
    this.unobserve(user, 'main');
    this.unobserve(user, 'sub');
  }
}
