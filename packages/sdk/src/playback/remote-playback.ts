import type { SubscriptionWants } from '@conclave/protocol';
import type { Emitter } from '../common/emitter.js';
import type { TRTCEventTypes } from '../types.js';
import { AudioPlayer } from './audio-player.js';
import { AutoplayGuard } from './autoplay.js';
import type { FreezeStats } from './freeze.js';
import { RemoteVideo } from './remote-video.js';
import type { VideoRequest } from './video-request.js';

/** Render-freeze sampling period. */
const FREEZE_SAMPLE_MS = 1_000;

type StreamType = 'main' | 'sub';
type Tracks = Partial<Record<'audio' | 'video' | 'aux', MediaStreamTrack>>;

/** What playback reads of a remote user: the roster's record, which playback never writes. */
export interface PlayedUser {
  readonly userId: string;
  readonly audioMuted: boolean;
  /** Playback volume, 0–100 (above 100 amplifies). */
  readonly volume: number;
  readonly videoRequests: Readonly<Partial<Record<StreamType, VideoRequest>>>;
}

/** The players of one remote user. */
export interface Players {
  audio?: AudioPlayer;
  main?: RemoteVideo;
  sub?: RemoteVideo;
}

/** Playback's own record of a remote user: its players, the views it watches, which of them are out of sight. */
interface Played extends Players {
  hidden: Partial<Record<StreamType, boolean>>;
  observers: Partial<Record<StreamType, IntersectionObserver>>;
}

/** What remote playback needs from the roster around it. */
export interface PlaybackHost<U extends PlayedUser> {
  readonly events: Emitter<TRTCEventTypes>;
  /** enterRoom's enableAutoPlayDialog (default true). */
  autoPlayDialog(): boolean;
  /** A view with receiveWhenViewVisible came into or went out of sight: the subscription follows. */
  visibilityChanged(user: U): void;
}

/**
 * Playing what is received of remote users: audio and video players (play states, autoplay, volume,
 * first frame, the `track` event), freeze sampling (docs/behaviour.md §4 video and render freeze) and the
 * visibility of views with receiveWhenViewVisible.
 */
export class RemotePlayback<U extends PlayedUser> {
  private readonly _host: PlaybackHost<U>;
  private readonly _autoplay: AutoplayGuard;
  private _freezeTimer: ReturnType<typeof setInterval> | undefined;
  /** What is played of each user (by userId), from its first player or watched view until it is released. */
  private readonly _played = new Map<string, Played>();

  constructor(host: PlaybackHost<U>) {
    this._host = host;
    this._autoplay = new AutoplayGuard(() => host.autoPlayDialog(), (event) => host.events.emit('autoplay-failed', event));
  }

  /** The players of a remote user, if any. */
  players(userId: string): Players | undefined {
    return this._played.get(userId);
  }

  /** Which videos with receiveWhenViewVisible have their view out of sight (the subscription leaves them out). */
  hidden(userId: string): Readonly<Played['hidden']> {
    return this._played.get(userId)?.hidden ?? {};
  }

  private _of(user: U): Played {
    let played = this._played.get(user.userId);
    if (!played) this._played.set(user.userId, played = { hidden: {}, observers: {} });
    return played;
  }

  /** Creates players for tracks that are subscribed (`sent`) and present; removes the others. */
  refresh(user: U, tracks: Tracks, sent: SubscriptionWants | undefined): void {
    const { events } = this._host;
    const userId = user.userId;
    const played = this._of(user);
    if (sent?.audio && tracks.audio && !played.audio) {
      const track = tracks.audio;
      played.audio = new AudioPlayer(track, {
        onState: (state, reason) => events.emit('audio-play-state-changed', { userId, state, reason }),
        onBlocked: (resume) => this._autoplay.blocked({ userId, mediaType: 'audio', resume }),
      });
      played.audio.setMuted(user.audioMuted);
      played.audio.setVolume(user.volume);
      events.emit('track', { userId, track, sourceTrack: track });
    } else if (!sent?.audio && played.audio) {
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
      if (!track || !request || played[streamType]) continue;
      played[streamType] = new RemoteVideo(userId, streamType, track, request.views,
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
  publishChanged(user: U): void {
    const played = this._of(user);
    played.main?.freeze.videoResumed();
    played.sub?.freeze.videoResumed();
  }

  stopAudio(user: U): void {
    const played = this._of(user);
    played.audio?.stop();
    played.audio = undefined;
  }

  stopVideo(user: U, streamType: StreamType): void {
    const played = this._of(user);
    played[streamType]?.stop();
    played[streamType] = undefined;
    if (!played.audio && !played.main && !played.sub) this._autoplay.forget(user.userId);
    this._updateFreezeTimer();
  }

  /** Applies a changed request (view, fill mode, mirror) to a playing video. */
  update(user: U, streamType: StreamType, request: VideoRequest, viewsChanged: boolean): void {
    this._of(user)[streamType]?.player.update({ fillMode: request.fillMode, mirror: request.mirror }, viewsChanged ? request.views : undefined);
  }

  /** Samples rendered frames of every playing remote video once a second (render-freeze detection). */
  private _updateFreezeTimer(): void {
    const any = [...this._played.values()].some((played) => played.main || played.sub);
    if (any && this._freezeTimer === undefined) {
      this._freezeTimer = setInterval(() => {
        for (const played of this._played.values()) {
          played.main?.sample();
          played.sub?.sample();
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
    return [...this._played.values()].flatMap((played) => [played.main, played.sub])
      .flatMap((video) => (video ? [video.freeze.stats()] : []));
  }

  /** Watches the view of a video with receiveWhenViewVisible: hidden views are unsubscribed. */
  observe(user: U, streamType: StreamType, request: VideoRequest): void {
    this.unobserve(user, streamType);
    const view = request.views[0];
    if (!request.receiveWhenViewVisible || !view || typeof IntersectionObserver === 'undefined') return;
    const played = this._of(user);
    const observer = new IntersectionObserver((entries) => {
      const hidden = !entries.some((entry) => entry.isIntersecting);
      if ((played.hidden[streamType] === true) === hidden) return;
      played.hidden[streamType] = hidden;
      this._host.visibilityChanged(user);
    }, { root: request.viewRoot ?? null });
    observer.observe(view);
    played.observers[streamType] = observer;
  }

  unobserve(user: U, streamType: StreamType): void {
    const played = this._of(user);
    played.observers[streamType]?.disconnect();
    played.observers[streamType] = undefined;
    played.hidden[streamType] = false;
  }

  /** Forgets a user entirely (it left, or the room was reset). */
  release(user: U): void {
    this.stopAudio(user);
    for (const streamType of ['main', 'sub'] as const) {
      this.stopVideo(user, streamType);
      this.unobserve(user, streamType);
    }
    this._played.delete(user.userId);
  }
}
