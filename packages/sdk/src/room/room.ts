import { Preconnection, type PreconnectIdentity } from './preconnect.js';
import type { PushMap } from '@conclave/protocol';
import { StateMachine } from '../common/state-machine.js';
import { resolveProxy, type ResolvedProxy } from '../validate/enter-room.js';
import type { Emitter } from '../common/emitter.js';
import { ERROR_CODE } from '../constants/error-code.js';
import { MESSAGE, operationAbort } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';
import { ScheduleRefused, type Schedule } from '../schedule/schedule.js';
import { SignalReplyError, type SignalChannel } from '../signal/signal-channel.js';
import { healthUrlOf, probeServer } from '../signal/server-probe.js';
import type { EnterRoomConfig, TRTCEventTypes } from '../types.js';
import type { RoomTarget } from '../validate/enter-room.js';
import type { SwitchRoomTarget } from '../validate/switch-room.js';
import { CustomMessages } from '../messages/custom-messages.js';
import { DataLinkSession } from './data-link-session.js';
import { LinkWatcher } from './link-watcher.js';
import { Publisher } from './publisher.js';
import { Reconnector, type ReconnectPolicy } from './reconnector.js';
import { ReconnectFlow } from './reconnect-flow.js';
import { ConnectionStates } from './connection-state.js';
import { isRefusal, joinError } from './join-request.js';
import { JoinAttempts } from './join-attempt.js';
import { switchRole, type SwitchRoleOption } from './role-switch.js';
import { switchRoom } from './switch-room-flow.js';
import type { RemoteUser } from './remote-user.js';
import { RemoteUsers } from './remote-users.js';
import { RoomAdaptation } from './adaptation-wiring.js';
import type { PressureMonitor, PressureState } from '../adaptation/pressure.js';
import { preferTurnTcp } from '../adaptation/relay-switch.js';
import type { RoomContext } from './room-context.js';
import { FramePipes } from '../transport/frame-pipes.js';
import { listenToSignal } from './signal-listeners.js';
import { AudienceCount } from './audience-count.js';

/** Room states (docs/behaviour.md §4). */
export type RoomState = 'initial' | 'joining' | 'joined' | 'left';

export { SDK_VERSION } from './join-attempt.js';

/**
 * One room session: scheduling, signalling, the uplink, and the remote users with their
 * downlinks and players. The TRTC class validates calls; this class carries them out.
 */
export class Room {
  readonly machine = new StateMachine<RoomState>('initial');
  private readonly _events: Emitter<TRTCEventTypes>;
  /** What callExperimentalAPI('preconnect') warmed for the next join. */
  readonly preconnection = new Preconnection();
  private _config: EnterRoomConfig | undefined;
  private _target: RoomTarget | undefined;
  private _proxy: ResolvedProxy = { turnServers: [] };
  private _signal: SignalChannel | undefined;
  private _schedule: Schedule | undefined;
  /** Scheduling, the signalling channel and the join request of each attempt (join-attempt.ts). */
  private readonly _joins: JoinAttempts;
  /** connection-state-changed (connection-state.ts). */
  readonly connection: ConnectionStates;
  /** The other users of the room (a live room's audience is hidden: docs/behaviour.md §3.5). */
  readonly remotes: RemoteUsers;
  /** How many audience members the room has (Conclave extension: audience-count-changed). */
  readonly audience: AudienceCount;
  /** What this user publishes. */
  readonly publisher: Publisher;
  /** Custom messages, on the data link. */
  readonly messages: CustomMessages;
  private readonly _dataLink: DataLinkSession;
  /** The encoded-frame pipes of the links: SEI and a plugin's frame cipher. */
  readonly frames = new FramePipes();
  private _abortJoin: ((error: RtcError) => void) | undefined;
  private _joining: Promise<void> | undefined;
  private _sessionToken: string | undefined;
  private readonly _reconnector: Reconnector;
  private readonly _links: LinkWatcher;
  /** Reconnection, link rebuilds and rejoins (reconnect-flow.ts). */
  private readonly _flow: ReconnectFlow;
  /** Relay switching, encode health and CPU pressure (docs/behaviour.md §4). */
  private readonly _adaptation: RoomAdaptation;
  /** Hears every CPU pressure change (the decoder's downgrade floor is wired here). */
  onPressure: ((state: PressureState) => void) | undefined;
  role: 'anchor' | 'audience' = 'anchor';
  scene: 'rtc' | 'live' = 'rtc';
  userId = '';

  /** @param reconnectPolicy when to retry after signalling is lost (default: docs/behaviour.md §4's Fibonacci back-off). */
  constructor(events: Emitter<TRTCEventTypes>, reconnectPolicy?: ReconnectPolicy) {
    this._events = events;
    this.connection = new ConnectionStates(events);
    this.audience = new AudienceCount(events);
    this._reconnector = new Reconnector({
      active: () => this.machine.state === 'joined',
      attempt: (attempt, serverAnswered) => this._flow.once(attempt, serverAnswered),
      attemptFailed: (error, attempt) => {
        this.connection.attemptFailed();
        this._dropSignal();
        log.warn(`reconnection attempt ${attempt} failed:`, error);
      },
      isFatal: (error) => error instanceof SignalReplyError || error instanceof ScheduleRefused,
      probe: () => {
        const url = healthUrlOf(this._proxy.websocketUrl ?? this._schedule?.domains.main ?? '');
        return url ? probeServer(url) : Promise.resolve(false);
      },
      checkAlive: () => this._signal?.checkAlive(),
      gaveUp: () => {
        this._end();
        this._events.emit('error', new RtcError({ code: ERROR_CODE.OPERATION_FAILED, message: MESSAGE.SIGNAL_RECONNECTION_FAILED }));
      },
    }, reconnectPolicy);
    this._links = new LinkWatcher({
      joined: () => this.machine.state === 'joined',
      signalOpen: () => this._signal?.isOpen === true,
      emitError: (error) => this._events.emit('error', error),
      rebuild: (kind) => this._flow.rebuildLink(kind),
      rejoin: () => this._flow.rejoinReporting(),
      relayFailed: () => this._adaptation.relay.linkFailed(),
    });
    this._joins = new JoinAttempts({
      preconnection: this.preconnection,
      proxy: () => this._proxy,
      role: () => this.role,
      scene: () => this.scene,
      scheduled: (schedule) => {
        this._schedule = schedule;
      },
      attach: (signal) => {
        this._signal = signal;
        this._listen(signal);
      },
      dropSignal: () => this._dropSignal(),
      joined: (sessionToken, audienceCount, clientIp) => {
        this._sessionToken = sessionToken;
        this.audience.set(audienceCount);
        this._adaptation.relay.joined(clientIp);
      },
    });
    const ctx: RoomContext = {
      events,
      signal: () => this._signal,
      config: () => this._config,
      joined: () => this.machine.state === 'joined',
      userId: () => this.userId,
      iceServers: () => this.iceServers,
      iceTransportPolicy: () => this._iceTransportPolicy,
      watchLink: (pc, kind, user) => this._links.watch(pc, kind, user),
      encoded: () => this.frames.hooks(),
      e2ee: () => this.frames.ciphered(),
    };
    this.remotes = new RemoteUsers(ctx);
    this.publisher = new Publisher(ctx, () => this.canPublish);
    // Truthy, as the original reads it (unset values were dropped by lenientEnterRoom).
    this.publisher.preferHW = () => Boolean(this._config?.preferHW) || this._schedule?.config.preferHW === true;
    this._adaptation = new RoomAdaptation({
      publisher: this.publisher,
      subscriptions: this.remotes.subscriptions,
      onPressure: (state) => this.onPressure?.(state),
      schedule: () => this._schedule,
      iceServers: () => this.iceServers,
      relayImposed: () => this._imposedPolicy === 'relay',
      signal: () => this._signal,
      events,
      uplink: () => this.publisher.peerConnection,
      downlink: () => this.remotes.subscriptions.peerConnection,
      rebuild: () => this._flow.rebuildAll(),
    });
    this.messages = new CustomMessages({
      events,
      userIdOf: (tinyId) => [...this.remotes.map.values()].find((user) => user.tinyId === tinyId)?.userId,
      link: () => this._dataLink.link,
    });
    this._dataLink = new DataLinkSession({
      signal: () => this._signal,
      joined: () => this.machine.state === 'joined',
      iceServers: () => this.iceServers,
      iceTransportPolicy: () => this._iceTransportPolicy,
      receive: (data) => this.messages.receive(data),
    });
    this._flow = new ReconnectFlow({
      machine: this.machine,
      events,
      publisher: this.publisher,
      remotes: this.remotes,
      dataLink: this._dataLink,
      adaptation: () => this._adaptation,
      reconnector: () => this._reconnector,
      config: () => this._config,
      target: () => this._target,
      sessionToken: () => this._sessionToken,
      signalOpen: () => this._signal?.isOpen === true,
      dropSignal: () => this._dropSignal(),
      joinOnce: (config, target, useCache, resumeToken) => this._joins.once(config, target, useCache, resumeToken),
      connection: this.connection,
      resetConnection: () => this._resetConnection(),
      teardown: () => this._teardown(),
    });
  }

  /** The room entered (or being entered). */
  get target(): RoomTarget | undefined {
    return this._target;
  }

  /** The signalling channel while joined (plugins send their commands on it). */
  get joinedSignal(): SignalChannel | undefined {
    return this.machine.state === 'joined' ? this._signal : undefined;
  }

  /** The data link's peer connection, if open. */
  get dataLinkConnection(): RTCPeerConnection | undefined {
    return this._dataLink.link?.peerConnection;
  }

  /** CPU pressure (docs/behaviour.md §4), sampled every 2 s while joined. */
  get pressure(): PressureMonitor {
    return this._adaptation.pressure;
  }

  /** Receive remote small streams under CPU pressure (off unless opted into, e.g. by a small-stream switcher plugin). */
  setAutoSmallOnPressure(on: boolean): void {
    this._adaptation.setAutoSmallOnPressure(on);
  }

  get state(): RoomState {
    return this.machine.state;
  }

  get remoteUsers(): ReadonlyMap<string, RemoteUser> {
    return this.remotes.map;
  }

  /** The last scheduling result (for 2k/4k permission and the like). */
  get schedule(): Schedule | undefined {
    return this._schedule;
  }

  get iceServers(): RTCIceServer[] {
    // The app's own TURN server (proxy.turnServer) wins over the ones scheduling handed out.
    const servers = this._proxy.turnServers.length > 0
      ? this._proxy.turnServers.map((turn) => ({ urls: turn.url, username: turn.username, credential: turn.credential }))
      : [...(this._schedule?.iceServers ?? [])];
    // A relay switch for a slow media path goes over TCP when offered (useTurnTcpInfo).
    return this._adaptation?.relay.relayForced && this._schedule?.config.useTurnTcpInfo ? preferTurnTcp(servers) : servers;
  }

  /** The policy the app or the schedule sets. */
  private get _imposedPolicy(): RTCIceTransportPolicy {
    return this._proxy.iceTransportPolicy ?? this._schedule?.iceTransportPolicy ?? 'all';
  }

  private get _iceTransportPolicy(): RTCIceTransportPolicy {
    return this._adaptation.relay.relayForced ? 'relay' : this._imposedPolicy;
  }

  /**
   * Joins (docs/behaviour.md §4): schedule, connect, join, within the join time-out. A failure that is not a
   * server refusal is retried once after a reset, with a fresh schedule and a fresh channel. `ready` is what must
   * be in place before the first link is made (SEI's frame steps); it is awaited inside the join, so an exitRoom
   * meanwhile aborts the join as at any other step.
   */
  async join(config: EnterRoomConfig, target: RoomTarget, ready?: Promise<void>): Promise<void> {
    this.machine.set('joining');
    this._config = config;
    this._target = target;
    this._proxy = resolveProxy(config.proxy);
    this.userId = config.userId;
    this.scene = config.scene ?? 'rtc';
    this.role = this.scene === 'live' ? (config.role ?? 'anchor') : 'anchor';
    this.connection.set('CONNECTING');
    const aborted = new Promise<never>((_, reject) => {
      this._abortJoin = reject;
    });
    const attempt = async () => {
      await ready;
      try {
        return await this._joins.once(config, target, true);
      } catch (error) {
        if (isRefusal(error) || this.machine.state !== 'joining') throw error;
        log.warn('join failed, retrying with a fresh schedule:', error);
        this._resetConnection();
        return this._joins.once(config, target, false);
      }
    };
    const joining = Promise.race([attempt(), aborted]);
    this._joining = joining.then(() => undefined, () => undefined); // only awaited by switchRole
    try {
      const { peers } = await joining;
      this.machine.set('joined');
      this.connection.set('CONNECTED');
      this.remotes.addPeers(peers); // once joined, so listeners may call startRemoteVideo
      this._dataLink.open();
      this._adaptation.start();
      this._reconnector.watch();
    } catch (error) {
      this._end();
      throw joinError(error);
    } finally {
      this._abortJoin = undefined;
      this._joining = undefined;
    }
  }

  /** preconnect: schedules (for `room`, else a placeholder room) and opens the signalling socket ahead of enterRoom. */
  preconnect(identity: PreconnectIdentity, room: RoomTarget, proxy: EnterRoomConfig['proxy']): Promise<void> {
    return this._joins.preconnect(identity, room, proxy);
  }

  private _listen(signal: SignalChannel): void {
    listenToSignal(signal, {
      remotes: this.remotes,
      messages: this.messages,
      audience: this.audience,
      events: this._events,
      target: () => this._target,
      current: () => this._signal,
      banned: (data) => this._onBanned(data),
      lost: () => this._flow.start(),
    });
  }

  /** Leaves: tells the server, closes every connection, stops remote playback. */
  async leave(): Promise<void> {
    if (this.machine.state === 'joining') {
      this._abortJoin?.(operationAbort(MESSAGE.CONNECTION_ABORTED, 'enterRoom'));
    }
    const signal = this._signal;
    if (signal?.isOpen && this.machine.state === 'joined') {
      // Leaving goes on locally whatever the server says.
      await signal.request('leave', {}).catch((error: unknown) => log.warn('leave request failed:', error));
    }
    this._teardown();
    if (this.machine.state !== 'initial') this.machine.set('left');
    this.connection.set('DISCONNECTED');
  }

  /** Closes the connections of a failed attempt so the retry starts clean. */
  private _resetConnection(): void {
    this._dataLink.close();
    this.messages.reset();
    this.remotes.clear();
    this.publisher.closeUplink();
    this.frames.reset();
    this._dropSignal();
  }

  private _dropSignal(): void {
    this._signal?.close();
    this._signal = undefined;
  }

  private _teardown(): void {
    this._resetConnection();
    this._reconnector.cancel();
    this._reconnector.unwatch();
    this._adaptation.stop();
    this.audience.reset();
  }

  /** The session is over (gave up reconnecting, failed to join, banned): everything closed, state left. */
  private _end(): void {
    this._teardown();
    this.machine.set('left');
    this.connection.set('DISCONNECTED');
  }

  private _onBanned(data: PushMap['banned']): void {
    if (data.reason === 'user_time_out') {
      this._flow.rejoinReporting();
      return;
    }
    // A banned room is exited first, then the event is emitted (docs/behaviour.md §4).
    this._end();
    this._events.emit('kicked-out', { reason: data.reason, message: data.message });
  }

  /** Switches role in the live scene (role-switch.ts), once a join in progress is done. */
  async switchRole(role: 'anchor' | 'audience', option: SwitchRoleOption = {}): Promise<void> {
    if (this.machine.state === 'joining') await this._joining?.catch(() => undefined); // the join's caller gets its failure; the switch goes on after it either way
    await switchRole(this, this._signal, role, option);
  }

  /** Moves this session to another room (switch-room-flow.ts). */
  switchRoom(request: SwitchRoomTarget): Promise<void> {
    return switchRoom(this, {
      signal: this._signal,
      config: this._config,
      dataLink: this._dataLink,
      moved: (config, target, sessionToken) => {
        this._config = config;
        this._target = target;
        this._sessionToken = sessionToken;
      },
    }, request);
  }

  get canPublish(): boolean {
    return !(this.scene === 'live' && this.role === 'audience');
  }
}
