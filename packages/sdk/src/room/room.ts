import {
  encodeFlag, LIMITS, ROLE_CODE, SCENE_CODE, TERMINAL_TYPE,
  type PeerInfo, type PushMap,
} from '@conclave/protocol';
import { StateMachine } from '../common/state-machine.js';
import { ScheduleCache } from '../schedule/schedule-cache.js';
import { buildBusinessInfo, resolveProxy, type ResolvedProxy } from '../validate/enter-room.js';
import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import type { Emitter } from '../common/emitter.js';
import { withTimeout } from '../common/timeout.js';
import { ERROR_CODE, EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, MESSAGE, operationAbort, operationFailed, serverError } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { AudioPlayer } from '../playback/audio-player.js';
import { VideoPlayer } from '../playback/video-player.js';
import { fetchSchedule, ScheduleRefused, type Schedule } from '../schedule/schedule.js';
import { reconnectDelayMs } from '../signal/backoff.js';
import { SignalChannel, SignalChannelError, SignalReplyError } from '../signal/signal-channel.js';
import { Downlink } from '../transport/downlink.js';
import { Uplink, type UplinkSlot } from '../transport/uplink.js';
import type { ConnectionState, EnterRoomConfig, TRTCEventTypes } from '../types.js';
import type { RoomTarget } from '../validate/enter-room.js';
import { RemoteUser, type VideoRequest } from './remote-user.js';

/** Room states (SPEC §4). */
export type RoomState = 'initial' | 'joining' | 'joined' | 'left';

export const SDK_VERSION = '5.10.1';

/** What the local side publishes, by uplink slot. */
export interface LocalSlot {
  track: MediaStreamTrack;
  bitrate?: number;
  muted: boolean;
}

/** Peer-connection connecting time-out (SPEC §9). */
const PC_CONNECT_TIMEOUT_MS = 10_000;
/** Connection time-outs with signalling up that indicate a firewall (SPEC §8). */
const FIREWALL_TIMEOUTS = 3;
/** More media reconnections than this and the relay may have failed: rejoin (SPEC §4). */
const MAX_MEDIA_RECONNECTIONS = 6;

/** A join failure not worth retrying: the server refused (auth, parameters, room full…). */
const isRefusal = (error: unknown) => error instanceof ScheduleRefused || error instanceof SignalReplyError || error instanceof RtcError;

/**
 * One room session: scheduling, signalling, the uplink, and the remote users with their
 * downlinks and players. The TRTC class validates calls; this class carries them out.
 */
export class Room {
  readonly machine = new StateMachine<RoomState>('initial');
  readonly #events: Emitter<TRTCEventTypes>;
  readonly #scheduleCache = new ScheduleCache();
  #config: EnterRoomConfig | undefined;
  #target: RoomTarget | undefined;
  #proxy: ResolvedProxy = { turnServers: [] };
  #signal: SignalChannel | undefined;
  #schedule: Schedule | undefined;
  #uplink: Uplink | undefined;
  #connectionState: ConnectionState = 'DISCONNECTED';
  readonly #remotes = new Map<string, RemoteUser>();
  readonly #local: Partial<Record<UplinkSlot, LocalSlot>> = {};
  #flagQueue: Promise<void> = Promise.resolve();
  #abortJoin: ((error: RtcError) => void) | undefined;
  #joining: Promise<void> | undefined;
  #sessionToken: string | undefined;
  #reconnecting: Promise<void> | undefined;
  readonly #wakeSleepers = new Set<() => void>();
  readonly #pendingExits = new Map<string, ReturnType<typeof setTimeout>>();
  #mediaReconnections = 0;
  #connectTimeouts = 0;
  role: 'anchor' | 'audience' = 'anchor';
  scene: 'rtc' | 'live' = 'rtc';
  userId = '';

  constructor(events: Emitter<TRTCEventTypes>) {
    this.#events = events;
  }

  get state(): RoomState {
    return this.machine.state;
  }

  get remoteUsers(): ReadonlyMap<string, RemoteUser> {
    return this.#remotes;
  }

  /** The last scheduling result (for 2k/4k permission and the like). */
  get schedule(): Schedule | undefined {
    return this.#schedule;
  }

  get iceServers(): RTCIceServer[] {
    const servers: RTCIceServer[] = [...(this.#schedule?.iceServers ?? [])];
    for (const turn of this.#proxy.turnServers) servers.push({ urls: turn.url, username: turn.username, credential: turn.credential });
    return servers;
  }

  get #iceTransportPolicy(): RTCIceTransportPolicy {
    return this.#proxy.iceTransportPolicy ?? this.#schedule?.iceTransportPolicy ?? 'all';
  }

  #setConnectionState(state: ConnectionState): void {
    const prevState = this.#connectionState;
    if (prevState === state) return;
    this.#connectionState = state;
    this.#events.emit('connection-state-changed', { prevState, state });
  }

  /**
   * Joins (SPEC §4): schedule, connect, join, within the join time-out. A failure that is not a
   * server refusal is retried once after a reset, with a fresh schedule and a fresh channel.
   */
  async join(config: EnterRoomConfig, target: RoomTarget): Promise<void> {
    this.machine.set('joining');
    this.#config = config;
    this.#target = target;
    this.#proxy = resolveProxy(config.proxy);
    this.userId = config.userId;
    this.scene = config.scene ?? 'rtc';
    this.role = this.scene === 'live' ? (config.role ?? 'anchor') : 'anchor';
    this.#setConnectionState('CONNECTING');
    const aborted = new Promise<never>((_, reject) => {
      this.#abortJoin = reject;
    });
    const attempt = async () => {
      try {
        return await this.#joinOnce(config, target, true);
      } catch (error) {
        if (isRefusal(error) || this.machine.state !== 'joining') throw error;
        log.warn('join failed, retrying with a fresh schedule:', error);
        this.#resetConnection();
        return this.#joinOnce(config, target, false);
      }
    };
    const joining = Promise.race([attempt(), aborted]);
    this.#joining = joining.then(() => undefined);
    try {
      const { peers } = await joining;
      this.machine.set('joined');
      this.#setConnectionState('CONNECTED');
      this.#addPeers(peers);
    } catch (error) {
      this.#teardown();
      this.machine.set('left');
      this.#setConnectionState('DISCONNECTED');
      throw this.#joinError(error);
    } finally {
      this.#abortJoin = undefined;
      this.#joining = undefined;
    }
  }

  #joinError(error: unknown): RtcError {
    if (error instanceof RtcError) return error;
    if (error instanceof ScheduleRefused || error instanceof SignalReplyError) {
      return serverError(error.code, error.message, 'enterRoom');
    }
    if (error instanceof SignalChannelError && error.reason === 'timeout') {
      return new RtcError({ code: ERROR_CODE.OPERATION_FAILED, message: MESSAGE.JOIN_TIMEOUT, functionName: 'enterRoom', originError: error });
    }
    return new RtcError({ code: ERROR_CODE.SERVER_ERROR, message: `join room failed: ${(error as Error)?.message ?? String(error)}`, functionName: 'enterRoom', originError: error });
  }

  /** Base URL of scheduling: the proxy's, else the SDK's own server. */
  get #scheduleBase(): string {
    return this.#proxy.scheduleBase ?? DEFAULT_SERVER_ORIGIN;
  }

  async #getSchedule(config: EnterRoomConfig, target: RoomTarget, useCache: boolean): Promise<Schedule> {
    const key = ScheduleCache.key(this.#scheduleBase, config.sdkAppId, config.userId);
    const cached = useCache ? this.#scheduleCache.get(key) : undefined;
    if (cached) return cached;
    const schedule = await fetchSchedule(this.#scheduleBase, {
      sdkAppId: config.sdkAppId, userId: config.userId, userSig: config.userSig,
      roomId: target.roomId, isStringRoomId: target.isString, sdkVersion: SDK_VERSION,
      ...(this.scene === 'live' ? { role: this.role } : {}),
    });
    this.#scheduleCache.set(key, schedule);
    return schedule;
  }

  /**
   * Users already in the room: announced once joined, so an app may call startRemoteVideo from
   * their remote-video-available events.
   */
  #addPeers(peers: PeerInfo[]): void {
    for (const peer of peers) this.#onPeerJoin(peer);
    this.#onPublishList({ userList: peers });
  }

  /** One join attempt; resolves to the users already in the room and whether the earlier session was resumed. */
  async #joinOnce(config: EnterRoomConfig, target: RoomTarget, useCache: boolean, resumeToken?: string): Promise<{ peers: PeerInfo[]; resumed: boolean }> {
    const schedule = await this.#getSchedule(config, target, useCache);
    this.#schedule = schedule;
    const signal = new SignalChannel(this.#proxy.websocketUrl ?? schedule.domains.main);
    this.#signal = signal;
    this.#listen(signal);
    await signal.connect();
    const seconds = schedule.config.enterRoomTimeout ?? 0;
    const timeoutMs = seconds >= 1 ? seconds * 1000 : LIMITS.JOIN_TIMEOUT_MS;
    const reply = await withTimeout(signal.request('join', {
      sdkAppId: config.sdkAppId,
      userId: config.userId,
      userSig: config.userSig,
      roomId: target.roomId,
      useStringRoomId: target.isString,
      privateMapKey: config.privateMapKey,
      latencyLevel: config.latencyLevel,
      trtcRole: this.role === 'audience' ? ROLE_CODE.audience : ROLE_CODE.anchor,
      trtcScene: this.scene === 'live' ? SCENE_CODE.live : SCENE_CODE.rtc,
      businessInfo: buildBusinessInfo(config),
      version: SDK_VERSION,
      ua: typeof navigator !== 'undefined' ? navigator.userAgent.slice(0, 512) : '',
      terminalType: TERMINAL_TYPE,
      ...(resumeToken ? { resumeToken } : {}),
    }, timeoutMs), timeoutMs, () => new SignalChannelError(MESSAGE.JOIN_TIMEOUT, 'timeout'));
    this.#sessionToken = reply.sessionToken;
    return { peers: reply.userList, resumed: reply.resumed };
  }

  #listen(signal: SignalChannel): void {
    signal.on('peer-join', (peer) => this.#onPeerJoin(peer));
    signal.on('peer-leave', ({ userId }) => this.#onPeerLeave(userId));
    signal.on('publish-list', (list) => this.#onPublishList(list));
    signal.on('banned', (data) => this.#onBanned(data));
    signal.on('lost', (reason) => {
      if (signal !== this.#signal) return;
      log.warn('signal channel lost:', reason);
      this.#startReconnect();
    });
  }

  // ---- reconnection (SPEC §4) ----

  /** The signalling channel is gone while in the room: reconnect with back-off, resuming the session. */
  #startReconnect(): void {
    if (this.machine.state !== 'joined' || this.#reconnecting) return;
    this.#signal?.close();
    this.#signal = undefined;
    this.#setConnectionState('RECONNECTING');
    this.#reconnecting = this.#reconnect().finally(() => {
      this.#reconnecting = undefined;
    });
  }

  async #reconnect(): Promise<void> {
    const config = this.#config;
    const target = this.#target;
    if (!config || !target) return;
    for (let attempt = 1; attempt <= LIMITS.RECONNECT_ATTEMPTS; attempt++) {
      await this.#sleep(reconnectDelayMs(attempt));
      if (this.machine.state !== 'joined') return;
      try {
        // RECONNECTING → CONNECTING is not announced (SPEC §4); the next announcement is the outcome.
        const { peers, resumed } = await this.#joinOnce(config, target, attempt === 1, this.#sessionToken);
        if (this.machine.state !== 'joined') return;
        this.#setConnectionState('CONNECTED');
        log.info(resumed ? 'session resumed' : 'rejoined with a new session');
        await this.#afterReconnect(peers, resumed);
        return;
      } catch (error) {
        this.#signal?.close();
        this.#signal = undefined;
        log.warn(`reconnection attempt ${attempt} failed:`, error);
        if (error instanceof SignalReplyError || error instanceof ScheduleRefused) break; // the server refuses us now
      }
    }
    if (this.machine.state !== 'joined') return;
    this.#teardown();
    this.machine.set('left');
    this.#setConnectionState('DISCONNECTED');
    this.#events.emit('error', new RtcError({ code: ERROR_CODE.OPERATION_FAILED, message: MESSAGE.SIGNAL_RECONNECTION_FAILED }));
  }

  /** Waits, unless the room is left meanwhile. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakeSleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakeSleepers.add(wake);
    });
  }

  /**
   * Brings media back after the signalling channel returned. A resumed session kept its server-side
   * links, so only failed peer connections are rebuilt; a new session rebuilds everything. Users
   * missing from the new list get a grace period to come back before remote-user-exit.
   */
  async #afterReconnect(peers: PeerInfo[], resumed: boolean): Promise<void> {
    if (!resumed || this.#linkDead(this.#uplink?.peerConnection)) {
      this.#uplink?.close();
      this.#uplink = undefined;
    }
    for (const user of this.#remotes.values()) {
      if (!resumed || this.#linkDead(user.downlink?.peerConnection)) this.#closeRemote(user);
    }
    const present = new Set(peers.map((peer) => peer.userId));
    for (const user of [...this.#remotes.values()]) {
      if (!present.has(user.userId)) this.#scheduleExit(user.userId);
    }
    for (const peer of peers) this.#onPeerJoin(peer);
    this.#onPublishList({ userList: peers });
    await this.publishPending();
    for (const user of this.#remotes.values()) this.#syncSubscription(user).catch((error: unknown) => log.warn('resubscribe failed', error));
  }

  #linkDead(pc: RTCPeerConnection | undefined): boolean {
    return !pc || pc.connectionState === 'failed' || pc.connectionState === 'closed';
  }

  /** A user missing after our reconnection: it leaves unless it comes back within the grace period. */
  #scheduleExit(userId: string): void {
    if (this.#pendingExits.has(userId)) return;
    this.#pendingExits.set(userId, setTimeout(() => {
      this.#pendingExits.delete(userId);
      this.#onPeerLeave(userId);
    }, LIMITS.SESSION_GRACE_MS));
  }

  /** A peer connection failed: rebuild it through signalling (after too many, rejoin: SPEC §4 relay rule). */
  #onLinkFailed(kind: 'uplink' | 'downlink', user?: RemoteUser): void {
    if (this.machine.state !== 'joined') return;
    this.#mediaReconnections++;
    if (this.#mediaReconnections > MAX_MEDIA_RECONNECTIONS) {
      this.#mediaReconnections = 0;
      this.#rejoin().catch((error: unknown) => {
        this.#events.emit('error', operationFailed(EXTRA_CODE.REJOIN_FAILED, 'rejoin room failed', undefined, error));
      });
      return;
    }
    if (!this.#signal?.isOpen) return; // the signalling reconnection rebuilds it
    if (kind === 'uplink') {
      this.#uplink?.close();
      this.#uplink = undefined;
      this.publishPending().catch((error: unknown) => {
        this.#events.emit('error', operationFailed(undefined, 'uplink or downlink reconnection failed', undefined, error));
      });
    } else if (user && this.#remotes.get(user.userId) === user) {
      this.#closeRemote(user);
      this.#syncSubscription(user).catch((error: unknown) => {
        this.#events.emit('error', operationFailed(undefined, 'uplink or downlink reconnection failed', undefined, error));
      });
    }
  }

  /**
   * Watches a peer connection: 'failed' triggers a rebuild; a connection that never connects within
   * 10 s counts as a time-out, and three time-outs with signalling up mean a firewall (5501).
   */
  #watchLink(pc: RTCPeerConnection, kind: 'uplink' | 'downlink', user?: RemoteUser): void {
    const timer = setTimeout(() => {
      if (pc.connectionState === 'connected' || pc.connectionState === 'closed' || !this.#signal?.isOpen) return;
      this.#connectTimeouts++;
      if (this.#connectTimeouts === FIREWALL_TIMEOUTS) {
        this.#events.emit('error', operationFailed(EXTRA_CODE.FIREWALL_RESTRICTION, 'media connection timed out three times with signalling up: a firewall may block it, try another network'));
      }
      this.#onLinkFailed(kind, user);
    }, PC_CONNECT_TIMEOUT_MS);
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') {
        clearTimeout(timer);
        this.#mediaReconnections = 0;
      } else if (pc.connectionState === 'failed') {
        clearTimeout(timer);
        log.warn(`${kind} failed; rebuilding`);
        this.#onLinkFailed(kind, user);
      } else if (pc.connectionState === 'closed') {
        clearTimeout(timer);
      }
    });
  }

  /** Leaves: tells the server, closes every connection, stops remote playback. */
  async leave(): Promise<void> {
    if (this.machine.state === 'joining') {
      this.#abortJoin?.(operationAbort(MESSAGE.CONNECTION_ABORTED, 'enterRoom'));
    }
    const signal = this.#signal;
    if (signal?.isOpen && this.machine.state === 'joined') {
      await signal.request('leave', {}).catch(() => undefined);
    }
    this.#teardown();
    if (this.machine.state !== 'initial') this.machine.set('left');
    this.#setConnectionState('DISCONNECTED');
  }

  /** Closes the connections of a failed attempt so the retry starts clean. */
  #resetConnection(): void {
    for (const user of this.#remotes.values()) this.#closeRemote(user);
    this.#remotes.clear();
    this.#uplink?.close();
    this.#uplink = undefined;
    this.#signal?.close();
    this.#signal = undefined;
  }

  #teardown(): void {
    this.#resetConnection();
    for (const wake of [...this.#wakeSleepers]) wake();
    for (const timer of this.#pendingExits.values()) clearTimeout(timer);
    this.#pendingExits.clear();
  }

  #onBanned(data: PushMap['banned']): void {
    if (data.reason === 'user_time_out') {
      this.#rejoin().catch((error: unknown) => {
        this.#events.emit('error', operationFailed(EXTRA_CODE.REJOIN_FAILED, 'rejoin room failed', undefined, error));
      });
      return;
    }
    // A banned room is exited first, then the event is emitted (SPEC §4).
    this.#teardown();
    this.machine.set('left');
    this.#setConnectionState('DISCONNECTED');
    this.#events.emit('kicked-out', { reason: data.reason, message: data.message });
  }

  /** Joins again with the same settings, then republishes; remote streams resubscribe as flags arrive. */
  async #rejoin(): Promise<void> {
    const config = this.#config;
    const target = this.#target;
    if (!config || !target || this.machine.state !== 'joined') return;
    for (const user of [...this.#remotes.values()]) this.#onPeerLeave(user.userId);
    this.#resetConnection();
    this.machine.set('joining');
    this.#setConnectionState('CONNECTING');
    let peers: PeerInfo[];
    try {
      ({ peers } = await this.#joinOnce(config, target, false));
    } catch (error) {
      this.#teardown();
      this.machine.set('left');
      this.#setConnectionState('DISCONNECTED');
      throw error;
    }
    this.machine.set('joined');
    this.#setConnectionState('CONNECTED');
    this.#addPeers(peers);
    await this.publishPending();
  }

  /**
   * Switches role in the live scene (SPEC §6): to audience closes the uplink first; to anchor
   * publishes the local tracks that were waiting.
   */
  async switchRole(role: 'anchor' | 'audience', privateMapKey: string | undefined): Promise<void> {
    if (this.machine.state === 'joining') await this.#joining?.catch(() => undefined);
    const signal = this.#signal;
    if (this.machine.state !== 'joined' || !signal) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'switchRole can only be called while joining or joined', 'switchRole');
    if (role === this.role) return;
    const code = role === 'anchor' ? ROLE_CODE.anchor : ROLE_CODE.audience;
    try {
      if (role === 'audience') {
        this.#uplink?.close();
        this.#uplink = undefined;
        await signal.request('unpublish', {});
      }
      await signal.request('switch-role', { role: code, ...(privateMapKey ? { privateMapKey } : {}) });
    } catch (error) {
      throw operationFailed(undefined, `switch role failed: ${(error as Error).message}`, 'switchRole', error);
    }
    this.role = role;
    if (role === 'anchor') await this.publishPending();
  }

  // ---- remote users ----

  #onPeerJoin(peer: PeerInfo): void {
    if (peer.userId === this.userId) return;
    const pending = this.#pendingExits.get(peer.userId);
    const known = this.#remotes.get(peer.userId);
    if (pending !== undefined) {
      // Back within the grace period: the same user, silently, on a new session.
      clearTimeout(pending);
      this.#pendingExits.delete(peer.userId);
    }
    if (known) {
      if (pending !== undefined || known.tinyId !== peer.tinyId) {
        known.tinyId = peer.tinyId;
        this.#closeRemote(known);
        this.#syncSubscription(known).catch((error: unknown) => log.warn('resubscribe failed', error));
      }
      return;
    }
    const user = new RemoteUser(peer.userId, peer.tinyId);
    this.#remotes.set(peer.userId, user);
    this.#events.emit('remote-user-enter', { userId: peer.userId });
  }

  #onPeerLeave(userId: string): void {
    const user = this.#remotes.get(userId);
    if (!user) return;
    this.#applyFlag(user, 0);
    this.#closeRemote(user);
    this.#remotes.delete(userId);
    this.#events.emit('remote-user-exit', { userId });
  }

  #onPublishList(list: PushMap['publish-list']): void {
    for (const peer of list.userList) {
      const user = this.#remotes.get(peer.userId);
      if (user) this.#applyFlag(user, peer.flag);
    }
  }

  /** Applies a new flag and announces what became (un)available. */
  #applyFlag(user: RemoteUser, flag: number): void {
    const before = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable };
    user.flag = flag;
    const after = { audio: user.audioAvailable, video: user.videoAvailable, aux: user.auxAvailable };
    const userId = user.userId;
    const autoAudio = this.#config?.autoReceiveAudio ?? true;
    const autoVideo = this.#config?.autoReceiveVideo ?? false;
    if (before.audio !== after.audio) {
      user.wants.audio = after.audio && autoAudio;
      this.#events.emit(after.audio ? 'remote-audio-available' : 'remote-audio-unavailable', { userId });
    }
    if (before.video !== after.video) {
      if (!after.video) this.#stopVideoPlayer(user, 'main');
      user.wants.bigVideo = after.video && (autoVideo || user.videoRequests.main !== undefined);
      this.#events.emit(after.video ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'main' });
    }
    if (before.aux !== after.aux) {
      if (!after.aux) this.#stopVideoPlayer(user, 'sub');
      user.wants.auxVideo = after.aux && (autoVideo || user.videoRequests.sub !== undefined);
      this.#events.emit(after.aux ? 'remote-video-available' : 'remote-video-unavailable', { userId, streamType: 'sub' });
    }
    if (!after.audio) this.#stopAudioPlayer(user);
    this.#syncSubscription(user).catch((error: unknown) => {
      log.warn('subscription to', userId, 'failed:', error);
    });
  }

  /** Brings the server's subscription for `user` in line with what is wanted. Serialised per user. */
  #syncSubscription(user: RemoteUser): Promise<void> {
    const run = async () => {
      const signal = this.#signal;
      if (!signal || this.#remotes.get(user.userId) !== user) return;
      const wants = { ...user.wants };
      const data = { srcUserId: user.userId, audio: wants.audio, bigVideo: wants.bigVideo, smallVideo: false, auxVideo: wants.auxVideo };
      if (!user.wantsAnything) {
        if (user.downlink) {
          await signal.request('unsubscribe', { srcUserId: user.userId }).catch(() => undefined);
          this.#closeRemote(user);
        }
        return;
      }
      if (!user.downlink) {
        const downlink = new Downlink(this.iceServers, this.#iceTransportPolicy, ({ slot, track }) => this.#onRemoteTrack(user, slot, track));
        user.downlink = downlink;
        this.#watchLink(downlink.peerConnection, 'downlink', user);
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
    this.#events.emit('track', { userId: user.userId, ...(slot === 'audio' ? {} : { streamType: slot === 'video' ? 'main' : 'sub' }), track, sourceTrack: track });
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

  #closeRemote(user: RemoteUser): void {
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
    await this.#syncSubscription(user).catch((error: unknown) => {
      throw new RtcError({ code: ERROR_CODE.OPERATION_FAILED, message: `${MESSAGE.SUBSCRIBE_FAILED}: ${(error as Error).message}`, functionName: 'startRemoteVideo', originError: error });
    });
  }

  /** Stops receiving and rendering a remote video ('*' for every user). */
  async stopRemoteVideo(userId: string, streamType: 'main' | 'sub' | undefined): Promise<void> {
    const users = userId === '*' ? [...this.#remotes.values()] : [this.#remotes.get(userId)].filter((u): u is RemoteUser => !!u);
    await Promise.all(users.map((user) => {
      for (const type of streamType ? [streamType] : (['main', 'sub'] as const)) {
        this.#stopVideoPlayer(user, type);
        user.videoRequests[type] = undefined;
        if (type === 'main') user.wants.bigVideo = false;
        else user.wants.auxVideo = false;
      }
      return this.#syncSubscription(user).catch(() => undefined);
    }));
  }

  /** Changes a playing remote video's view, fill mode or mirror. */
  updateRemoteVideo(userId: string, streamType: 'main' | 'sub', change: Partial<VideoRequest>): void {
    const user = this.#remotes.get(userId);
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
    const users = userId === '*' ? [...this.#remotes.values()] : [this.#remotes.get(userId)].filter((u): u is RemoteUser => !!u);
    for (const user of users) {
      user.volume = volume;
      user.audioPlayer?.setVolume(volume / 100);
    }
  }

  /** Mutes or unmutes a remote user's audio ('*' for all). */
  muteRemoteAudio(userId: string, mute: boolean): void {
    const users = userId === '*' ? [...this.#remotes.values()] : [this.#remotes.get(userId)].filter((u): u is RemoteUser => !!u);
    for (const user of users) {
      user.audioMuted = mute;
      user.audioPlayer?.setMuted(mute);
    }
  }

  #remoteWithStream(userId: string, streamType: 'main' | 'sub', functionName: string): RemoteUser {
    if (this.machine.state !== 'joined') throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() first', functionName);
    const user = this.#remotes.get(userId);
    if (!user) throw invalidOperation(EXTRA_CODE.REMOTE_USER_NOT_EXIST, `remote user '${userId}' is not in the room`, functionName);
    const available = streamType === 'main' ? user.state.hasVideo : user.state.hasAuxiliary;
    if (!available) throw invalidOperation(EXTRA_CODE.STREAM_TYPE_NOT_EXIST, `remote user '${userId}' does not publish the ${streamType} stream`, functionName);
    return user;
  }

  // ---- publishing ----

  /** Puts (or clears) a local track on an uplink slot and tells the server the new flags. */
  async setLocalTrack(slot: UplinkSlot, local: LocalSlot | undefined): Promise<void> {
    if (local) this.#local[slot] = local;
    else delete this.#local[slot];
    if (this.machine.state !== 'joined') return;
    await this.#applyLocal(slot);
  }

  /** After joining (or a role switch to anchor), publishes whatever is captured. */
  async publishPending(): Promise<void> {
    if (this.machine.state !== 'joined' || !this.canPublish) return;
    await Promise.all((Object.keys(this.#local) as UplinkSlot[]).map((slot) => this.#applyLocal(slot)));
  }

  get canPublish(): boolean {
    return !(this.scene === 'live' && this.role === 'audience');
  }

  async #applyLocal(slot: UplinkSlot): Promise<void> {
    const signal = this.#signal;
    if (!signal || !this.canPublish) return;
    const local = this.#local[slot];
    if (!local && Object.keys(this.#local).length === 0) {
      // Nothing left to send: close the uplink (SPEC §4); the server clears our flags.
      if (this.#uplink) {
        this.#uplink.close();
        this.#uplink = undefined;
        await signal.request('unpublish', {});
      }
      return;
    }
    if (local && !this.#uplink) {
      this.#uplink = new Uplink(this.iceServers, this.#iceTransportPolicy);
      this.#watchLink(this.#uplink.peerConnection, 'uplink');
    }
    const uplink = this.#uplink;
    if (!uplink) return;
    await uplink.setTrack(slot, local && !local.muted ? local.track : null, local?.bitrate);
    await uplink.connect(async (offer) => (await signal.request('publish', { sdp: offer })).sdp);
    await this.#sendFlag();
  }

  /** Replaces the track of a published slot without renegotiation (device switch). */
  async replaceLocalTrack(slot: UplinkSlot, track: MediaStreamTrack): Promise<void> {
    const local = this.#local[slot];
    if (!local) return;
    local.track = track;
    await this.#uplink?.setTrack(slot, track, local.bitrate);
  }

  /** Changes the mute flag of a local slot; a muted slot sends nothing. */
  async setLocalMuted(slot: UplinkSlot, muted: boolean): Promise<void> {
    const local = this.#local[slot];
    if (!local || local.muted === muted) return;
    local.muted = muted;
    if (this.machine.state !== 'joined' || !this.canPublish) return;
    await this.#uplink?.setTrack(slot, muted ? null : local.track, local.bitrate);
    await this.#sendFlag();
  }

  /** The sender of a published slot, for stats and parameters. */
  uplinkPeerConnection(): RTCPeerConnection | undefined {
    return this.#uplink?.peerConnection;
  }

  /** Sends our current publish flags (serialised so they arrive in order). */
  #sendFlag(): Promise<void> {
    const run = async () => {
      const flag = encodeFlag({
        hasAudio: !!this.#local.audio,
        audioMuted: !!this.#local.audio?.muted,
        hasVideo: !!this.#local.video,
        videoMuted: !!this.#local.video?.muted,
        hasAuxiliary: !!this.#local.aux,
        auxMuted: !!this.#local.aux?.muted,
      });
      await this.#signal?.request('mute-flag', { flag });
    };
    this.#flagQueue = this.#flagQueue.then(run, run);
    return this.#flagQueue;
  }
}
