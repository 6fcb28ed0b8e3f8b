import { Emitter } from './common/emitter.js';
import { ERROR_CODE, EXTRA_CODE } from './constants/error-code.js';
import { EVENT } from './constants/event.js';
import { TYPE } from './constants/type.js';
import { invalidOperation, invalidParameter, MESSAGE } from './errors/catalogue.js';
import { RtcError } from './errors/rtc-error.js';
import { LOG_LEVEL, setLevel, type LogLevel } from './log/logger.js';
import { captureCamera, captureMicrophone } from './media/capture.js';
import { AUDIO_PROFILES, DEFAULT_AUDIO_PROFILE, DEFAULT_VIDEO_PROFILE, VIDEO_PROFILES, type VideoProfile } from './media/profiles.js';
import { resolveView } from './playback/view.js';
import { VideoPlayer } from './playback/video-player.js';
import { Room } from './room/room.js';
import type { EnterRoomConfig, LocalAudioConfig, LocalVideoConfig, RemoteVideoConfig, TRTCEventTypes, TRTCOptions, VideoProfileName } from './types.js';
import { validateEnterRoom } from './validate/enter-room.js';

/** The local camera: its track and preview. */
interface LocalVideo {
  track: MediaStreamTrack;
  profile: VideoProfile;
  player: VideoPlayer;
  ownsTrack: boolean;
}

/** The local microphone. */
interface LocalAudio {
  track: MediaStreamTrack;
  ownsTrack: boolean;
}

/** Runs `fn`, converting whatever it throws into an RtcError naming the API function. */
async function api<T>(functionName: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw RtcError.convertFrom(error, functionName);
  }
}

/**
 * The client: one instance per user session. Create it with TRTC.create().
 * Every method that returns a promise rejects only with RtcError.
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
  #destroyed = false;
  #video: LocalVideo | undefined;
  #audio: LocalAudio | undefined;

  private constructor(options: TRTCOptions) {
    this.#options = options;
    this.#room = new Room(this.#events);
    this.#events.onListenerError = (error, event) => {
      console.error(`[conclave] a '${String(event)}' listener threw:`, error);
    };
  }

  /**
   * Creates a client.
   * @param options plugins, enableSEI, assetsPath.
   */
  static create(options: TRTCOptions = {}): TRTC {
    return new TRTC(options);
  }

  /**
   * Sets the console log level: TRACE 0, DEBUG 1, INFO 2 (default), WARN 3, ERROR 4, NONE 5.
   * @throws RtcError INVALID_PARAMETER for a level outside 0..5.
   */
  static setLogLevel(level: LogLevel, _enableUploadLog = true): void {
    if (!Number.isInteger(level) || level < LOG_LEVEL.TRACE || level > LOG_LEVEL.NONE) {
      throw invalidParameter(EXTRA_CODE.RANGE, 'log level must be an integer between 0 and 5', 'setLogLevel');
    }
    setLevel(level);
  }

  #checkAlive(functionName: string): void {
    if (this.#destroyed) throw invalidOperation(undefined, MESSAGE.CLIENT_DESTROYED, functionName);
  }

  /** The options this client was created with. */
  get options(): Readonly<TRTCOptions> {
    return this.#options;
  }

  /**
   * Listens to an event (see TRTC.EVENT).
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
   * Enters a room: schedules, connects to signalling, joins, then publishes any local
   * audio/video already started.
   * @throws RtcError INVALID_PARAMETER for bad options; INVALID_OPERATION when already joined
   * ('duplicate join() called'); SERVER_ERROR with the server's code as extraCode when the server
   * refuses (e.g. a bad userSig); OPERATION_FAILED on time-out.
   */
  enterRoom(config: EnterRoomConfig): Promise<void> {
    return api('enterRoom', async () => {
      this.#checkAlive('enterRoom');
      const target = validateEnterRoom(config);
      if (this.#room.state === 'joining' || this.#room.state === 'joined') {
        throw invalidOperation(EXTRA_CODE.REPEAT_CALL, MESSAGE.DUPLICATE_JOIN, 'enterRoom');
      }
      await this.#room.join(config, target);
      await this.#room.publishPending();
    });
  }

  /**
   * Leaves the room. Local capture keeps running (stop it with stopLocalVideo/stopLocalAudio).
   * Resolves even when not in a room.
   */
  exitRoom(): Promise<void> {
    return api('exitRoom', async () => {
      this.#checkAlive('exitRoom');
      await this.#room.leave();
    });
  }

  /**
   * Releases the client. After this every call fails with 'client destroyed'.
   * @throws RtcError INVALID_OPERATION while in a room ('please call leave() before destroy()').
   */
  destroy(): void {
    if (this.#destroyed) return;
    if (this.#room.state === 'joined' || this.#room.state === 'joining') {
      throw invalidOperation(undefined, MESSAGE.LEAVE_BEFORE_DESTROY, 'destroy');
    }
    this.#stopVideo();
    this.#stopAudio();
    this.#events.off('*');
    this.#destroyed = true;
  }

  /**
   * Captures the camera, renders it into `view` and publishes it when in the room.
   * @throws RtcError INVALID_PARAMETER for a bad view or profile; DEVICE_ERROR when capture fails
   * (5301 'no camera detected', 5302 not allowed…); INVALID_OPERATION when already started.
   */
  startLocalVideo(config: LocalVideoConfig = {}): Promise<void> {
    return api('startLocalVideo', async () => {
      this.#checkAlive('startLocalVideo');
      if (this.#video) throw invalidOperation(EXTRA_CODE.REPEAT_CALL, 'startLocalVideo has already been called; use updateLocalVideo', 'startLocalVideo');
      const views = resolveView(config.view, 'startLocalVideo');
      const option = config.option ?? {};
      const profile = this.#videoProfile(option.profile);
      const ownsTrack = !option.videoTrack;
      const track = option.videoTrack ?? await captureCamera(profile, option.cameraId, 'startLocalVideo');
      const mirror = option.mirror ?? 'view';
      const player = new VideoPlayer(track, views, { fillMode: option.fillMode ?? 'cover', mirror: mirror === true || mirror === 'view' || mirror === 'both' });
      this.#video = { track, profile, player, ownsTrack };
      if (config.publish !== false) {
        await this.#room.setLocalTrack('video', { track, bitrate: profile.bitrate, muted: config.mute === true });
      }
    });
  }

  #videoProfile(profile: VideoProfileName | VideoProfile | undefined): VideoProfile {
    if (profile === undefined) return VIDEO_PROFILES[DEFAULT_VIDEO_PROFILE];
    if (typeof profile === 'string') {
      const found = VIDEO_PROFILES[profile];
      if (!found) throw invalidParameter(EXTRA_CODE.RANGE, `unknown video profile '${profile}'`, 'startLocalVideo');
      return found;
    }
    const { width, height, frameRate, bitrate } = profile;
    for (const [name, value] of Object.entries({ width, height, frameRate, bitrate })) {
      if (typeof value !== 'number' || !(value > 0)) throw invalidParameter(EXTRA_CODE.TYPE, `profile.${name} must be a positive number`, 'startLocalVideo');
    }
    return { width, height, frameRate, bitrate };
  }

  /** Stops the camera, its preview and its publication. */
  stopLocalVideo(): Promise<void> {
    return api('stopLocalVideo', async () => {
      this.#checkAlive('stopLocalVideo');
      if (!this.#video) return;
      this.#stopVideo();
      await this.#room.setLocalTrack('video', undefined);
    });
  }

  #stopVideo(): void {
    const video = this.#video;
    this.#video = undefined;
    if (!video) return;
    video.player.stop();
    if (video.ownsTrack) video.track.stop();
  }

  /**
   * Captures the microphone and publishes it when in the room (local audio is never played back).
   * @throws RtcError DEVICE_ERROR when capture fails (5301 'no microphone detected'…);
   * INVALID_OPERATION when already started.
   */
  startLocalAudio(config: LocalAudioConfig = {}): Promise<void> {
    return api('startLocalAudio', async () => {
      this.#checkAlive('startLocalAudio');
      if (this.#audio) throw invalidOperation(EXTRA_CODE.REPEAT_CALL, 'startLocalAudio has already been called; use updateLocalAudio', 'startLocalAudio');
      const option = config.option ?? {};
      const profile = AUDIO_PROFILES[option.profile ?? DEFAULT_AUDIO_PROFILE];
      if (!profile) throw invalidParameter(EXTRA_CODE.RANGE, `unknown audio profile '${String(option.profile)}'`, 'startLocalAudio');
      const ownsTrack = !option.audioTrack;
      const track = option.audioTrack ?? await captureMicrophone(profile, option, 'startLocalAudio');
      this.#audio = { track, ownsTrack };
      if (config.publish !== false) {
        await this.#room.setLocalTrack('audio', { track, bitrate: profile.bitrate, muted: config.mute === true });
      }
    });
  }

  /** Stops the microphone and its publication. */
  stopLocalAudio(): Promise<void> {
    return api('stopLocalAudio', async () => {
      this.#checkAlive('stopLocalAudio');
      if (!this.#audio) return;
      this.#stopAudio();
      await this.#room.setLocalTrack('audio', undefined);
    });
  }

  #stopAudio(): void {
    const audio = this.#audio;
    this.#audio = undefined;
    if (audio?.ownsTrack) audio.track.stop();
  }

  /**
   * Receives a remote user's video and renders it into `view`.
   * @throws RtcError INVALID_OPERATION when not joined (5101), the user is not in the room (5102)
   * or does not publish that stream (5103); INVALID_PARAMETER for a bad view or stream type.
   */
  startRemoteVideo(config: RemoteVideoConfig): Promise<void> {
    return api('startRemoteVideo', async () => {
      this.#checkAlive('startRemoteVideo');
      const { userId, streamType } = this.#checkRemoteVideoConfig(config, 'startRemoteVideo');
      const views = resolveView(config.view, 'startRemoteVideo');
      await this.#room.startRemoteVideo(userId, streamType, { views, fillMode: config.option?.fillMode, mirror: config.option?.mirror });
    });
  }

  #checkRemoteVideoConfig(config: RemoteVideoConfig | undefined, functionName: string): { userId: string; streamType: 'main' | 'sub' } {
    if (!config || typeof config.userId !== 'string' || config.userId === '') {
      throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', functionName);
    }
    if (config.streamType !== 'main' && config.streamType !== 'sub') {
      throw invalidParameter(EXTRA_CODE.STREAM_TYPE, "streamType must be 'main' or 'sub'", functionName);
    }
    return { userId: config.userId, streamType: config.streamType };
  }

  /**
   * Stops receiving a remote video; userId '*' stops all of them.
   * @throws RtcError INVALID_PARAMETER when userId is missing, or streamType is missing for one user.
   */
  stopRemoteVideo(config: { userId: string; streamType?: 'main' | 'sub' }): Promise<void> {
    return api('stopRemoteVideo', async () => {
      this.#checkAlive('stopRemoteVideo');
      if (!config || typeof config.userId !== 'string' || config.userId === '') {
        throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', 'stopRemoteVideo');
      }
      if (config.userId !== '*' && config.streamType !== 'main' && config.streamType !== 'sub') {
        throw invalidParameter(EXTRA_CODE.STREAM_TYPE, "streamType is required when userId is not '*'", 'stopRemoteVideo');
      }
      await this.#room.stopRemoteVideo(config.userId, config.streamType);
    });
  }

  /**
   * Mutes or unmutes the playback of a remote user's audio; userId '*' applies to everyone.
   * @throws RtcError INVALID_PARAMETER when userId is not a string or mute not a boolean.
   */
  muteRemoteAudio(userId: string, mute: boolean): Promise<void> {
    return api('muteRemoteAudio', async () => {
      this.#checkAlive('muteRemoteAudio');
      if (typeof userId !== 'string' || userId === '') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', 'muteRemoteAudio');
      if (typeof mute !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'mute must be a boolean', 'muteRemoteAudio');
      this.#room.muteRemoteAudio(userId, mute);
    });
  }
}
