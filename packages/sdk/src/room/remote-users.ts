import { SERVER_CODE, type LeaveReason, type PeerInfo, type PushMap } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, MESSAGE, operationAbort, operationFailed } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { RemotePlayback } from '../playback/remote-playback.js';
import { SignalReplyError } from '../signal/signal-channel.js';
import type { VideoRequest } from '../playback/video-request.js';
import { RosterUser, type RemoteUser } from './remote-user.js';
import type { RoomContext } from './room-context.js';
import { Subscriptions, type DownlinkFactory } from './subscriptions.js';

/** The wire's leave reasons as the original's PEER_LEAVE_REASON values (remote-user-exit's reason). */
const PEER_LEAVE_REASON: Record<LeaveReason, 0 | 1 | 2 | 3> = { 'normal': 0, 'timeout': 1, 'kick': 2, 'role change': 3 };

export { SUBSCRIBE_TIMEOUT_MS } from './subscriptions.js';

type StreamType = 'main' | 'sub';

/**
 * The other users of the room (the roster): their publish flags and the events these give, and the
 * remote-media calls of the API, carried out by `subscriptions` (what is received) and `playback`
 * (how it plays). The roster owns each user's record: its methods are the only writers; the other two read
 * it and keep their own state (docs/architecture.md "SDK remote users"). Users missing after a reconnection get
 * a grace period before remote-user-exit, so a quick return is seamless.
 */
export class RemoteUsers {
  private readonly _ctx: RoomContext;
  private readonly _users = new Map<string, RosterUser>();
  private readonly _pendingExits = new Map<string, ReturnType<typeof setTimeout>>();
  readonly subscriptions: Subscriptions;
  readonly playback: RemotePlayback<RemoteUser>;
  /** muteRemoteAudio('*', …) / setRemoteAudioVolume('*', …): the default of users who arrive later. */
  private _allAudio: { requested?: boolean; muted?: boolean; volume?: number } = {};
  /** Set while addPeers announces: subscriptions are synced a task later (see addPeers). */
  private _deferSync = false;

  constructor(ctx: RoomContext, createDownlink?: DownlinkFactory) {
    this._ctx = ctx;
    this.playback = new RemotePlayback({
      events: ctx.events,
      autoPlayDialog: () => ctx.config()?.enableAutoPlayDialog ?? true,
      visibilityChanged: (user) => this.subscriptions.syncLater(user, 'view visibility'),
    });
    this.subscriptions = new Subscriptions({
      ctx,
      current: (user) => this._users.get(user.userId) === user,
      mediaChanged: (user, tracks, sent) => this.playback.refresh(user, tracks, sent),
      hidden: (user) => this.playback.hidden(user.userId),
      // The record is the roster's own (handed out read-only): the failed preference is dropped here.
      switchFailed: (user) => {
        (user as RosterUser).preference = undefined;
      },
    }, createDownlink);
  }

  get(userId: string): RemoteUser | undefined {
    return this._users.get(userId);
  }

  get map(): ReadonlyMap<string, RemoteUser> {
    return this._users;
  }

  /**
   * Announces users already in the room (after a join) in order: enter, then their streams. Their
   * subscriptions start a task later: an app that calls startRemoteVideo on these events or once
   * enterRoom() resolves (microtasks) then gets audio and video in one subscribe, instead of an
   * audio-only one and a change (a second step before the first frame; on Janus its key frame was lost).
   */
  addPeers(peers: PeerInfo[]): void {
    for (const peer of peers) this.onPeerJoin(peer);
    this._deferSync = true;
    try {
      this.onPublishList({ userList: peers });
    } finally {
      this._deferSync = false;
    }
  }

  /**
   * After a reconnection: `peers` is who is in the room now. Users missing from it leave unless they
   * come back within `graceMs`; with `rebuild` every link is recreated (a new server session).
   */
  reconcile(peers: PeerInfo[], rebuild: boolean, graceMs: number): void {
    const dead = this.subscriptions.peerConnection && ['failed', 'closed'].includes(this.subscriptions.peerConnection.connectionState);
    if (rebuild || dead) this.subscriptions.resetDownlink();
    const present = new Set(peers.map((peer) => peer.userId));
    for (const user of [...this._users.values()]) {
      if (!present.has(user.userId)) this._scheduleExit(user.userId, graceMs);
    }
    this.addPeers(peers);
    for (const user of this._users.values()) this.subscriptions.syncLater(user, 'resubscribe');
  }

  /** The downlink failed: it is discarded and every user subscribed again on a new one. */
  rebuildDownlink(): void {
    this.subscriptions.resetDownlink();
    for (const user of this._users.values()) this.subscriptions.syncLater(user, 'downlink rebuild');
  }

  private _scheduleExit(userId: string, graceMs: number): void {
    if (this._pendingExits.has(userId)) return;
    this._pendingExits.set(userId, setTimeout(() => {
      this._pendingExits.delete(userId);
      this.onPeerLeave(userId);
    }, graceMs));
  }

  /** Everyone forgotten without events (the room is left or reset). */
  clear(): void {
    this.subscriptions.closeAll();
    for (const user of this._users.values()) this.playback.release(user);
    this._users.clear();
    for (const timer of this._pendingExits.values()) clearTimeout(timer);
    this._pendingExits.clear();
    this._allAudio = {};
  }

  /** Everyone leaves, with events (before a rejoin). */
  leaveAll(): void {
    for (const user of [...this._users.values()]) this.onPeerLeave(user.userId);
  }

  /** A user entered (or came back within the grace period, silently). */
  onPeerJoin(peer: PeerInfo): void {
    if (peer.userId === this._ctx.userId()) return;
    const pending = this._pendingExits.get(peer.userId);
    const known = this._users.get(peer.userId);
    if (pending !== undefined) {
      // Back within the grace period: the same user, silently, on a new session.
      clearTimeout(pending);
      this._pendingExits.delete(peer.userId);
    }
    if (known) {
      if (pending !== undefined || known.tinyId !== peer.tinyId) {
        known.tinyId = peer.tinyId;
        this.subscriptions.close(known);
        this.subscriptions.syncLater(known, 'resubscribe');
      }
      return;
    }
    const user = new RosterUser(peer.userId, peer.tinyId);
    user.audioRequested = this._allAudio.requested;
    user.audioMuted = this._allAudio.muted ?? false;
    user.volume = this._allAudio.volume ?? 100;
    this._users.set(peer.userId, user);
    this._ctx.events.emit('remote-user-enter', { userId: peer.userId });
  }

  /**
   * A user left: its streams become unavailable, then remote-user-exit with the server's reason as the original's
   * PEER_LEAVE_REASON (0 left, 1 timed out, 2 kicked, 3 became an audience); 0 when gone unseen (a reconnection).
   */
  onPeerLeave(userId: string, reason: LeaveReason = 'normal'): void {
    const user = this._users.get(userId);
    if (!user) return;
    this._applyFlag(user, 0);
    this.subscriptions.close(user);
    this.playback.release(user);
    this._users.delete(userId);
    this._ctx.events.emit('remote-user-exit', { userId, reason: PEER_LEAVE_REASON[reason] });
  }

  /** Publish flags of some users changed. */
  onPublishList(list: PushMap['publish-list']): void {
    for (const peer of list.userList) {
      const user = this._users.get(peer.userId);
      if (user) this._applyFlag(user, peer.flag);
    }
  }

  /** Applies a new flag and announces what became (un)available. */
  private _applyFlag(user: RosterUser, flag: number): void {
    const before = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable, flag: user.flag };
    user.flag = flag;
    const after = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable };
    const userId = user.userId;
    const emit = this._ctx.events.emit.bind(this._ctx.events);
    if (before.flag !== flag) this.playback.publishChanged(user);
    if (before.audio !== after.audio) emit(after.audio ? 'remote-audio-available' : 'remote-audio-unavailable', { userId });
    if (before.video !== after.video) {
      if (!after.video) this.playback.stopVideo(user, 'main');
      emit(after.video ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'main' });
    }
    if (before.aux !== after.aux) {
      if (!after.aux) this.playback.stopVideo(user, 'sub');
      emit(after.aux ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'sub' });
    }
    if (!after.audio) this.playback.stopAudio(user);
    const sync = () => this.subscriptions.syncLater(user, 'publish change');
    if (this._deferSync) setTimeout(sync, 0);
    else sync();
  }

  /** Sets the big/small preference of a main video (docs/behaviour.md §4 retry rule starts afresh). */
  private _prefer(user: RosterUser, small: boolean | undefined): void {
    if (small === undefined) return;
    if (small && !user.state.hasSmall) log.warn(`remote user '${user.userId}' publishes no small stream: receiving the big one until it does`);
    user.preference = { small };
  }

  /**
   * Starts receiving and rendering a remote video (startRemoteVideo). Resolves once subscribed;
   * the video plays as soon as its track is there.
   */
  async startRemoteVideo(userId: string, streamType: StreamType, request: VideoRequest, small?: boolean): Promise<void> {
    const user = this._remoteWithStream(userId, streamType, 'startRemoteVideo');
    this.playback.stopVideo(user, streamType);
    user.videoRequests[streamType] = request;
    if (streamType === 'main') this._prefer(user, small);
    this.playback.observe(user, streamType, request);
    await this._subscribeFor(user, streamType, 'startRemoteVideo');
    this._checkStillPublished(user, streamType, 'startRemoteVideo');
  }

  /** Changes a playing remote video: view, fill mode, mirror, big/small. */
  async updateRemoteVideo(userId: string, streamType: StreamType, change: Partial<VideoRequest>, small?: boolean): Promise<void> {
    const user = this._users.get(userId);
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
    this.playback.update(user, streamType, next, change.views !== undefined);
    if (change.views || change.receiveWhenViewVisible !== undefined || change.viewRoot) this.playback.observe(user, streamType, next);
    if (streamType === 'main' && small !== undefined && small !== (user.preference?.small ?? false)) {
      this._prefer(user, small);
      await this._subscribeFor(user, streamType, 'updateRemoteVideo');
    }
  }

  /**
   * Stops receiving and rendering a remote video ('*' for every user).
   * @throws RtcError OPERATION_FAILED when the server refuses the unsubscribe (playback stops anyway).
   */
  async stopRemoteVideo(userId: string, streamType: StreamType | undefined): Promise<void> {
    const users = this._select(userId);
    await Promise.all(users.map(async (user) => {
      for (const type of streamType ? [streamType] : (['main', 'sub'] as const)) {
        this.playback.stopVideo(user, type);
        this.playback.unobserve(user, type);
        user.videoRequests[type] = undefined;
        if (type === 'main') user.preference = undefined;
      }
      await this.subscriptions.sync(user);
    }));
  }

  /** Sets remote playback volume, 0–100 and above to amplify ('*' for all, also users who come later). */
  setRemoteAudioVolume(userId: string, volume: number): void {
    if (userId === '*') this._allAudio.volume = volume;
    for (const user of this._select(userId)) {
      user.volume = volume;
      this.playback.players(user.userId)?.audio?.setVolume(volume);
    }
  }

  /**
   * Mutes or unmutes a remote user's audio ('*' for all, also users who come later). Unmuting asks
   * for the audio even with autoReceiveAudio off; muting keeps it flowing, silenced.
   */
  async muteRemoteAudio(userId: string, mute: boolean): Promise<void> {
    if (userId === '*') this._allAudio = { ...this._allAudio, muted: mute, ...(mute ? {} : { requested: true }) };
    const users = this._select(userId);
    await Promise.all(users.map((user) => {
      user.audioMuted = mute;
      this.playback.players(user.userId)?.audio?.setMuted(mute);
      if (!mute && user.audioRequested !== true) {
        user.audioRequested = true;
        return this.subscriptions.sync(user).catch((error: unknown) => log.warn('audio subscription failed:', error));
      }
      return undefined;
    }));
  }

  /** The track received of a remote user's audio or video, when subscribed. */
  receivedTrack(userId: string, kind: 'audio' | StreamType): MediaStreamTrack | undefined {
    const user = this._users.get(userId);
    if (!user) return undefined;
    const tracks = this.subscriptions.tracks(user);
    const sent = this.subscriptions.sent(user);
    if (kind === 'audio') return sent?.audio ? tracks.audio : undefined;
    if (kind === 'main') return sent?.bigVideo || sent?.smallVideo ? tracks.video : undefined;
    return sent?.auxVideo ? tracks.aux : undefined;
  }

  private _select(userId: string): RosterUser[] {
    if (userId === '*') return [...this._users.values()];
    const user = this._users.get(userId);
    return user ? [user] : [];
  }

  /** Syncs the subscription an app call needs, mapping a failure to the RtcError the app sees. */
  private async _subscribeFor(user: RemoteUser, streamType: StreamType, functionName: string): Promise<void> {
    try {
      await this.subscriptions.sync(user);
    } catch (error) {
      const gone = this._users.get(user.userId) !== user || !(streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary);
      if (gone || (error instanceof SignalReplyError && error.code === SERVER_CODE.STREAM_NOT_EXIST)) {
        // REMOTE_STREAM_NOT_EXIST becomes an abort on subscribe (docs/behaviour.md §8).
        throw operationAbort(MESSAGE.STREAM_UNPUBLISHED, functionName);
      }
      if (error instanceof RtcError) throw error;
      throw operationFailed(undefined, `${MESSAGE.SUBSCRIBE_FAILED}: ${(error as Error)?.message ?? String(error)}`, functionName, error);
    }
  }

  private _checkStillPublished(user: RemoteUser, streamType: StreamType, functionName: string): void {
    const published = this._users.get(user.userId) === user && (streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary);
    if (!published) throw operationAbort(MESSAGE.STREAM_UNPUBLISHED, functionName);
  }

  private _remoteWithStream(userId: string, streamType: StreamType, functionName: string): RosterUser {
    if (!this._ctx.joined()) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() first', functionName);
    const user = this._users.get(userId);
    if (!user) throw invalidOperation(EXTRA_CODE.REMOTE_USER_NOT_EXIST, `remote user '${userId}' is not in the room`, functionName);
    const available = streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary;
    if (!available) throw invalidOperation(EXTRA_CODE.STREAM_TYPE_NOT_EXIST, `remote user '${userId}' does not publish the ${streamType} stream`, functionName);
    return user;
  }
}
