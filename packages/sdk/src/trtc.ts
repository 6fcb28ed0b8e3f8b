import { DEFAULT_SERVER_ORIGIN } from './common/server-origin.js';
import { EXTRA_CODE } from './constants/error-code.js';
import { apiCallSync } from './errors/api-call.js';
import { invalidOperation, MESSAGE } from './errors/catalogue.js';
import { log } from './log/logger.js';
import { STAT_KEY } from './log/upload.js';
import { snapshotOf } from './playback/snapshot.js';
import { SDK_VERSION } from './room/room.js';
import { TRTCCore } from './trtc-core.js';
import type {
  CustomMessageData, EnterRoomConfig, SwitchRoomConfig, LocalAudioConfig, LocalVideoConfig, RemoteVideoConfig,
  ScreenShareConfig, SEIMessageOptions, StopRemoteVideoConfig, TrackQuery, TRTCOptions, UpdateLocalAudioConfig,
  UpdateScreenShareConfig,
} from './types.js';
import {
  validateBoolean, validateCreateOptions, validateRemoteVideoConfig,
  validateStopRemoteVideo, validateSwitchRole, validateTrackQuery, validateUserIdArg,
} from './validate/client.js';
import { lenientCreateOptions, lenientEnterRoom } from './validate/lenient.js';
import { quickStartOf, resolveProxy, validateEnterRoom } from './validate/enter-room.js';
import { validateSwitchRoom } from './validate/switch-room.js';
import { validateCustomMessage, validateVolume, validateVolumeInterval } from './validate/messages.js';

/**
 * The client: one instance per user session. Create it with TRTC.create().
 * Every method that returns a promise rejects only with RtcError; synchronous methods throw only RtcError.
 * This class is the facade: it checks calls and hands them to the room, local media, SEI and plugins; its
 * parts, their wiring, plugins and events are in TRTCCore (trtc-core.ts).
 */
export class TRTC extends TRTCCore {
  private constructor(options: TRTCOptions) {
    super(options);
  }

  /**
   * Creates a client.
   * @param options plugins, enableSEI, assetsPath, volumeType.
   * @throws RtcError INVALID_PARAMETER for options of the wrong type.
   */
  static create(options: TRTCOptions = {}): TRTC {
    const read = lenientCreateOptions(options);
    validateCreateOptions(read);
    return new TRTC(read);
  }

  /**
   * Enters a room: schedules, connects to signalling, joins, then publishes any local audio/video
   * already started (not for an audience in live).
   * @throws RtcError INVALID_PARAMETER for bad options; INVALID_OPERATION when already joined or joining
   * ('duplicate join() called'); SERVER_ERROR with the server's code as extraCode when the server refuses
   * (e.g. a bad userSig); OPERATION_FAILED on time-out ('join room timeout'); OPERATION_ABORT when exitRoom
   * is called meanwhile.
   */
  enterRoom(given: EnterRoomConfig): Promise<void> {
    return this._call('enterRoom', async () => {
      const read = lenientEnterRoom(given) as EnterRoomConfig;
      // create({ enableAutoPlayDialog }) (5.12+) is the default of enterRoom's.
      const config = read?.enableAutoPlayDialog === undefined && this._options.enableAutoPlayDialog !== undefined
        ? { ...read, enableAutoPlayDialog: this._options.enableAutoPlayDialog } : read;
      const target = validateEnterRoom(config);
      this._room.machine.require(['initial', 'left'], 'enterRoom', MESSAGE.DUPLICATE_JOIN, EXTRA_CODE.REPEAT_CALL);
      const identity = {
        sdkAppId: config.sdkAppId, userId: config.userId, version: SDK_VERSION,
        ...(config.strRoomId !== undefined ? { strRoomId: config.strRoomId } : { roomId: config.roomId }),
      };
      const loggerProxy = resolveProxy(config.proxy).loggerBase;
      this._uploader.start({ ...identity, origin: loggerProxy ?? DEFAULT_SERVER_ORIGIN });
      log.info(`enterRoom ${config.strRoomId ?? config.roomId} as ${config.userId} (scene ${config.scene ?? 'rtc'}, role ${config.role ?? 'anchor'})`);
      if (config.quickStart && !quickStartOf(config)) log.info('quickStart dropped: it is for the live scene or an audience');
      try {
        // With enableSEI the SEI steps must be in the frame pipes before the room's links are made.
        await this._room.join(config, target, this._sei.ready());
      } catch (error) {
        log.warn('enterRoom failed:', error);
        throw error;
      }
      this._uploader.start({ ...identity, origin: loggerProxy ?? this._room.schedule?.config.loggerDomain ?? DEFAULT_SERVER_ORIGIN });
      log.info(`entered room ${config.strRoomId ?? config.roomId} as ${config.userId}`);
      this._uploader.count(STAT_KEY.ENTER_ROOM);
      this._stats.start();
      await this._room.publisher.publishPending();
    });
  }

  /**
   * Leaves the room; a join in progress is aborted. Local capture keeps running (stop it with
   * stopLocalVideo / stopLocalAudio). Resolves when not in a room.
   */
  exitRoom(): Promise<void> {
    return this._call('exitRoom', async () => {
      if (this._room.machine.is('joining', 'joined')) {
        log.info(`exitRoom: ${this._room.userId} left`);
        this._uploader.count(STAT_KEY.EXIT_ROOM);
      }
      await this._room.leave(); // ends the log upload (connection-state-changed DISCONNECTED)
    });
  }

  /**
   * Switches role in the live scene: to 'audience' stops publishing first; to 'anchor' publishes the
   * local tracks that were waiting.
   * @throws RtcError INVALID_PARAMETER for another role; INVALID_OPERATION outside live ('switchRole can only
   * be called in live mode') or when not joining or joined; OPERATION_FAILED when the server refuses.
   */
  switchRole(role: 'anchor' | 'audience', option?: { privateMapKey?: string; latencyLevel?: number }): Promise<void> {
    return this._call('switchRole', async () => {
      const read = validateSwitchRole(role, option);
      this._room.machine.require(['joining', 'joined'], 'switchRole', 'switchRole can only be called while joining or joined', EXTRA_CODE.NOT_JOINED);
      if (this._room.scene !== 'live') throw invalidOperation(undefined, MESSAGE.SWITCH_ROLE_SCENE, 'switchRole');
      await this._room.switchRole(role, read);
    });
  }

  /**
   * Moves to another room without leaving the session (one server command, authorised like a join): the old
   * room's users see this user leave and this client sees them exit; the new room's users see it enter; local
   * tracks are published again there (an anchor's).
   * @throws RtcError INVALID_OPERATION when not in a room; INVALID_PARAMETER for the same room (extraCode 5020),
   * a room of the other type (5019), a missing or invalid room id or userSig; SERVER_ERROR when the server
   * refuses (bad userSig, banned, the room full), the session then stays where it was.
   */
  switchRoom(config: SwitchRoomConfig): Promise<void> {
    return this._call('switchRoom', async () => {
      this._room.machine.require(['joined'], 'switchRoom', 'please call enterRoom() before switchRoom()', EXTRA_CODE.NOT_JOINED);
      const current = this._room.target;
      if (!current) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() before switchRoom()', 'switchRoom');
      await this._room.switchRoom(validateSwitchRoom(config, current));
    });
  }

  /**
   * Captures the camera, renders it into `view` and publishes it (now, or when the room is joined).
   * @throws RtcError INVALID_PARAMETER for a bad view or option; INVALID_OPERATION (5104) when already started,
   * (5107) for an audience in live; DEVICE_ERROR when capture fails (5301 'no camera detected', 5302 not allowed…).
   */
  startLocalVideo(config: LocalVideoConfig = {}): Promise<void> {
    return this._call('startLocalVideo', () => this._local.camera.start('startLocalVideo', config));
  }

  /**
   * Changes the camera: profile, cameraId (swaps the track without renegotiation; the device in use is
   * ignored), view, mirror, fillMode, publish, mute.
   * @throws RtcError INVALID_OPERATION (5105) when the camera is not started; INVALID_PARAMETER for bad options.
   */
  updateLocalVideo(config: LocalVideoConfig): Promise<void> {
    return this._call('updateLocalVideo', () => this._local.camera.update('updateLocalVideo', config));
  }

  /** Stops the camera, its preview and its publication; repeated calls are merged. */
  stopLocalVideo(): Promise<void> {
    return this._call('stopLocalVideo', () => this._local.camera.stop());
  }

  /**
   * Captures the microphone and publishes it (local audio is never played back).
   * @throws RtcError INVALID_OPERATION (5104) when already started, (5107) for an audience in live;
   * DEVICE_ERROR when capture fails (5301 'no microphone detected'…); INVALID_PARAMETER for bad options.
   */
  startLocalAudio(config: LocalAudioConfig = {}): Promise<void> {
    return this._call('startLocalAudio', () => this._local.microphone.start('startLocalAudio', config));
  }

  /**
   * Changes the microphone: microphoneId, processing flags, audioTrack, publish, mute.
   * @throws RtcError INVALID_OPERATION (5106) when the microphone is not started; INVALID_PARAMETER for bad options.
   */
  updateLocalAudio(config: UpdateLocalAudioConfig): Promise<void> {
    return this._call('updateLocalAudio', () => this._local.microphone.update('updateLocalAudio', config));
  }

  /** Stops the microphone and its publication; repeated calls are merged. */
  stopLocalAudio(): Promise<void> {
    return this._call('stopLocalAudio', () => this._local.microphone.stop());
  }

  /**
   * Shares the screen as the auxiliary ('sub') stream. Only one auxiliary stream per room.
   * @throws RtcError INVALID_OPERATION when already sharing, when someone else shares, or (5107) for an audience;
   * ENV_NOT_SUPPORTED (5205) without getDisplayMedia; DEVICE_ERROR when the user refuses.
   */
  startScreenShare(config: ScreenShareConfig = {}): Promise<void> {
    return this._call('startScreenShare', () => this._local.screen.start('startScreenShare', config));
  }

  /** Changes the screen share's view, fillMode or publish. @throws RtcError INVALID_OPERATION when not sharing. */
  updateScreenShare(config: UpdateScreenShareConfig): Promise<void> {
    return this._call('updateScreenShare', () => this._local.screen.update('updateScreenShare', config));
  }

  /** Stops the screen share; repeated calls are merged. */
  stopScreenShare(): Promise<void> {
    return this._call('stopScreenShare', () => this._local.screen.stop());
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
    return this._call('startRemoteVideo', async () => {
      const { userId, streamType, request, small } = validateRemoteVideoConfig(config, 'startRemoteVideo');
      await this._room.remotes.startRemoteVideo(userId, streamType, { ...request, views: request.views ?? [] }, small);
      await this._experimental.remoteVideoOptions(userId, streamType, config.option);
    });
  }

  /**
   * Changes a playing remote video: view, fillMode, mirror, small (switches between the big and the
   * small stream; a failed switch is retried up to 10 times), receiveWhenViewVisible, viewRoot.
   * @throws RtcError as startRemoteVideo, and INVALID_OPERATION when that video is not started.
   */
  updateRemoteVideo(config: RemoteVideoConfig): Promise<void> {
    return this._call('updateRemoteVideo', async () => {
      const { userId, streamType, request, small } = validateRemoteVideoConfig(config, 'updateRemoteVideo');
      await this._room.remotes.updateRemoteVideo(userId, streamType, request, small);
      await this._experimental.remoteVideoOptions(userId, streamType, config.option);
    });
  }

  /**
   * Stops receiving a remote video; userId '*' stops all of them.
   * @throws RtcError INVALID_PARAMETER when userId is missing, or streamType is missing for one user.
   */
  stopRemoteVideo(config: StopRemoteVideoConfig): Promise<void> {
    return this._call('stopRemoteVideo', async () => {
      const { userId, streamType } = validateStopRemoteVideo(config);
      await this._room.remotes.stopRemoteVideo(userId, streamType);
    });
  }

  /**
   * Mutes or unmutes the playback of a remote user's audio; userId '*' applies to everyone (also users who
   * enter later). Unmuting also receives the audio when enterRoom had autoReceiveAudio false.
   * @throws RtcError INVALID_PARAMETER when userId is not a string or mute not a boolean.
   */
  muteRemoteAudio(userId: string, mute: boolean): Promise<void> {
    return this._call('muteRemoteAudio', async () => {
      validateUserIdArg(userId, 'muteRemoteAudio');
      validateBoolean(mute, 'mute', 'muteRemoteAudio');
      await this._room.remotes.muteRemoteAudio(userId, mute);
    });
  }

  /**
   * Sets the playback volume of a remote user ('*' for everyone): 0–100, default 100; above 100 amplifies
   * (through Web Audio).
   * @throws RtcError INVALID_PARAMETER for a missing userId or a volume below 0.
   */
  setRemoteAudioVolume(userId: string, volume: number): void {
    apiCallSync('setRemoteAudioVolume', () => {
      this._guard('setRemoteAudioVolume');
      validateUserIdArg(userId, 'setRemoteAudioVolume');
      this._room.remotes.setRemoteAudioVolume(userId, validateVolume(volume, 'setRemoteAudioVolume'));
    });
  }

  /**
   * Turns on the audio-volume event every `interval` ms (default 2000, at least 100; 0 or less turns it off).
   * @throws RtcError INVALID_PARAMETER when interval is not a number.
   */
  enableAudioVolumeEvaluation(interval = 2000, enableInBackground = false): void {
    apiCallSync('enableAudioVolumeEvaluation', () => {
      this._guard('enableAudioVolumeEvaluation');
      const checked = validateVolumeInterval(interval);
      validateBoolean(enableInBackground, 'enableInBackground', 'enableAudioVolumeEvaluation');
      this._volumeInterval = checked;
      this._stats.setVolumeInterval(checked, enableInBackground);
    });
  }

  /** The current audio-volume interval (0 = off). */
  get audioVolumeInterval(): number {
    return this._volumeInterval;
  }

  /**
   * The audio track of the local microphone (no userId) or of a remote user; null when there is none.
   * @throws RtcError INVALID_PARAMETER for a bad argument.
   */
  getAudioTrack(configOrUserId?: string | TrackQuery): MediaStreamTrack | null {
    return apiCallSync('getAudioTrack', () => {
      const { userId } = validateTrackQuery(configOrUserId, 'getAudioTrack');
      if (this._isLocal(userId)) return this._local.microphone.current?.track ?? null;
      return this._room.remotes.receivedTrack(userId, 'audio') ?? null;
    });
  }

  /**
   * The video track of the local camera / screen (no userId) or of a remote user; null when there is none.
   * With `processed: true` and the local camera going through video effects (or the publish mirror, or a
   * mute image), a clone of the track others receive — as the original (5.8.2+), the app stops that clone;
   * otherwise the captured track.
   * @throws RtcError INVALID_PARAMETER for a bad argument.
   */
  getVideoTrack(config?: TrackQuery): MediaStreamTrack | null {
    return apiCallSync('getVideoTrack', () => {
      const { userId, streamType, processed } = validateTrackQuery(config, 'getVideoTrack');
      if (this._isLocal(userId) && streamType === 'main') {
        const camera = this._local.camera.current;
        if (!camera) return null;
        // The screen share is never processed (the original's too): processed only changes the camera's answer.
        return processed && camera.publishedTrack !== camera.track ? camera.publishedTrack.clone() : camera.track;
      }
      if (this._isLocal(userId)) return this._local.screen.current?.track ?? null;
      return this._room.remotes.receivedTrack(userId, streamType) ?? null;
    });
  }

  /**
   * A PNG data URL of the current frame of a local or remote video; '' when that video is not playing.
   * @throws RtcError INVALID_PARAMETER for a bad argument.
   */
  getVideoSnapshot(config?: TrackQuery): string {
    return apiCallSync('getVideoSnapshot', () => {
      const { userId, streamType } = validateTrackQuery(config, 'getVideoSnapshot');
      return snapshotOf(this._isLocal(userId)
        ? (streamType === 'main' ? this._local.camera.current?.element : undefined)
        : this._room.remotes.playback.players(userId)?.[streamType]?.player.elements[0]);
    });
  }

  /**
   * Sends an SEI message inside the published H264 video (at most 1000 bytes, 30 per second).
   * @throws RtcError INVALID_PARAMETER for a bad buffer or payload type; INVALID_OPERATION (5108) without
   * create({enableSEI: true}), (5101) when not joined, (5109) when no video is published.
   */
  sendSEIMessage(buffer: ArrayBuffer, options?: SEIMessageOptions): void {
    apiCallSync('sendSEIMessage', () => {
      // Its own limit (30 messages and 8000 bytes per second) replaces the generic per-function one.
      this._guard('sendSEIMessage', false);
      this._sei.send(buffer, options, (streamType) => (streamType === 'main' ? this._local.camera.current : this._local.screen.current)?.track);
      this._uploader.count(STAT_KEY.SEI_MESSAGE);
    });
  }

  /**
   * Sends a custom message to everyone in the room (cmdId 1–10, 1–1000 bytes; 30 per second, 8000 bytes per second).
   * @throws RtcError INVALID_PARAMETER for a bad cmdId or buffer; INVALID_OPERATION (5101) when not joined,
   * (5107) for an audience in live ('role audience cannot call this api').
   */
  sendCustomMessage(message: CustomMessageData): void {
    apiCallSync('sendCustomMessage', () => {
      // Its own limit (30 messages and 8000 bytes per second) replaces the generic per-function one.
      this._guard('sendCustomMessage', false);
      validateCustomMessage(message);
      if (!this._room.machine.is('joined')) throw invalidOperation(EXTRA_CODE.NOT_JOINED, 'please call enterRoom() before sendCustomMessage()', 'sendCustomMessage');
      if (!this._room.canPublish) throw invalidOperation(EXTRA_CODE.ROLE_AUDIENCE, 'role audience cannot call this api', 'sendCustomMessage');
      this._room.messages.send(message.cmdId, message.data);
      this._uploader.count(STAT_KEY.CUSTOM_MESSAGE);
    });
  }
}
