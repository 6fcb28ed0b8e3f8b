import { CallRateLimiter } from './common/rate-limit.js';
import { ResourceQueue } from './common/resource-queue.js';
import { Emitter } from './common/emitter.js';
import { DEFAULT_SERVER_ORIGIN } from './common/server-origin.js';
import { ERROR_CODE, EXTRA_CODE } from './constants/error-code.js';
import { EVENT } from './constants/event.js';
import { TYPE } from './constants/type.js';
import { envNotSupported, invalidOperation, invalidParameter, MESSAGE } from './errors/catalogue.js';
import { RtcError } from './errors/rtc-error.js';
import { log, LOG_LEVEL, setLevel, type LogLevel } from './log/logger.js';
import { LogUploader, STAT_KEY } from './log/upload.js';
import { DeviceWatcher, listDevices } from './media/devices.js';
import type { LocalMediaEnv, SlotContent } from './media/local-media-env.js';
import { LocalAudio, validateLocalAudioConfig } from './media/local-audio.js';
import { LocalVideo, validateLocalVideoConfig } from './media/local-video.js';
import { ScreenShare, validateScreenShareConfig } from './media/screen-share.js';
import { checkSupport } from './media/support.js';
import { setDefaultSpeaker } from './playback/audio-player.js';
import { resolveView } from './playback/view.js';
import { pluginSignal } from './plugins/context/room.js';
import { PluginManager } from './plugins/plugin-manager.js';
import { Room, SDK_VERSION } from './room/room.js';
import { StatsReporter } from './stats/stats-reporter.js';
import { encodedStreamsSupported, SeiChannel } from './sei/sei-channel.js';
import { UPLINK_SLOTS } from './transport/uplink.js';
import type {
  CustomMessageData, EnterRoomConfig, LocalAudioConfig, LocalVideoConfig, PluginWithAssets, RemoteVideoConfig,
  ScreenShareConfig, SEIMessageOptions, StopRemoteVideoConfig, SupportResult, TrackQuery, TRTCEventTypes, TRTCOptions,
  TRTCPlugin, UpdateLocalAudioConfig, UpdateScreenShareConfig,
} from './types.js';
import { resolveProxy, validateEnterRoom } from './validate/enter-room.js';
import { validateCustomMessage, validateSEI, validateVolume, validateVolumeInterval } from './validate/messages.js';

/** Calls per second each API function allows (SPEC §5 'call frequency limit exceeded'). */
const CALLS_PER_SECOND = 20;

/**
 * The client: one instance per user session. Create it with TRTC.create().
 * Every method that returns a promise rejects only with RtcError; synchronous methods throw only RtcError.
 */
export class TRTC {
  /** Event names (frozen). */
  static readonly EVENT = EVENT;
  /** Constant strings (frozen). */
  static readonly TYPE = TYPE;
  /** Error codes (frozen). */
  static readonly ERROR_CODE = ERROR_CODE;
  /** Framework type reported to the server. */
  static frameWorkType = 30;

  readonly #events = new Emitter<TRTCEventTypes>();
  readonly #room: Room;
  readonly #options: TRTCOptions;
  readonly #plugins: PluginManager;
  readonly #limiter = new CallRateLimiter(CALLS_PER_SECOND);
  readonly #videoQueue = new ResourceQueue('camera');
  readonly #audioQueue = new ResourceQueue('microphone');
  readonly #screenQueue = new ResourceQueue('screen share');
  #destroyed = false;
  #video: LocalVideo | undefined;
  #audio: LocalAudio | undefined;
  #screen: ScreenShare | undefined;
  #volumeInterval = 0;
  readonly #devices = new DeviceWatcher((change) => this.#events.emit('device-changed', change));
  /** What local media needs from this client (2k/4k permission, error events, device-changed 'active'). */
  readonly #mediaEnv: LocalMediaEnv = {
    enable2k4k: () => this.#room.schedule?.trtcAutoConf?.enable2k4k === true,
    emitError: (error) => this.#events.emit('error', error),
    deviceActive: (kind, track) => void this.#devices.active(kind, track),
  };
  readonly #stats: StatsReporter;
  readonly #uploader = new LogUploader();
  /** SEI in H264 frames, with create({enableSEI: true}) where encoded transforms exist. */
  readonly #sei: SeiChannel | undefined;

  private constructor(options: TRTCOptions) {
    this.#options = options;
    this.#room = new Room(this.#events);
    this.#plugins = new PluginManager(this, options.assetsPath ?? `${DEFAULT_SERVER_ORIGIN}/sdk/assets`, DEFAULT_SERVER_ORIGIN, () => {
      const id = this.#uploader.identity;
      return { sdkAppId: id?.sdkAppId ?? 0, userId: id?.userId ?? '', roomId: id?.strRoomId ?? id?.roomId ?? '' };
    });
    this.#plugins.signal = pluginSignal(() => this.#room.joinedSignal);
    for (const plugin of options.plugins ?? []) this.#plugins.use(plugin);
    if (options.enableSEI && encodedStreamsSupported()) {
      const sei = new SeiChannel(this.#events);
      this.#sei = sei;
      this.#room.encodedHooks = {
        sender: (slot, sender) => sei.attachSender(slot, sender),
        receiver: (userId, slot, receiver) => sei.attachReceiver(userId, slot, receiver),
      };
    }
    this.#stats = new StatsReporter(this.#events, {
      joined: () => this.#room.machine.is('joined'),
      uplink: () => this.#room.publisher.peerConnection,
      downlinks: () => [...this.#room.remoteUsers.values()].flatMap((user) => {
        const pc = user.downlink?.peerConnection;
        return pc ? [{ userId: user.userId, pc }] : [];
      }),
      dataLink: () => this.#room.dataLinkConnection,
      freezes: () => this.#room.remotes.freezeStats(),
      localAudio: () => (this.#audio?.track ? { track: this.#audio.track, muted: this.#audio.muted } : undefined),
    });
    this.#devices.start();
    this.#events.tap = (event, args) => {
      if (event === 'connection-state-changed' && (args[0] as { state?: string } | undefined)?.state === 'DISCONNECTED' && this.#room.machine.is('left')) {
        // The session is over (exitRoom, a ban, a failed join or reconnection): upload what is left,
        // including the lines logged right after (unless a new session started meanwhile).
        const session = this.#uploader.identity;
        setTimeout(() => {
          if (session && this.#uploader.identity === session) void this.#uploader.stop();
        }, 0);
        return;
      }
      if (event !== 'error') return;
      const error = args[0] as { message?: string; stack?: string; code?: number } | undefined;
      log.error('error event:', error?.message ?? error);
      this.#uploader.count(STAT_KEY.ERROR_EVENT);
      this.#uploader.reportError(error ?? {});
    };
    this.#events.onListenerError = (error, event) => {
      console.error(`[conclave] a '${String(event)}' listener threw:`, error);
    };
  }

  /**
   * Creates a client.
   * @param options plugins, enableSEI, assetsPath, volumeType.
   * @throws RtcError INVALID_PARAMETER for options of the wrong type.
   */
  static create(options: TRTCOptions = {}): TRTC {
    if (typeof options !== 'object' || options === null) throw invalidParameter(EXTRA_CODE.TYPE, 'options must be an object', 'create');
    if (options.enableSEI !== undefined && typeof options.enableSEI !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'enableSEI must be a boolean', 'create');
    if (options.assetsPath !== undefined && typeof options.assetsPath !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'assetsPath must be a string', 'create');
    if (options.plugins !== undefined && !Array.isArray(options.plugins)) throw invalidParameter(EXTRA_CODE.TYPE, 'plugins must be an array', 'create');
    return new TRTC(options);
  }

  /**
   * Sets the console log level: TRACE 0, DEBUG 1, INFO 2 (default), WARN 3, ERROR 4, NONE 5.
   * @param enableUploadLog whether logs are uploaded to the server (default true).
   * @throws RtcError INVALID_PARAMETER for a level outside 0..5.
   */
  static setLogLevel(level: LogLevel, enableUploadLog = true): void {
    if (!Number.isInteger(level) || level < LOG_LEVEL.TRACE || level > LOG_LEVEL.NONE) {
      throw invalidParameter(EXTRA_CODE.RANGE, 'log level must be an integer between 0 and 5', 'setLogLevel');
    }
    if (typeof enableUploadLog !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'enableUploadLog must be a boolean', 'setLogLevel');
    setLevel(level, enableUploadLog);
  }

  /** Tells whether this browser can use Conclave, with a flag per capability. Never rejects. */
  static isSupported(): Promise<SupportResult> {
    return checkSupport();
  }

  /**
   * Lists cameras. With requestPermission (default true) asks for camera access first when labels are hidden.
   * @throws RtcError DEVICE_ERROR when access is refused.
   */
  static getCameraList(requestPermission = true): Promise<MediaDeviceInfo[]> {
    return api('getCameraList', () => listDevices('videoinput', requestPermission, 'getCameraList'));
  }

  /** Lists microphones (see getCameraList). @throws RtcError DEVICE_ERROR when access is refused. */
  static getMicrophoneList(requestPermission = true): Promise<MediaDeviceInfo[]> {
    return api('getMicrophoneList', () => listDevices('audioinput', requestPermission, 'getMicrophoneList'));
  }

  /** Lists speakers (audio outputs). @throws RtcError DEVICE_ERROR when access is refused. */
  static getSpeakerList(requestPermission = true): Promise<MediaDeviceInfo[]> {
    return api('getSpeakerList', () => listDevices('audiooutput', requestPermission, 'getSpeakerList'));
  }

  /**
   * Plays remote audio of every client on this speaker (setSinkId where the browser has it).
   * @throws RtcError INVALID_PARAMETER for a missing id; ENV_NOT_SUPPORTED when the browser cannot choose outputs.
   */
  static setCurrentSpeaker(speakerId: string): Promise<void> {
    return api('setCurrentSpeaker', async () => {
      if (typeof speakerId !== 'string' || speakerId === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'speakerId is required', 'setCurrentSpeaker');
      if (typeof HTMLMediaElement === 'undefined' || !('setSinkId' in HTMLMediaElement.prototype)) {
        throw envNotSupported(EXTRA_CODE.WEBRTC, 'this browser cannot choose the audio output device', 'setCurrentSpeaker');
      }
      await setDefaultSpeaker(speakerId);
    });
  }

  /** Same as TRTC.setCurrentSpeaker. */
  setCurrentSpeaker(speakerId: string): Promise<void> {
    return TRTC.setCurrentSpeaker(speakerId);
  }

  /** Runs an async API call: destroyed check, call frequency limit, RtcError conversion. */
  #call<T>(functionName: string, fn: () => Promise<T>): Promise<T> {
    return api(functionName, async () => {
      this.#guard(functionName);
      return fn();
    });
  }

  /** The checks every call makes first; throws RtcError. */
  #guard(functionName: string): void {
    if (this.#destroyed) throw invalidOperation(undefined, MESSAGE.CLIENT_DESTROYED, functionName);
    this.#limiter.check(functionName);
  }

  /** The options this client was created with. */
  get options(): Readonly<TRTCOptions> {
    return this.#options;
  }

  /**
   * Registers a plugin (a plugin class, or `{plugin, assetsPath}`).
   * @throws RtcError INVALID_PARAMETER for anything else.
   */
  use(plugin: TRTCPlugin | PluginWithAssets): void {
    this.#guard('use');
    this.#plugins.use(plugin);
  }

  /**
   * Starts a registered plugin by name.
   * @throws RtcError ENV_NOT_SUPPORTED (5210) when no plugin of that name is registered.
   */
  startPlugin(name: string, options?: unknown): Promise<unknown> {
    return this.#call('startPlugin', () => this.#plugins.start(name, options));
  }

  /** Updates a started plugin. @throws RtcError ENV_NOT_SUPPORTED (5210) for an unknown plugin. */
  updatePlugin(name: string, options?: unknown): Promise<unknown> {
    return this.#call('updatePlugin', () => this.#plugins.update(name, options));
  }

  /** Stops a plugin. @throws RtcError ENV_NOT_SUPPORTED (5210) for an unknown plugin. */
  stopPlugin(name: string, options?: unknown): Promise<unknown> {
    return this.#call('stopPlugin', () => this.#plugins.stop(name, options));
  }

  /**
   * Listens to an event (see TRTC.EVENT). A listener that throws never breaks the SDK.
   * @returns this client, for chaining.
   */
  on<E extends keyof TRTCEventTypes>(event: E, handler: TRTCEventTypes[E], context?: unknown): this {
    this.#events.on(event, handler, context);
    return this;
  }

  /**
   * Removes a listener; `off('*')` removes every listener.
   * @returns this client, for chaining.
   */
  off<E extends keyof TRTCEventTypes>(event: E | '*', handler?: TRTCEventTypes[E], context?: unknown): this {
    this.#events.off(event, handler, context);
    return this;
  }

  /**
   * Enters a room: schedules, connects to signalling, joins, then publishes any local audio/video
   * already started (not for an audience in live).
   * @throws RtcError INVALID_PARAMETER for bad options; INVALID_OPERATION when already joined or joining
   * ('duplicate join() called'); SERVER_ERROR with the server's code as extraCode when the server refuses
   * (e.g. a bad userSig); OPERATION_FAILED on time-out ('join room timeout'); OPERATION_ABORT when exitRoom
   * is called meanwhile.
   */
  enterRoom(config: EnterRoomConfig): Promise<void> {
    return this.#call('enterRoom', async () => {
      const target = validateEnterRoom(config);
      this.#room.machine.require(['initial', 'left'], 'enterRoom', MESSAGE.DUPLICATE_JOIN, EXTRA_CODE.REPEAT_CALL);
      const identity = {
        sdkAppId: config.sdkAppId, userId: config.userId, version: SDK_VERSION,
        ...(config.strRoomId !== undefined ? { strRoomId: config.strRoomId } : { roomId: config.roomId }),
      };
      this.#uploader.start({ ...identity, origin: resolveProxy(config.proxy).loggerBase ?? DEFAULT_SERVER_ORIGIN });
      log.info(`enterRoom ${config.strRoomId ?? config.roomId} as ${config.userId} (scene ${config.scene ?? 'rtc'}, role ${config.role ?? 'anchor'})`);
      try {
        await this.#room.join(config, target);
      } catch (error) {
        log.warn('enterRoom failed:', error);
        throw error;
      }
      this.#uploader.start({ ...identity, origin: resolveProxy(config.proxy).loggerBase ?? this.#room.schedule?.config.loggerDomain ?? DEFAULT_SERVER_ORIGIN });
      log.info(`entered room ${config.strRoomId ?? config.roomId} as ${config.userId}`);
      this.#uploader.count(STAT_KEY.ENTER_ROOM);
      this.#stats.start();
      await this.#room.publisher.publishPending();
    });
  }

  /**
   * Leaves the room; a join in progress is aborted. Local capture keeps running (stop it with
   * stopLocalVideo / stopLocalAudio). Resolves when not in a room.
   */
  exitRoom(): Promise<void> {
    return this.#call('exitRoom', async () => {
      if (this.#room.machine.is('joining', 'joined')) {
        log.info(`exitRoom: ${this.#room.userId} left`);
        this.#uploader.count(STAT_KEY.EXIT_ROOM);
      }
      await this.#room.leave(); // ends the log upload (connection-state-changed DISCONNECTED)
    });
  }

  /**
   * Switches role in the live scene: to 'audience' stops publishing first; to 'anchor' publishes the
   * local tracks that were waiting.
   * @throws RtcError INVALID_PARAMETER for another role; INVALID_OPERATION outside live ('switchRole can only
   * be called in live mode') or when not joining or joined; OPERATION_FAILED when the server refuses.
   */
  switchRole(role: 'anchor' | 'audience', option?: { privateMapKey?: string; latencyLevel?: number }): Promise<void> {
    return this.#call('switchRole', async () => {
      if (role !== 'anchor' && role !== 'audience') throw invalidParameter(EXTRA_CODE.RANGE, "role must be 'anchor' or 'audience'", 'switchRole');
      if (option?.privateMapKey !== undefined && typeof option.privateMapKey !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'privateMapKey must be a string', 'switchRole');
      this.#room.machine.require(['joining', 'joined'], 'switchRole', 'switchRole can only be called while joining or joined', EXTRA_CODE.NOT_JOINED);
      if (this.#room.scene !== 'live') throw invalidOperation(undefined, MESSAGE.SWITCH_ROLE_SCENE, 'switchRole');
      await this.#room.switchRole(role, option?.privateMapKey);
    });
  }

  /**
   * Releases the client: stops local capture and removes listeners. After this every call fails with
   * 'client destroyed'.
   * @throws RtcError INVALID_OPERATION while joining or in a room ('please call leave() before destroy()').
   */
  destroy(): void {
    if (this.#destroyed) return;
    if (this.#room.machine.is('joining', 'joined')) throw invalidOperation(undefined, MESSAGE.LEAVE_BEFORE_DESTROY, 'destroy');
    void this.#video?.stop().catch(() => undefined);
    void this.#audio?.stop().catch(() => undefined);
    void this.#screen?.stop().catch(() => undefined);
    this.#plugins.destroy();
    this.#devices.stop();
    this.#stats.stop();
    this.#events.off('*');
    this.#destroyed = true;
  }

  /** Refuses publishing for an audience in live (SPEC §6); tracks started before joining wait for switchRole. */
  #checkMayPublish(functionName: string, publish: boolean | undefined): void {
    if (publish !== false && this.#room.machine.is('joined') && !this.#room.canPublish) {
      throw invalidOperation(EXTRA_CODE.ROLE_AUDIENCE, MESSAGE.AUDIENCE_PUBLISH, functionName);
    }
  }

  /** Binds a local slot to the room's publishing. */
  #publisherFor(slot: 'audio' | 'video' | 'small' | 'aux') {
    const publisher = this.#room.publisher;
    return {
      publish: (content: SlotContent) => publisher.setLocalTrack(slot, { ...content }),
      unpublish: () => publisher.setLocalTrack(slot, undefined),
      replace: (track: MediaStreamTrack, encoding?: SlotContent['encoding']) => publisher.replaceTrack(slot, track, encoding),
      setEncoding: (encoding: NonNullable<SlotContent['encoding']>) => publisher.setEncoding(slot, encoding),
      setMuted: (muted: boolean) => publisher.setMuted(slot, muted),
    };
  }

  /** System audio of a screen share: mixed into the microphone, or alone on the audio slot without one. */
  readonly #screenAudio = {
    add: async (track: MediaStreamTrack) => {
      if (this.#audio) await this.#audio.mix(track);
      else await this.#room.publisher.setLocalTrack('audio', { track, muted: false, encoding: { maxBitrateKbps: 64 } });
    },
    remove: async (track: MediaStreamTrack) => {
      if (this.#audio) this.#audio.unmix(track);
      else if (this.#room.publisher.local('audio')?.track === track) await this.#room.publisher.setLocalTrack('audio', undefined);
    },
  };

  /**
   * Captures the camera, renders it into `view` and publishes it (now, or when the room is joined).
   * @throws RtcError INVALID_PARAMETER for a bad view or option; INVALID_OPERATION (5104) when already started,
   * (5107) for an audience in live; DEVICE_ERROR when capture fails (5301 'no camera detected', 5302 not allowed…).
   */
  startLocalVideo(config: LocalVideoConfig = {}): Promise<void> {
    return this.#call('startLocalVideo', () => {
      validateLocalVideoConfig(config, 'startLocalVideo');
      this.#checkMayPublish('startLocalVideo', config.publish);
      return this.#videoQueue.start('startLocalVideo', async () => {
        const video = new LocalVideo(this.#publisherFor('video'), this.#publisherFor('small'), this.#mediaEnv);
        this.#video = video;
        try {
          await video.start(config);
        } catch (error) {
          this.#video = undefined;
          await video.stop().catch(() => undefined);
          throw error;
        }
      });
    });
  }

  /**
   * Changes the camera: profile, cameraId (swaps the track without renegotiation; the device in use is
   * ignored), view, mirror, fillMode, publish, mute.
   * @throws RtcError INVALID_OPERATION (5105) when the camera is not started; INVALID_PARAMETER for bad options.
   */
  updateLocalVideo(config: LocalVideoConfig): Promise<void> {
    return this.#call('updateLocalVideo', () => {
      validateLocalVideoConfig(config ?? {}, 'updateLocalVideo');
      this.#checkMayPublish('updateLocalVideo', config?.publish === true); // only a request to start publishing is refused
      return this.#videoQueue.update('updateLocalVideo', EXTRA_CODE.NEED_VIDEO, async () => this.#video?.update(config ?? {}));
    });
  }

  /** Stops the camera, its preview and its publication; repeated calls are merged. */
  stopLocalVideo(): Promise<void> {
    return this.#call('stopLocalVideo', () => this.#videoQueue.stop(async () => {
      const video = this.#video;
      this.#video = undefined;
      await video?.stop();
    }));
  }

  /**
   * Captures the microphone and publishes it (local audio is never played back).
   * @throws RtcError INVALID_OPERATION (5104) when already started, (5107) for an audience in live;
   * DEVICE_ERROR when capture fails (5301 'no microphone detected'…); INVALID_PARAMETER for bad options.
   */
  startLocalAudio(config: LocalAudioConfig = {}): Promise<void> {
    return this.#call('startLocalAudio', () => {
      validateLocalAudioConfig(config, 'startLocalAudio');
      this.#checkMayPublish('startLocalAudio', config.publish);
      return this.#audioQueue.start('startLocalAudio', async () => {
        const audio = new LocalAudio(this.#publisherFor('audio'), this.#mediaEnv, this.#plugins.audio);
        this.#audio = audio;
        try {
          await audio.start(config);
        } catch (error) {
          this.#audio = undefined;
          await audio.stop().catch(() => undefined);
          throw error;
        }
      });
    });
  }

  /**
   * Changes the microphone: microphoneId, processing flags, audioTrack, publish, mute.
   * @throws RtcError INVALID_OPERATION (5106) when the microphone is not started; INVALID_PARAMETER for bad options.
   */
  updateLocalAudio(config: UpdateLocalAudioConfig): Promise<void> {
    return this.#call('updateLocalAudio', () => {
      validateLocalAudioConfig(config ?? {}, 'updateLocalAudio');
      return this.#audioQueue.update('updateLocalAudio', EXTRA_CODE.NEED_AUDIO, async () => this.#audio?.update(config ?? {}));
    });
  }

  /** Stops the microphone and its publication; repeated calls are merged. */
  stopLocalAudio(): Promise<void> {
    return this.#call('stopLocalAudio', () => this.#audioQueue.stop(async () => {
      const audio = this.#audio;
      this.#audio = undefined;
      await audio?.stop();
    }));
  }

  /**
   * Shares the screen as the auxiliary ('sub') stream. Only one auxiliary stream per room.
   * @throws RtcError INVALID_OPERATION when already sharing, when someone else shares, or (5107) for an audience;
   * ENV_NOT_SUPPORTED (5205) without getDisplayMedia; DEVICE_ERROR when the user refuses.
   */
  startScreenShare(config: ScreenShareConfig = {}): Promise<void> {
    return this.#call('startScreenShare', () => {
      validateScreenShareConfig(config, 'startScreenShare');
      this.#checkMayPublish('startScreenShare', config.publish);
      const sharing = [...this.#room.remoteUsers.values()].find((user) => user.state.hasAuxiliary);
      if (sharing) throw invalidOperation(undefined, `only one screen share per room: '${sharing.userId}' is sharing`, 'startScreenShare');
      return this.#screenQueue.start('startScreenShare', async () => {
        const screen = new ScreenShare(this.#publisherFor('aux'), () => {
          this.stopScreenShare().then(() => this.#events.emit('screen-share-stopped'), () => undefined);
        }, this.#screenAudio);
        this.#screen = screen;
        try {
          await screen.start(config);
        } catch (error) {
          this.#screen = undefined;
          await screen.stop().catch(() => undefined);
          throw error;
        }
      });
    });
  }

  /** Changes the screen share's view, fillMode or publish. @throws RtcError INVALID_OPERATION when not sharing. */
  updateScreenShare(config: UpdateScreenShareConfig): Promise<void> {
    return this.#call('updateScreenShare', () => {
      validateScreenShareConfig(config ?? {}, 'updateScreenShare');
      return this.#screenQueue.update('updateScreenShare', EXTRA_CODE.NEED_VIDEO, async () => this.#screen?.update(config ?? {}));
    });
  }

  /** Stops the screen share; repeated calls are merged. */
  stopScreenShare(): Promise<void> {
    return this.#call('stopScreenShare', () => this.#screenQueue.stop(async () => {
      const screen = this.#screen;
      this.#screen = undefined;
      await screen?.stop();
    }));
  }

  #checkRemoteVideoConfig(config: RemoteVideoConfig | undefined, functionName: string): { userId: string; streamType: 'main' | 'sub' } {
    if (!config || typeof config !== 'object') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'config {userId, streamType, view} is required', functionName);
    if (typeof config.userId !== 'string' || config.userId === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', functionName);
    if (config.streamType === undefined) throw invalidParameter(EXTRA_CODE.STREAM_TYPE, 'streamType is required', functionName);
    if (config.streamType !== 'main' && config.streamType !== 'sub') throw invalidParameter(EXTRA_CODE.RANGE, "streamType must be 'main' or 'sub'", functionName);
    const option = config.option;
    if (option?.fillMode !== undefined && !['contain', 'cover', 'fill'].includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
    for (const flag of ['mirror', 'small', 'receiveWhenViewVisible', 'canvasRender'] as const) {
      if (option?.[flag] !== undefined && typeof option[flag] !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `option.${flag} must be a boolean`, functionName);
    }
    if (option?.small && config.streamType === 'sub') throw invalidParameter(EXTRA_CODE.RANGE, 'the small stream exists only for the main stream', functionName);
    if (option?.poster !== undefined && typeof option.poster !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'option.poster must be a string', functionName);
    if (option?.viewRoot !== undefined && !(option.viewRoot instanceof HTMLElement)) throw invalidParameter(EXTRA_CODE.INSTANCE, 'option.viewRoot must be an HTMLElement', functionName);
    return { userId: config.userId, streamType: config.streamType };
  }

  /**
   * Receives a remote user's video and renders it into `view`. option.small receives the remote's small
   * stream instead of the big one (when it publishes one; else the big one until it does);
   * option.receiveWhenViewVisible receives only while the view is visible (within option.viewRoot).
   * @throws RtcError INVALID_PARAMETER for a bad config or view; INVALID_OPERATION when not joined (5101), the user
   * is not in the room (5102) or does not publish that stream (5103); OPERATION_ABORT ('remoteStream does not
   * exist because it has been unpublished') when the stream goes away meanwhile; OPERATION_FAILED when
   * subscribing fails or times out (10 s).
   */
  startRemoteVideo(config: RemoteVideoConfig): Promise<void> {
    return this.#call('startRemoteVideo', async () => {
      const { userId, streamType } = this.#checkRemoteVideoConfig(config, 'startRemoteVideo');
      const views = resolveView(config.view, 'startRemoteVideo');
      const option = config.option ?? {};
      await this.#room.remotes.startRemoteVideo(userId, streamType, {
        views, fillMode: option.fillMode, mirror: option.mirror, poster: option.poster,
        receiveWhenViewVisible: option.receiveWhenViewVisible, viewRoot: option.viewRoot,
      }, option.small);
    });
  }

  /**
   * Changes a playing remote video: view, fillMode, mirror, small (switches between the big and the
   * small stream; a failed switch is retried up to 10 times), receiveWhenViewVisible, viewRoot.
   * @throws RtcError as startRemoteVideo, and INVALID_OPERATION when that video is not started.
   */
  updateRemoteVideo(config: RemoteVideoConfig): Promise<void> {
    return this.#call('updateRemoteVideo', async () => {
      const { userId, streamType } = this.#checkRemoteVideoConfig(config, 'updateRemoteVideo');
      const views = config.view !== undefined ? resolveView(config.view, 'updateRemoteVideo') : undefined;
      const option = config.option ?? {};
      await this.#room.remotes.updateRemoteVideo(userId, streamType, {
        views, fillMode: option.fillMode, mirror: option.mirror,
        receiveWhenViewVisible: option.receiveWhenViewVisible, viewRoot: option.viewRoot,
      }, option.small);
    });
  }

  /**
   * Stops receiving a remote video; userId '*' stops all of them.
   * @throws RtcError INVALID_PARAMETER when userId is missing, or streamType is missing for one user.
   */
  stopRemoteVideo(config: StopRemoteVideoConfig): Promise<void> {
    return this.#call('stopRemoteVideo', async () => {
      if (!config || typeof config.userId !== 'string' || config.userId === '') {
        throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', 'stopRemoteVideo');
      }
      if (config.userId !== '*' && config.streamType === undefined) throw invalidParameter(EXTRA_CODE.STREAM_TYPE, "streamType is required when userId is not '*'", 'stopRemoteVideo');
      if (config.streamType !== undefined && config.streamType !== 'main' && config.streamType !== 'sub') {
        throw invalidParameter(EXTRA_CODE.RANGE, "streamType must be 'main' or 'sub'", 'stopRemoteVideo');
      }
      await this.#room.remotes.stopRemoteVideo(config.userId, config.streamType);
    });
  }

  /**
   * Mutes or unmutes the playback of a remote user's audio; userId '*' applies to everyone (also users who
   * enter later). Unmuting also receives the audio when enterRoom had autoReceiveAudio false.
   * @throws RtcError INVALID_PARAMETER when userId is not a string or mute not a boolean.
   */
  muteRemoteAudio(userId: string, mute: boolean): Promise<void> {
    return this.#call('muteRemoteAudio', async () => {
      if (typeof userId !== 'string' || userId === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', 'muteRemoteAudio');
      if (typeof mute !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'mute must be a boolean', 'muteRemoteAudio');
      await this.#room.remotes.muteRemoteAudio(userId, mute);
    });
  }

  /**
   * Sets the playback volume of a remote user ('*' for everyone): 0–100, default 100; above 100 amplifies
   * (through Web Audio).
   * @throws RtcError INVALID_PARAMETER for a missing userId or a volume below 0.
   */
  setRemoteAudioVolume(userId: string, volume: number): void {
    api.sync('setRemoteAudioVolume', () => {
      this.#guard('setRemoteAudioVolume');
      if (typeof userId !== 'string' || userId === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', 'setRemoteAudioVolume');
      this.#room.remotes.setRemoteAudioVolume(userId, validateVolume(volume, 'setRemoteAudioVolume'));
    });
  }

  /**
   * Turns on the audio-volume event every `interval` ms (default 2000, at least 100; 0 or less turns it off).
   * @throws RtcError INVALID_PARAMETER when interval is not a number.
   */
  enableAudioVolumeEvaluation(interval = 2000, enableInBackground = false): void {
    api.sync('enableAudioVolumeEvaluation', () => {
      this.#guard('enableAudioVolumeEvaluation');
      const checked = validateVolumeInterval(interval);
      if (typeof enableInBackground !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'enableInBackground must be a boolean', 'enableAudioVolumeEvaluation');
      this.#volumeInterval = checked;
      this.#stats.setVolumeInterval(checked, enableInBackground);
    });
  }

  /** The current audio-volume interval (0 = off). */
  get audioVolumeInterval(): number {
    return this.#volumeInterval;
  }

  #query(config: string | TrackQuery | undefined, functionName: string): { userId: string; streamType: 'main' | 'sub' } {
    const query = typeof config === 'string' ? { userId: config } : (config ?? {});
    if (typeof query !== 'object') throw invalidParameter(EXTRA_CODE.TYPE, 'config must be a userId or {userId, streamType}', functionName);
    const streamType = query.streamType ?? 'main';
    if (streamType !== 'main' && streamType !== 'sub') throw invalidParameter(EXTRA_CODE.RANGE, "streamType must be 'main' or 'sub'", functionName);
    return { userId: query.userId ?? '', streamType };
  }

  /**
   * The audio track of the local microphone (no userId) or of a remote user; null when there is none.
   * @throws RtcError INVALID_PARAMETER for a bad argument.
   */
  getAudioTrack(configOrUserId?: string | TrackQuery): MediaStreamTrack | null {
    return api.sync('getAudioTrack', () => {
      const { userId } = this.#query(configOrUserId, 'getAudioTrack');
      if (!userId || userId === this.#room.userId) return this.#audio?.track ?? null;
      const user = this.#room.remoteUsers.get(userId);
      return user?.sent?.audio ? user.downlink?.tracks.audio ?? null : null;
    });
  }

  /**
   * The video track of the local camera / screen (no userId) or of a remote user; null when there is none.
   * @throws RtcError INVALID_PARAMETER for a bad argument.
   */
  getVideoTrack(config?: TrackQuery): MediaStreamTrack | null {
    return api.sync('getVideoTrack', () => {
      const { userId, streamType } = this.#query(config, 'getVideoTrack');
      if (!userId || userId === this.#room.userId) return (streamType === 'main' ? this.#video?.track : this.#screen?.track) ?? null;
      const user = this.#room.remoteUsers.get(userId);
      const tracks = user?.downlink?.tracks;
      const subscribed = streamType === 'main' ? user?.sent?.bigVideo || user?.sent?.smallVideo : user?.sent?.auxVideo;
      return subscribed ? (streamType === 'main' ? tracks?.video : tracks?.aux) ?? null : null;
    });
  }

  /**
   * A PNG data URL of the current frame of a local or remote video; '' when that video is not playing.
   * @throws RtcError INVALID_PARAMETER for a bad argument.
   */
  getVideoSnapshot(config?: TrackQuery): string {
    return api.sync('getVideoSnapshot', () => {
      const { userId, streamType } = this.#query(config, 'getVideoSnapshot');
      const element = !userId || userId === this.#room.userId
        ? (streamType === 'main' ? this.#video?.element : undefined)
        : this.#room.remoteUsers.get(userId)?.videoPlayers[streamType]?.elements[0];
      if (!element || element.videoWidth === 0) return '';
      const canvas = document.createElement('canvas');
      canvas.width = element.videoWidth;
      canvas.height = element.videoHeight;
      canvas.getContext('2d')?.drawImage(element, 0, 0);
      return canvas.toDataURL('image/png');
    });
  }

  /**
   * Sends an SEI message inside the published H264 video (at most 1000 bytes, 30 per second).
   * @throws RtcError INVALID_PARAMETER for a bad buffer or payload type; INVALID_OPERATION (5108) without
   * create({enableSEI: true}), (5101) when not joined, (5109) when no video is published.
   */
  sendSEIMessage(buffer: ArrayBuffer, options?: SEIMessageOptions): void {
    api.sync('sendSEIMessage', () => {
      // Its own limit (30 messages and 8000 bytes per second) replaces the generic per-function one.
      if (this.#destroyed) throw invalidOperation(undefined, MESSAGE.CLIENT_DESTROYED, 'sendSEIMessage');
      const { seiPayloadType, toSubStream } = validateSEI(buffer, options);
      if (!this.#options.enableSEI) throw invalidOperation(EXTRA_CODE.NOT_ENABLE_SEI, 'SEI is not enabled: create the client with TRTC.create({ enableSEI: true })', 'sendSEIMessage');
      if (!this.#sei) throw envNotSupported(EXTRA_CODE.SEI, 'this browser cannot insert SEI (no encoded transforms)', 'sendSEIMessage');
      if (!this.#room.machine.is('joined')) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() before sendSEIMessage()', 'sendSEIMessage');
      const slot = toSubStream ? 'aux' : 'video';
      const published = toSubStream ? this.#screen : this.#video;
      const sender = this.#room.publisher.peerConnection?.getTransceivers()[UPLINK_SLOTS.indexOf(slot)]?.sender;
      if (!published?.track || !sender?.track) throw invalidOperation(EXTRA_CODE.NEED_CALL_PUBLISHED, 'SEI messages need H264, a published stream and a video track', 'sendSEIMessage');
      const codec = sender.getParameters().codecs?.[0]?.mimeType;
      if (codec && codec.toLowerCase() !== 'video/h264') throw envNotSupported(EXTRA_CODE.SEI, `SEI messages need H264, a published stream and a video track (the stream is ${codec})`, 'sendSEIMessage');
      if (!this.#sei.admit(buffer.byteLength)) throw invalidOperation(undefined, MESSAGE.CALL_FREQUENCY, 'sendSEIMessage');
      this.#sei.enqueue(toSubStream ? 'sub' : 'main', new Uint8Array(buffer.slice(0)), seiPayloadType);
      this.#uploader.count(STAT_KEY.SEI_MESSAGE);
    });
  }

  /**
   * Sends a custom message to everyone in the room (cmdId 1–10, 1–1000 bytes; 30 per second, 8000 bytes per second).
   * @throws RtcError INVALID_PARAMETER for a bad cmdId or buffer; INVALID_OPERATION (5101) when not joined,
   * (5107) for an audience in live ('role audience cannot call this api').
   */
  sendCustomMessage(message: CustomMessageData): void {
    api.sync('sendCustomMessage', () => {
      // Its own limit (30 messages and 8000 bytes per second) replaces the generic per-function one.
      if (this.#destroyed) throw invalidOperation(undefined, MESSAGE.CLIENT_DESTROYED, 'sendCustomMessage');
      validateCustomMessage(message);
      if (!this.#room.machine.is('joined')) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() before sendCustomMessage()', 'sendCustomMessage');
      if (!this.#room.canPublish) throw invalidOperation(EXTRA_CODE.ROLE_AUDIENCE, 'role audience cannot call this api', 'sendCustomMessage');
      this.#room.messages.send(message.cmdId, message.data);
      this.#uploader.count(STAT_KEY.CUSTOM_MESSAGE);
    });
  }
}

/** Runs `fn`, converting whatever it throws into an RtcError naming the API function. */
async function api<T>(functionName: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw RtcError.convertFrom(error, functionName);
  }
}

/** The synchronous twin of api(). */
api.sync = function sync<T>(functionName: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw RtcError.convertFrom(error, functionName);
  }
};
