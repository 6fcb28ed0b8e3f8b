import type { PeerInfo, PushMap } from '@conclave/protocol';
import { ERROR_CODE, EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, MESSAGE } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { AudioPlayer } from '../playback/audio-player.js';
import { VideoPlayer } from '../playback/video-player.js';
import { Downlink } from '../transport/downlink.js';
import { RemoteUser, type VideoRequest } from './remote-user.js';
import type { RoomContext } from './room-context.js';

/**
 * The other users of the room: their publish flags and the events these give, what the app asked to
 * receive of them, their downlinks and players. Users missing after a reconnection get a grace period
 * before remote-user-exit, so a quick return is seamless.
 */
export class RemoteUsers {
  readonly #ctx: RoomContext;
  readonly #users = new Map<string, RemoteUser>();
  readonly #pendingExits = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(ctx: RoomContext) {
    this.#ctx = ctx;
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
    for (const user of this.#users.values()) this.closeRemote(user);
    this.#users.clear();
    for (const timer of this.#pendingExits.values()) clearTimeout(timer);
    this.#pendingExits.clear();
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
    this.#users.set(peer.userId, user);
    this.#ctx.events.emit('remote-user-enter', { userId: peer.userId });
  }

  /** A user left: its streams become unavailable, then remote-user-exit. */
  onPeerLeave(userId: string): void {
    const user = this.#users.get(userId);
    if (!user) return;
    this.#applyFlag(user, 0);
    this.closeRemote(user);
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
    const before = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable };
    user.flag = flag;
    const after = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable };
    const userId = user.userId;
    const autoAudio = this.#ctx.config()?.autoReceiveAudio ?? true;
    const autoVideo = this.#ctx.config()?.autoReceiveVideo ?? false;
    if (before.audio !== after.audio) {
      user.wants.audio = after.audio && autoAudio;
      this.#ctx.events.emit(after.audio ? 'remote-audio-available' : 'remote-audio-unavailable', { userId });
    }
    if (before.video !== after.video) {
      if (!after.video) this.#stopVideoPlayer(user, 'main');
      user.wants.bigVideo = after.video && (autoVideo || user.videoRequests.main !== undefined);
      this.#ctx.events.emit(after.video ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'main' });
    }
    if (before.aux !== after.aux) {
      if (!after.aux) this.#stopVideoPlayer(user, 'sub');
      user.wants.auxVideo = after.aux && (autoVideo || user.videoRequests.sub !== undefined);
      this.#ctx.events.emit(after.aux ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'sub' });
    }
    if (!after.audio) this.#stopAudioPlayer(user);
    this.syncSubscription(user).catch((error: unknown) => {
      log.warn('subscription to', userId, 'failed:', error);
    });
  }

  /** Brings the server's subscription for `user` in line with what is wanted. Serialised per user. */
  syncSubscription(user: RemoteUser): Promise<void> {
    const run = async () => {
      const signal = this.#ctx.signal();
      if (!signal || this.#users.get(user.userId) !== user) return;
      const wants = { ...user.wants };
      const data = { srcUserId: user.userId, audio: wants.audio, bigVideo: wants.bigVideo, smallVideo: false, auxVideo: wants.auxVideo };
      if (!user.wantsAnything) {
        if (user.downlink) {
          await signal.request('unsubscribe', { srcUserId: user.userId }).catch(() => undefined);
          this.closeRemote(user);
        }
        return;
      }
      if (!user.downlink) {
        const downlink = new Downlink(this.#ctx.iceServers(), this.#ctx.iceTransportPolicy(), ({ slot, track }) => this.#onRemoteTrack(user, slot, track));
        user.downlink = downlink;
        this.#ctx.watchLink(downlink.peerConnection, 'downlink', user);
        const { sdp } = await signal.request('subscribe', data);
        const answer = await downlink.answer(sdp);
        await signal.request('subscribe-answer', { srcUserId: user.userId, sdp: answer });
      } else if (!user.sent || user.sent.audio !== wants.audio || user.sent.bigVideo !== wants.bigVideo || user.sent.auxVideo !== wants.auxVideo) {
        await signal.request('subscribe-change', data);
      }
      user.sent = wants;
      this.#refreshPlayers(user);
    };
    user.queue = user.queue.then(run, run);
    return user.queue;
  }

  #onRemoteTrack(user: RemoteUser, slot: 'audio' | 'video' | 'aux', track: MediaStreamTrack): void {
    this.#ctx.events.emit('track', { userId: user.userId, ...(slot === 'audio' ? {} : { streamType: slot === 'video' ? 'main' : 'sub' }), track, sourceTrack: track });
    this.#refreshPlayers(user);
  }

  /** Creates players for tracks that are wanted and present; removes unwanted ones. */
  #refreshPlayers(user: RemoteUser): void {
    const tracks = user.downlink?.tracks ?? {};
    if (user.wants.audio && tracks.audio && !user.audioPlayer) {
      user.audioPlayer = new AudioPlayer(tracks.audio);
      user.audioPlayer.setMuted(user.audioMuted);
      user.audioPlayer.setVolume(user.volume / 100);
    }
    for (const streamType of ['main', 'sub'] as const) {
      const track = streamType === 'main' ? tracks.video : tracks.aux;
      const request = user.videoRequests[streamType];
      if (track && request && !user.videoPlayers[streamType]) {
        user.videoPlayers[streamType] = new VideoPlayer(track, request.views, { fillMode: request.fillMode, mirror: request.mirror });
      }
    }
  }

  #stopAudioPlayer(user: RemoteUser): void {
    user.audioPlayer?.stop();
    user.audioPlayer = undefined;
  }

  #stopVideoPlayer(user: RemoteUser, streamType: 'main' | 'sub'): void {
    user.videoPlayers[streamType]?.stop();
    user.videoPlayers[streamType] = undefined;
  }

  /** Closes a user's downlink and players; what the app asked for (views, wants) is kept for a resubscription. */
  closeRemote(user: RemoteUser): void {
    this.#stopAudioPlayer(user);
    this.#stopVideoPlayer(user, 'main');
    this.#stopVideoPlayer(user, 'sub');
    user.downlink?.close();
    user.downlink = undefined;
    user.sent = undefined;
  }

  /** Starts receiving and rendering a remote video (startRemoteVideo). */
  async startRemoteVideo(userId: string, streamType: 'main' | 'sub', request: VideoRequest): Promise<void> {
    const user = this.#remoteWithStream(userId, streamType, 'startRemoteVideo');
    this.#stopVideoPlayer(user, streamType);
    user.videoRequests[streamType] = request;
    if (streamType === 'main') user.wants.bigVideo = true;
    else user.wants.auxVideo = true;
    await this.syncSubscription(user).catch((error: unknown) => {
      throw new RtcError({ code: ERROR_CODE.OPERATION_FAILED, message: `${MESSAGE.SUBSCRIBE_FAILED}: ${(error as Error).message}`, functionName: 'startRemoteVideo', originError: error });
    });
  }

  /** Stops receiving and rendering a remote video ('*' for every user). */
  async stopRemoteVideo(userId: string, streamType: 'main' | 'sub' | undefined): Promise<void> {
    const users = userId === '*' ? [...this.#users.values()] : [this.#users.get(userId)].filter((u): u is RemoteUser => !!u);
    await Promise.all(users.map((user) => {
      for (const type of streamType ? [streamType] : (['main', 'sub'] as const)) {
        this.#stopVideoPlayer(user, type);
        user.videoRequests[type] = undefined;
        if (type === 'main') user.wants.bigVideo = false;
        else user.wants.auxVideo = false;
      }
      return this.syncSubscription(user).catch(() => undefined);
    }));
  }

  /** Changes a playing remote video's view, fill mode or mirror. */
  updateRemoteVideo(userId: string, streamType: 'main' | 'sub', change: Partial<VideoRequest>): void {
    const user = this.#users.get(userId);
    const request = user?.videoRequests[streamType];
    if (!user || !request) throw invalidOperation(undefined, `the ${streamType} video of '${userId}' is not started; call startRemoteVideo first`, 'updateRemoteVideo');
    const next: VideoRequest = {
      views: change.views ?? request.views,
      fillMode: change.fillMode ?? request.fillMode,
      mirror: change.mirror ?? request.mirror,
    };
    user.videoRequests[streamType] = next;
    user.videoPlayers[streamType]?.update({ fillMode: next.fillMode, mirror: next.mirror }, change.views);
  }

  /** Sets remote playback volume, 0–100 ('*' for all); the value is kept for players created later. */
  setRemoteAudioVolume(userId: string, volume: number): void {
    const users = userId === '*' ? [...this.#users.values()] : [this.#users.get(userId)].filter((u): u is RemoteUser => !!u);
    for (const user of users) {
      user.volume = volume;
      user.audioPlayer?.setVolume(volume / 100);
    }
  }

  /** Mutes or unmutes a remote user's audio ('*' for all). */
  muteRemoteAudio(userId: string, mute: boolean): void {
    const users = userId === '*' ? [...this.#users.values()] : [this.#users.get(userId)].filter((u): u is RemoteUser => !!u);
    for (const user of users) {
      user.audioMuted = mute;
      user.audioPlayer?.setMuted(mute);
    }
  }

  #remoteWithStream(userId: string, streamType: 'main' | 'sub', functionName: string): RemoteUser {
    if (!this.#ctx.joined()) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() first', functionName);
    const user = this.#users.get(userId);
    if (!user) throw invalidOperation(EXTRA_CODE.REMOTE_USER_NOT_EXIST, `remote user '${userId}' is not in the room`, functionName);
    const available = streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary;
    if (!available) throw invalidOperation(EXTRA_CODE.STREAM_TYPE_NOT_EXIST, `remote user '${userId}' does not publish the ${streamType} stream`, functionName);
    return user;
  }
}
