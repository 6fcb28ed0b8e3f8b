import { SERVER_CODE, type PeerInfo, type PushMap } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, MESSAGE, operationAbort, operationFailed } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { AudioPlayer } from '../playback/audio-player.js';
import { AutoplayGuard } from '../playback/autoplay.js';
import { FreezeMonitor, type FreezeStats } from '../playback/freeze.js';
import { VideoPlayer } from '../playback/video-player.js';
import { SignalReplyError } from '../signal/signal-channel.js';
import { Downlink } from '../transport/downlink.js';
import {
  computeWants, RemoteUser, sameWants, SMALL_SWITCH_RETRIES, wantsAnything, type VideoRequest, type Wants,
} from './remote-user.js';
import type { RoomContext } from './room-context.js';

/** Subscribe (exchange SDP) and subscription-change time-outs (SPEC §7, §9: 10 s). */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;
/** Delay between re-subscriptions of a failed big/small switch. */
const SMALL_SWITCH_RETRY_DELAY_MS = 1_000;
/** Render-freeze sampling period. */
const FREEZE_SAMPLE_MS = 1_000;

type StreamType = 'main' | 'sub';

/**
 * The other users of the room: their publish flags and the events these give, what the app asked to
 * receive of them (subscriptions over signalling), their downlinks and players (play states,
 * autoplay, volume, first frame, freezes). Users missing after a reconnection get a grace period
 * before remote-user-exit, so a quick return is seamless.
 */
export class RemoteUsers {
  readonly #ctx: RoomContext;
  readonly #users = new Map<string, RemoteUser>();
  readonly #pendingExits = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #autoplay: AutoplayGuard;
  /** muteRemoteAudio('*', …) / setRemoteAudioVolume('*', …): the default of users who arrive later. */
  #allAudio: { requested?: boolean; muted?: boolean; volume?: number } = {};
  #freezeTimer: ReturnType<typeof setInterval> | undefined;

  constructor(ctx: RoomContext) {
    this.#ctx = ctx;
    this.#autoplay = new AutoplayGuard(
      () => ctx.config()?.enableAutoPlayDialog ?? true,
      (event) => ctx.events.emit('autoplay-failed', event),
    );
  }

  get(userId: string): RemoteUser | undefined {
    return this.#users.get(userId);
  }

  values(): IterableIterator<RemoteUser> {
    return this.#users.values();
  }

  get map(): ReadonlyMap<string, RemoteUser> {
    return this.#users;
  }

  /** Announces users already in the room (after a join) in order: enter, then their streams. */
  addPeers(peers: PeerInfo[]): void {
    for (const peer of peers) this.onPeerJoin(peer);
    this.onPublishList({ userList: peers });
  }

  /**
   * After a reconnection: `peers` is who is in the room now. Users missing from it leave unless they
   * come back within `graceMs`; with `rebuild` every downlink is recreated (a new server session).
   */
  reconcile(peers: PeerInfo[], rebuild: boolean, graceMs: number, isDead: (pc: RTCPeerConnection | undefined) => boolean): void {
    for (const user of this.#users.values()) {
      if (rebuild || isDead(user.downlink?.peerConnection)) this.closeRemote(user);
    }
    const present = new Set(peers.map((peer) => peer.userId));
    for (const user of [...this.#users.values()]) {
      if (!present.has(user.userId)) this.#scheduleExit(user.userId, graceMs);
    }
    this.addPeers(peers);
    for (const user of this.#users.values()) this.syncSubscription(user).catch((error: unknown) => log.warn('resubscribe failed', error));
  }

  #scheduleExit(userId: string, graceMs: number): void {
    if (this.#pendingExits.has(userId)) return;
    this.#pendingExits.set(userId, setTimeout(() => {
      this.#pendingExits.delete(userId);
      this.onPeerLeave(userId);
    }, graceMs));
  }

  /** Everyone forgotten without events (the room is left or reset). */
  clear(): void {
    for (const user of this.#users.values()) {
      this.closeRemote(user);
      this.#unobserve(user, 'main');
      this.#unobserve(user, 'sub');
    }
    this.#users.clear();
    for (const timer of this.#pendingExits.values()) clearTimeout(timer);
    this.#pendingExits.clear();
    this.#allAudio = {};
    this.#updateFreezeTimer();
  }

  /** Everyone leaves, with events (before a rejoin). */
  leaveAll(): void {
    for (const user of [...this.#users.values()]) this.onPeerLeave(user.userId);
  }

  /** A user entered (or came back within the grace period, silently). */
  onPeerJoin(peer: PeerInfo): void {
    if (peer.userId === this.#ctx.userId()) return;
    const pending = this.#pendingExits.get(peer.userId);
    const known = this.#users.get(peer.userId);
    if (pending !== undefined) {
      // Back within the grace period: the same user, silently, on a new session.
      clearTimeout(pending);
      this.#pendingExits.delete(peer.userId);
    }
    if (known) {
      if (pending !== undefined || known.tinyId !== peer.tinyId) {
        known.tinyId = peer.tinyId;
        this.closeRemote(known);
        this.syncSubscription(known).catch((error: unknown) => log.warn('resubscribe failed', error));
      }
      return;
    }
    const user = new RemoteUser(peer.userId, peer.tinyId);
    user.audioRequested = this.#allAudio.requested;
    user.audioMuted = this.#allAudio.muted ?? false;
    user.volume = this.#allAudio.volume ?? 100;
    this.#users.set(peer.userId, user);
    this.#ctx.events.emit('remote-user-enter', { userId: peer.userId });
  }

  /** A user left: its streams become unavailable, then remote-user-exit. */
  onPeerLeave(userId: string): void {
    const user = this.#users.get(userId);
    if (!user) return;
    this.#applyFlag(user, 0);
    this.closeRemote(user);
    this.#unobserve(user, 'main');
    this.#unobserve(user, 'sub');
    this.#users.delete(userId);
    this.#ctx.events.emit('remote-user-exit', { userId });
  }

  /** Publish flags of some users changed. */
  onPublishList(list: PushMap['publish-list']): void {
    for (const peer of list.userList) {
      const user = this.#users.get(peer.userId);
      if (user) this.#applyFlag(user, peer.flag);
    }
  }

  /** Applies a new flag and announces what became (un)available. */
  #applyFlag(user: RemoteUser, flag: number): void {
    const before = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable, flag: user.flag };
    user.flag = flag;
    const after = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable };
    const userId = user.userId;
    // A publish change ends a video freeze (SPEC §4).
    if (before.flag !== flag) {
      user.freeze.main?.videoResumed();
      user.freeze.sub?.videoResumed();
    }
    if (before.audio !== after.audio) {
      this.#ctx.events.emit(after.audio ? 'remote-audio-available' : 'remote-audio-unavailable', { userId });
    }
    if (before.video !== after.video) {
      if (!after.video) this.#stopVideoPlayer(user, 'main');
      this.#ctx.events.emit(after.video ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'main' });
    }
    if (before.aux !== after.aux) {
      if (!after.aux) this.#stopVideoPlayer(user, 'sub');
      this.#ctx.events.emit(after.aux ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'sub' });
    }
    if (!after.audio) this.#stopAudioPlayer(user);
    this.syncSubscription(user).catch((error: unknown) => {
      log.warn('subscription to', userId, 'failed:', error);
    });
  }

  /** What should be subscribed of `user` now. */
  #wants(user: RemoteUser): Wants {
    const config = this.#ctx.config();
    return computeWants({
      state: user.state,
      autoReceiveAudio: config?.autoReceiveAudio ?? true,
      autoReceiveVideo: config?.autoReceiveVideo ?? false,
      audioRequested: user.audioRequested,
      mainRequested: user.videoRequests.main !== undefined,
      subRequested: user.videoRequests.sub !== undefined,
      mainHidden: user.hidden.main,
      subHidden: user.hidden.sub,
      preferSmall: user.preference?.small ?? false,
    });
  }

  /**
   * Brings the server's subscription for `user` in line with what is wanted: subscribe (the server
   * offers the downlink), a subscription change, or an unsubscribe when nothing stays subscribed.
   * Serialised per user. A failed big/small switch is retried up to 10 times, then the preference
   * is dropped (SPEC §4).
   */
  syncSubscription(user: RemoteUser): Promise<void> {
    const run = async () => {
      const signal = this.#ctx.signal();
      if (!signal || this.#users.get(user.userId) !== user) return;
      const wants = this.#wants(user);
      if (!wantsAnything(wants)) {
        if (user.downlink) {
          await signal.request('unsubscribe', { srcUserId: user.userId }).catch(() => undefined);
          this.closeRemote(user);
        }
        return;
      }
      const data = { srcUserId: user.userId, ...wants };
      if (!user.downlink) {
        const encoded = this.#ctx.encoded?.();
        const downlink = new Downlink(this.#ctx.iceServers(), this.#ctx.iceTransportPolicy(), () => this.#refreshPlayers(user),
          encoded && ((slot, receiver) => encoded.receiver(user.userId, slot, receiver)));
        user.downlink = downlink;
        this.#ctx.watchLink(downlink.peerConnection, 'downlink', user);
        try {
          const { sdp } = await signal.request('subscribe', data, SUBSCRIBE_TIMEOUT_MS);
          const answer = await downlink.answer(sdp);
          await signal.request('subscribe-answer', { srcUserId: user.userId, sdp: answer }, SUBSCRIBE_TIMEOUT_MS);
        } catch (error) {
          if (user.downlink === downlink) this.closeRemote(user);
          throw error;
        }
      } else if (!sameWants(user.sent, wants)) {
        const switching = user.sent !== undefined && (user.sent.smallVideo !== wants.smallVideo || user.sent.bigVideo !== wants.bigVideo);
        try {
          await signal.request('subscribe-change', data, SUBSCRIBE_TIMEOUT_MS);
        } catch (error) {
          if (switching) this.#retrySwitch(user);
          throw error;
        }
        if (switching && user.preference) user.preference.retriesLeft = SMALL_SWITCH_RETRIES;
      }
      user.sent = wants;
      this.#refreshPlayers(user);
    };
    user.queue = user.queue.then(run, run);
    return user.queue;
  }

  /** A big/small switch failed: try again later, at most SMALL_SWITCH_RETRIES times, then drop the preference. */
  #retrySwitch(user: RemoteUser): void {
    const preference = user.preference;
    if (!preference) return;
    preference.retriesLeft--;
    if (preference.retriesLeft <= 0) {
      log.warn(`switching ${user.userId} to the ${preference.small ? 'small' : 'big'} video failed ${SMALL_SWITCH_RETRIES} times; giving up`);
      user.preference = undefined;
      return;
    }
    setTimeout(() => {
      if (this.#users.get(user.userId) !== user || user.preference !== preference) return;
      this.syncSubscription(user).catch((error: unknown) => log.warn('big/small switch retry failed:', error));
    }, SMALL_SWITCH_RETRY_DELAY_MS);
  }

  /** Creates players for tracks that are subscribed and present; removes the others. */
  #refreshPlayers(user: RemoteUser): void {
    const tracks = user.downlink?.tracks ?? {};
    const sent = user.sent;
    const userId = user.userId;
    if (sent?.audio && tracks.audio && !user.audioPlayer) {
      const track = tracks.audio;
      user.audioPlayer = new AudioPlayer(track, {
        onState: (state, reason) => this.#ctx.events.emit('audio-play-state-changed', { userId, state, reason }),
        onBlocked: (resume) => this.#autoplay.blocked({ userId, mediaType: 'audio', resume }),
      });
      user.audioPlayer.setMuted(user.audioMuted);
      user.audioPlayer.setVolume(user.volume);
      this.#ctx.events.emit('track', { userId, track, sourceTrack: track });
    } else if (!sent?.audio && user.audioPlayer) {
      this.#stopAudioPlayer(user);
    }
    for (const streamType of ['main', 'sub'] as const) {
      const track = streamType === 'main' ? tracks.video : tracks.aux;
      const request = user.videoRequests[streamType];
      const subscribed = streamType === 'main' ? !!(sent?.bigVideo || sent?.smallVideo) : !!sent?.auxVideo;
      if (!subscribed) {
        this.#stopVideoPlayer(user, streamType);
        continue;
      }
      if (!track || !request || user.videoPlayers[streamType]) continue;
      const freeze = new FreezeMonitor(userId, streamType);
      user.freeze[streamType] = freeze;
      const onMute = () => freeze.trackMuted();
      const onUnmute = () => freeze.videoResumed();
      track.addEventListener('mute', onMute);
      track.addEventListener('unmute', onUnmute);
      const player = new VideoPlayer(track, request.views, { fillMode: request.fillMode, mirror: request.mirror, poster: request.poster }, {
        onState: (state, reason) => this.#ctx.events.emit('video-play-state-changed', { userId, streamType, state, reason }),
        onBlocked: (resume) => this.#autoplay.blocked({ userId, mediaType: streamType === 'main' ? 'video' : 'screen', resume }),
        onFirstFrame: ({ width, height }) => this.#ctx.events.emit('first-video-frame', { userId, streamType, width, height }),
      });
      const stop = player.stop.bind(player);
      player.stop = () => {
        track.removeEventListener('mute', onMute);
        track.removeEventListener('unmute', onUnmute);
        freeze.end();
        stop();
      };
      user.videoPlayers[streamType] = player;
      this.#ctx.events.emit('track', { userId, streamType, track, sourceTrack: track });
    }
    this.#updateFreezeTimer();
  }

  /** Samples rendered frames of every playing remote video once a second (render-freeze detection). */
  #updateFreezeTimer(): void {
    const any = [...this.#users.values()].some((user) => user.videoPlayers.main || user.videoPlayers.sub);
    if (any && this.#freezeTimer === undefined) {
      this.#freezeTimer = setInterval(() => {
        for (const user of this.#users.values()) {
          for (const streamType of ['main', 'sub'] as const) {
            const player = user.videoPlayers[streamType];
            if (player && player.state !== 'STOPPED') user.freeze[streamType]?.sample(player.framesRendered);
          }
        }
      }, FREEZE_SAMPLE_MS);
    } else if (!any && this.#freezeTimer !== undefined) {
      clearInterval(this.#freezeTimer);
      this.#freezeTimer = undefined;
    }
  }

  /**
   * Freeze figures of every remote video being played (SPEC §4 video and render freeze), for the
   * statistics report. Figures of a video restart when its player is recreated.
   */
  freezeStats(): FreezeStats[] {
    const out: FreezeStats[] = [];
    for (const user of this.#users.values()) {
      for (const streamType of ['main', 'sub'] as const) {
        const monitor = user.freeze[streamType];
        if (monitor && user.videoPlayers[streamType]) out.push(monitor.stats());
      }
    }
    return out;
  }

  #stopAudioPlayer(user: RemoteUser): void {
    user.audioPlayer?.stop();
    user.audioPlayer = undefined;
  }

  #stopVideoPlayer(user: RemoteUser, streamType: StreamType): void {
    user.videoPlayers[streamType]?.stop();
    user.videoPlayers[streamType] = undefined;
    if (!user.audioPlayer && !user.videoPlayers.main && !user.videoPlayers.sub) this.#autoplay.forget(user.userId);
    this.#updateFreezeTimer();
  }

  /** Closes a user's downlink and players; what the app asked for (views, preferences) is kept for a resubscription. */
  closeRemote(user: RemoteUser): void {
    this.#stopAudioPlayer(user);
    this.#stopVideoPlayer(user, 'main');
    this.#stopVideoPlayer(user, 'sub');
    user.downlink?.close();
    user.downlink = undefined;
    user.sent = undefined;
  }

  /** Watches the view of a video with receiveWhenViewVisible: hidden views are unsubscribed. */
  #observe(user: RemoteUser, streamType: StreamType, request: VideoRequest): void {
    this.#unobserve(user, streamType);
    const view = request.views[0];
    if (!request.receiveWhenViewVisible || !view || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      const visible = entries.some((entry) => entry.isIntersecting);
      if (user.hidden[streamType] === !visible) return;
      user.hidden[streamType] = !visible;
      this.syncSubscription(user).catch((error: unknown) => log.warn('view visibility resubscribe failed:', error));
    }, { root: request.viewRoot ?? null });
    observer.observe(view);
    user.observers[streamType] = observer;
  }

  #unobserve(user: RemoteUser, streamType: StreamType): void {
    user.observers[streamType]?.disconnect();
    user.observers[streamType] = undefined;
    user.hidden[streamType] = false;
  }

  /** Sets the big/small preference of a main video (SPEC §4 retry rule starts afresh). */
  #prefer(user: RemoteUser, small: boolean | undefined): void {
    if (small === undefined) return;
    if (small && !user.state.hasSmall) log.warn(`remote user '${user.userId}' publishes no small stream: receiving the big one until it does`);
    user.preference = { small, retriesLeft: SMALL_SWITCH_RETRIES };
  }

  /**
   * Starts receiving and rendering a remote video (startRemoteVideo). Resolves once subscribed;
   * the video plays as soon as its track is there.
   */
  async startRemoteVideo(userId: string, streamType: StreamType, request: VideoRequest, small?: boolean): Promise<void> {
    const user = this.#remoteWithStream(userId, streamType, 'startRemoteVideo');
    this.#stopVideoPlayer(user, streamType);
    user.videoRequests[streamType] = request;
    if (streamType === 'main') this.#prefer(user, small);
    this.#observe(user, streamType, request);
    try {
      await this.syncSubscription(user);
    } catch (error) {
      throw this.#subscribeError(error, user, streamType, 'startRemoteVideo');
    }
    this.#checkStillPublished(user, streamType, 'startRemoteVideo');
  }

  /** Changes a playing remote video: view, fill mode, mirror, big/small. */
  async updateRemoteVideo(userId: string, streamType: StreamType, change: Partial<VideoRequest>, small?: boolean): Promise<void> {
    const user = this.#users.get(userId);
    const request = user?.videoRequests[streamType];
    if (!user || !request) throw invalidOperation(undefined, `the ${streamType} video of '${userId}' is not started; call startRemoteVideo first`, 'updateRemoteVideo');
    const next: VideoRequest = {
      ...request,
      views: change.views ?? request.views,
      fillMode: change.fillMode ?? request.fillMode,
      mirror: change.mirror ?? request.mirror,
      receiveWhenViewVisible: change.receiveWhenViewVisible ?? request.receiveWhenViewVisible,
      viewRoot: change.viewRoot ?? request.viewRoot,
    };
    user.videoRequests[streamType] = next;
    user.videoPlayers[streamType]?.update({ fillMode: next.fillMode, mirror: next.mirror }, change.views);
    if (change.views || change.receiveWhenViewVisible !== undefined || change.viewRoot) this.#observe(user, streamType, next);
    if (streamType === 'main' && small !== undefined && small !== (user.preference?.small ?? false)) {
      this.#prefer(user, small);
      try {
        await this.syncSubscription(user);
      } catch (error) {
        throw this.#subscribeError(error, user, streamType, 'updateRemoteVideo');
      }
    }
  }

  /** Stops receiving and rendering a remote video ('*' for every user). */
  async stopRemoteVideo(userId: string, streamType: StreamType | undefined): Promise<void> {
    const users = this.#select(userId);
    await Promise.all(users.map((user) => {
      for (const type of streamType ? [streamType] : (['main', 'sub'] as const)) {
        this.#stopVideoPlayer(user, type);
        this.#unobserve(user, type);
        user.videoRequests[type] = undefined;
        if (type === 'main') user.preference = undefined;
      }
      return this.syncSubscription(user).catch(() => undefined);
    }));
  }

  /** Sets remote playback volume, 0–100 and above to amplify ('*' for all, also users who come later). */
  setRemoteAudioVolume(userId: string, volume: number): void {
    if (userId === '*') this.#allAudio.volume = volume;
    for (const user of this.#select(userId)) {
      user.volume = volume;
      user.audioPlayer?.setVolume(volume);
    }
  }

  /**
   * Mutes or unmutes a remote user's audio ('*' for all, also users who come later). Unmuting asks
   * for the audio even with autoReceiveAudio off; muting keeps it flowing, silenced.
   */
  async muteRemoteAudio(userId: string, mute: boolean): Promise<void> {
    if (userId === '*') this.#allAudio = { ...this.#allAudio, muted: mute, ...(mute ? {} : { requested: true }) };
    const users = this.#select(userId);
    await Promise.all(users.map((user) => {
      user.audioMuted = mute;
      user.audioPlayer?.setMuted(mute);
      if (!mute && user.audioRequested !== true) {
        user.audioRequested = true;
        return this.syncSubscription(user).catch((error: unknown) => log.warn('audio subscription failed:', error));
      }
      return undefined;
    }));
  }

  /** The track received of a remote user's audio or video, when subscribed. */
  receivedTrack(userId: string, kind: 'audio' | StreamType): MediaStreamTrack | undefined {
    const user = this.#users.get(userId);
    const tracks = user?.downlink?.tracks;
    if (kind === 'audio') return user?.sent?.audio ? tracks?.audio : undefined;
    if (kind === 'main') return user?.sent?.bigVideo || user?.sent?.smallVideo ? tracks?.video : undefined;
    return user?.sent?.auxVideo ? tracks?.aux : undefined;
  }

  /** The first element a remote video plays in, if it plays. */
  videoElement(userId: string, streamType: StreamType): HTMLVideoElement | undefined {
    return this.#users.get(userId)?.videoPlayers[streamType]?.elements[0];
  }

  #select(userId: string): RemoteUser[] {
    if (userId === '*') return [...this.#users.values()];
    const user = this.#users.get(userId);
    return user ? [user] : [];
  }

  /** Maps a failed subscription to the RtcError an app sees. */
  #subscribeError(error: unknown, user: RemoteUser, streamType: StreamType, functionName: string): RtcError {
    const gone = this.#users.get(user.userId) !== user || !(streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary);
    if (gone || (error instanceof SignalReplyError && error.code === SERVER_CODE.STREAM_NOT_EXIST)) {
      // REMOTE_STREAM_NOT_EXIST becomes an abort on subscribe (SPEC §8).
      return operationAbort(MESSAGE.STREAM_UNPUBLISHED, functionName);
    }
    if (error instanceof RtcError) return error;
    return operationFailed(undefined, `${MESSAGE.SUBSCRIBE_FAILED}: ${(error as Error)?.message ?? String(error)}`, functionName, error);
  }

  #checkStillPublished(user: RemoteUser, streamType: StreamType, functionName: string): void {
    const published = this.#users.get(user.userId) === user && (streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary);
    if (!published) throw operationAbort(MESSAGE.STREAM_UNPUBLISHED, functionName);
  }

  #remoteWithStream(userId: string, streamType: StreamType, functionName: string): RemoteUser {
    if (!this.#ctx.joined()) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() first', functionName);
    const user = this.#users.get(userId);
    if (!user) throw invalidOperation(EXTRA_CODE.REMOTE_USER_NOT_EXIST, `remote user '${userId}' is not in the room`, functionName);
    const available = streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary;
    if (!available) throw invalidOperation(EXTRA_CODE.STREAM_TYPE_NOT_EXIST, `remote user '${userId}' does not publish the ${streamType} stream`, functionName);
    return user;
  }
}
