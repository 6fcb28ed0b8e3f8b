import { CallRateLimiter } from './common/rate-limit.js';
import { Emitter } from './common/emitter.js';
import { DEFAULT_SERVER_ORIGIN } from './common/server-origin.js';
import { apiCall } from './errors/api-call.js';
import { decodeFailed, invalidOperation, MESSAGE } from './errors/catalogue.js';
import type { RtcError } from './errors/rtc-error.js';
import type { LazyExperimental } from './experimental/lazy-experimental.js';
import { experimentalOf } from './experimental/client-host.js';
import type { ExperimentalAPIFunctionMap } from './experimental/types.js';
import { LocalMedia } from './local/local-media.js';
import { installLogHooks } from './log/log-hooks.js';
import { log } from './log/logger.js';
import { onDecodeFailure } from './playback/decode-tap.js';
import { LogUploader } from './log/upload.js';
import { DeviceWatcher } from './media/devices.js';
import { onPermissionChange } from './media/permissions.js';
import type { AudioPlayerContext, AudioPlayerOptions, AudioPlayerUpdateOptions } from './plugin-api/audio-player.js';
import { pluginSignal } from './plugin-api/room.js';
import { PluginManager } from './plugin-api/plugin-manager.js';
import { Room } from './room/room.js';
import { pressureEffect } from './adaptation/pressure.js';
import { SeiSender } from './sei/sei-sender.js';
import { roomStatsSources } from './stats/room-sources.js';
import { StatsReporter } from './stats/stats-reporter.js';
import { TRTCStatic } from './trtc-static.js';
import type {
  PluginWithAssets, RemoteVideoConfig, StopRemoteVideoConfig, TRTCEventTypes, TRTCOptions, TRTCPlugin,
} from './types.js';

/** Calls per second each API function allows (docs/behaviour.md §5 'call frequency limit exceeded'). */
const CALLS_PER_SECOND = 20;

/**
 * What every client is made of: its parts and their wiring, the checks every call makes, plugins and events.
 * TRTC (trtc.ts) adds the room and media API on top; members marked internal are not in the published types.
 */
export abstract class TRTCCore extends TRTCStatic {
  /** @internal */
  protected readonly _events = new Emitter<TRTCEventTypes>();
  /** @internal */
  protected readonly _room: Room;
  /** @internal */
  protected readonly _options: TRTCOptions;
  private readonly _plugins: PluginManager;
  private readonly _offDecodeFailure: () => void;
  private readonly _limiter = new CallRateLimiter(CALLS_PER_SECOND);
  private readonly _devices = new DeviceWatcher((change) => this._events.emit('device-changed', change));
  /** @internal */
  protected readonly _local: LocalMedia;
  /** @internal */
  protected readonly _stats: StatsReporter;
  /** @internal */
  protected readonly _uploader = new LogUploader();
  /** @internal */
  protected readonly _sei: SeiSender;
  /** @internal */
  protected readonly _experimental: LazyExperimental;
  private readonly _offPermission: () => void;
  private _destroyed = false;
  /** @internal */
  protected _volumeInterval = 0;

  protected constructor(options: TRTCOptions) {
    super();
    this._options = options;
    this._room = new Room(this._events);
    this._room.connection.reconnectingState = options.enableReconnectingState === true;
    this._plugins = new PluginManager(this, options.assetsPath ?? `${DEFAULT_SERVER_ORIGIN}/sdk/assets`, DEFAULT_SERVER_ORIGIN, () => {
      const id = this._uploader.identity;
      return { sdkAppId: id?.sdkAppId ?? 0, userId: id?.userId ?? '', roomId: id?.strRoomId ?? id?.roomId ?? '' };
    });
    this._local = new LocalMedia(this._room, this._events, this._devices, { audio: this._plugins.audio, video: this._plugins.video });
    this._plugins.signal = pluginSignal(() => this._room.joinedSignal);
    this._plugins.frames = this._room.frames;
    // The decoder fallback: a tapped remote video that does not decode starts TRTCVideoDecoder.
    this._offDecodeFailure = onDecodeFailure((track, userId, streamType) => {
      if (this._room.remotes.playback.players(userId)?.[streamType]?.player.track !== track) return false;
      log.warn(`remote ${streamType} video of ${userId} does not decode: falling back to TRTCVideoDecoder`);
      // As the original: the app hears 5507 naming the user and stream, and the fallback decoder takes over.
      this._events.emit('error', decodeFailed('video', userId, streamType));
      this._plugins.start('TRTCVideoDecoder', { track, userId, streamType, type: 'auto' })
        .then(() => this._plugins.updateIfLoaded('TRTCVideoDecoder', { pressureFloor: pressureEffect(this._room.pressure.state).downgradeFloor }))
        .catch((error: unknown) => log.warn('video decoder fallback failed to start:', error));
      return true;
    });
    // CPU pressure (docs/behaviour.md §4) also raises running decoders' lowest downgrade level.
    this._room.onPressure = (state) => this._plugins.updateIfLoaded('TRTCVideoDecoder', { pressureFloor: pressureEffect(state).downgradeFloor });
    this._plugins.emit = (event, data) => (event === 'error' ? this._events.emit('error', data as RtcError) : this._events.emit(event, data));
    for (const plugin of options.plugins ?? []) this._plugins.use(plugin);
    this._sei = new SeiSender(options.enableSEI === true, this._room, this._events);
    this._stats = new StatsReporter(this._events, roomStatsSources(this._room, () => {
      const audio = this._local.microphone.current;
      return audio?.track ? { track: audio.track, muted: audio.volumeMuted } : undefined;
    }));
    this._devices.start();
    this._experimental = experimentalOf(this._events, this._room, this._local, this);
    this._offPermission = onPermissionChange((result) => this._events.emit('permission-state-change', result as { camera: PermissionState; microphone: PermissionState }));
    installLogHooks(this._events, this._uploader, () => this._room.machine.is('left'));
  }

  /** Same as TRTC.setCurrentSpeaker. */
  setCurrentSpeaker(speakerId: string): Promise<void> {
    return TRTCStatic.setCurrentSpeaker(speakerId);
  }

  /** @internal Runs an async API call: destroyed check, call frequency limit, RtcError conversion. */
  protected _call<T>(functionName: string, fn: () => Promise<T>): Promise<T> {
    return apiCall(functionName, async () => {
      this._guard(functionName);
      return fn();
    });
  }

  /** @internal The checks every call makes first; throws RtcError. */
  protected _guard(functionName: string, rateLimited = true): void {
    if (this._destroyed) throw invalidOperation(undefined, MESSAGE.CLIENT_DESTROYED, functionName);
    if (rateLimited) this._limiter.check(functionName);
  }

  /** The options this client was created with. */
  get options(): Readonly<TRTCOptions> {
    return this._options;
  }

  /**
   * Registers a plugin (a plugin class, or `{plugin, assetsPath}`).
   * @throws RtcError INVALID_PARAMETER for anything else.
   */
  use(plugin: TRTCPlugin | PluginWithAssets): void {
    this._guard('use');
    this._plugins.use(plugin);
  }

  /**
   * Starts a registered plugin by name; AudioPlayer resolves with the player it made.
   * @throws RtcError ENV_NOT_SUPPORTED (5210) when no plugin of that name is registered.
   */
  startPlugin(name: 'AudioPlayer', options: AudioPlayerOptions): Promise<AudioPlayerContext>;
  startPlugin(name: string, options?: unknown): Promise<unknown>;
  startPlugin(name: string, options?: unknown): Promise<unknown> {
    return this._call('startPlugin', () => this._plugins.start(name, options));
  }

  /** Updates a started plugin (AudioPlayer resolves with the player). @throws RtcError ENV_NOT_SUPPORTED (5210) for an unknown plugin. */
  updatePlugin(name: 'AudioPlayer', options: AudioPlayerUpdateOptions): Promise<AudioPlayerContext | undefined>;
  updatePlugin(name: string, options?: unknown): Promise<unknown>;
  updatePlugin(name: string, options?: unknown): Promise<unknown> {
    return this._call('updatePlugin', () => this._plugins.update(name, options));
  }

  /** Stops a plugin. @throws RtcError ENV_NOT_SUPPORTED (5210) for an unknown plugin. */
  stopPlugin(name: string, options?: unknown): Promise<unknown> {
    return this._call('stopPlugin', () => this._plugins.stop(name, options));
  }

  /**
   * Listens to an event (see TRTC.EVENT). A listener that throws never breaks the SDK.
   * @returns this client, for chaining.
   */
  on<E extends keyof TRTCEventTypes>(event: E, handler: TRTCEventTypes[E], context?: unknown): this {
    this._events.on(event, handler, context);
    return this;
  }

  /**
   * Removes a listener; `off('*')` removes every listener.
   * @returns this client, for chaining.
   */
  off<E extends keyof TRTCEventTypes>(event: E | '*', handler?: TRTCEventTypes[E], context?: unknown): this {
    this._events.off(event, handler, context);
    return this;
  }

  /**
   * Releases the client: stops local capture and removes listeners. After this every call fails with
   * 'client destroyed'.
   * @throws RtcError INVALID_OPERATION while joining or in a room ('please call leave() before destroy()').
   */
  destroy(): void {
    if (this._destroyed) return;
    if (this._room.machine.is('joining', 'joined')) throw invalidOperation(undefined, MESSAGE.LEAVE_BEFORE_DESTROY, 'destroy');
    this._local.release();
    this._plugins.destroy();
    this._offDecodeFailure();
    this._devices.stop();
    this._offPermission();
    this._experimental.release();
    this._stats.stop();
    this._events.off('*');
    this._destroyed = true;
  }

  /** @internal True when the query names this user (no userId, '' or our own). */
  protected _isLocal(userId: string): boolean {
    return !userId || userId === this._room.userId;
  }

  /**
   * Runs an API the original marks experimental (the names of ExperimentalAPIFunctionMap).
   * @throws RtcError INVALID_PARAMETER ('experimental api <name> does not exist.') for another name, and each
   * API's own errors.
   */
  callExperimentalAPI<N extends keyof ExperimentalAPIFunctionMap>(name: N, options?: ExperimentalAPIFunctionMap[N]): Promise<void> {
    return this._call('callExperimentalAPI', () => this._experimental.call(name, options));
  }

  // The calls the experimental API replays (playback quality switching): TRTC's.
  abstract startRemoteVideo(config: RemoteVideoConfig): Promise<void>;
  abstract updateRemoteVideo(config: RemoteVideoConfig): Promise<void>;
  abstract stopRemoteVideo(config: StopRemoteVideoConfig): Promise<void>;
  abstract muteRemoteAudio(userId: string, mute: boolean): Promise<void>;
}
