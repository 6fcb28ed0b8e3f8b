import type { Emitter } from '../common/emitter.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, MESSAGE } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import type { DeviceWatcher } from '../media/devices.js';
import { LocalAudio } from '../media/local-audio.js';
import type { LocalMediaEnv, SlotContent, SlotPublisher } from '../media/local-media-env.js';
import { LocalVideo } from '../media/local-video.js';
import { ScreenShare } from '../media/screen-share.js';
import type { AudioBus } from '../plugin-api/audio.js';
import type { VideoBus } from '../plugin-api/video.js';
import type { Room } from '../room/room.js';
import type {
  LocalAudioConfig, LocalVideoConfig, ScreenShareConfig, TRTCEventTypes, UpdateLocalAudioConfig, UpdateScreenShareConfig,
} from '../types.js';
import { prepareLocalAudio, prepareLocalVideo, prepareScreenShare } from '../validate/local-media.js';
import { LocalResource } from './local-resource.js';

/**
 * The client's local media: camera, microphone and screen share, each a LocalResource bound to the
 * room's uplink slots. Publishing is refused for an audience in live (docs/behaviour.md §6); tracks started before
 * joining wait for the join (or for switchRole('anchor')).
 */
export class LocalMedia {
  readonly camera: LocalResource<LocalVideo, LocalVideoConfig, LocalVideoConfig>;
  readonly microphone: LocalResource<LocalAudio, LocalAudioConfig, UpdateLocalAudioConfig>;
  readonly screen: LocalResource<ScreenShare, ScreenShareConfig, UpdateScreenShareConfig>;
  private readonly _room: Room;

  /** `buses`: the plugins' side of the microphone and camera (effects route the tracks through them). */
  constructor(room: Room, events: Emitter<TRTCEventTypes>, devices: DeviceWatcher, buses: { audio?: AudioBus; video?: VideoBus } = {}) {
    this._room = room;
    const env: LocalMediaEnv = {
      enable2k4k: () => room.schedule?.trtcAutoConf?.enable2k4k === true,
      emitError: (error) => events.emit('error', error),
      deviceActive: (kind, track) => void devices.active(kind, track),
      // userId '' until the room is entered, as the original.
      videoSizeChanged: (streamType, width, height) => events.emit('video-size-changed', {
        userId: room.machine.is('joining', 'joined') ? room.userId : '', streamType, newWidth: width, newHeight: height,
      }),
    };
    this.camera = new LocalResource({
      name: 'camera',
      notStartedCode: EXTRA_CODE.NEED_VIDEO,
      prepare: prepareLocalVideo,
      // On update only a request to start publishing is refused.
      check: (config, fn, phase) => {
        this._checkMayPublish(fn, phase === 'start' ? config?.publish !== false : config?.publish === true);
        if (phase === 'start' && this.screen.current?.streamType === 'main') throw invalidOperation(undefined, "the screen is shared as the main stream (streamType 'main')", fn);
      },
      create: () => new LocalVideo(this._slot('video'), this._slot('small'), env, buses.video),
    });
    this.microphone = new LocalResource({
      name: 'microphone',
      notStartedCode: EXTRA_CODE.NEED_AUDIO,
      prepare: prepareLocalAudio,
      check: (config, fn, phase) => {
        if (phase === 'start') this._checkMayPublish(fn, config?.publish !== false);
      },
      create: () => new LocalAudio(this._slot('audio'), env, buses.audio),
    });
    this.screen = new LocalResource({
      name: 'screen share',
      notStartedCode: EXTRA_CODE.NEED_VIDEO,
      prepare: prepareScreenShare,
      check: (config, fn, phase) => {
        if (phase !== 'start') return;
        this._checkMayPublish(fn, config?.publish !== false);
        if (config?.streamType === 'main') {
          // The main stream carries one video: the camera's or the screen's.
          if (this.camera.current) throw invalidOperation(undefined, "streamType 'main' needs the camera stopped (stopLocalVideo)", fn);
          return;
        }
        const sharing = [...room.remoteUsers.values()].find((user) => user.state.hasAuxiliary);
        if (sharing) throw invalidOperation(undefined, `only one screen share per room: '${sharing.userId}' is sharing`, fn);
      },
      create: () => new ScreenShare({ main: this._slot('video'), sub: this._slot('aux') }, () => {
        // The browser's own "Stop sharing" button.
        // Sharing has ended whatever a release step says (a failure is logged by the share, and here).
        this.screen.stop().catch((error: unknown) => log.warn('stopping the screen share failed:', error)).finally(() => events.emit('screen-share-stopped'));
      }, this._screenAudio, env.videoSizeChanged),
    });
  }

  /** Refuses publishing for an audience in live (docs/behaviour.md §6) once joined. */
  private _checkMayPublish(functionName: string, publishes: boolean): void {
    if (publishes && this._room.machine.is('joined') && !this._room.canPublish) {
      throw invalidOperation(EXTRA_CODE.ROLE_AUDIENCE, MESSAGE.AUDIENCE_PUBLISH, functionName);
    }
  }

  /** Binds a local slot to the room's publishing. */
  private _slot(slot: 'audio' | 'video' | 'small' | 'aux'): SlotPublisher {
    const publisher = this._room.publisher;
    return {
      publish: (content: SlotContent) => publisher.setLocalTrack(slot, { ...content }),
      unpublish: () => publisher.setLocalTrack(slot, undefined),
      replace: (track, encoding) => publisher.replaceTrack(slot, track, encoding),
      setEncoding: (encoding) => publisher.setEncoding(slot, encoding),
      setMuted: (muted) => publisher.setMuted(slot, muted),
    };
  }

  /** System audio of a screen share: mixed into the microphone, or alone on the audio slot without one. */
  private readonly _screenAudio = {
    add: async (track: MediaStreamTrack) => {
      const audio = this.microphone.current;
      if (audio) await audio.mix(track);
      else await this._room.publisher.setLocalTrack('audio', { track, muted: false, encoding: { maxBitrateKbps: 64 } });
    },
    remove: async (track: MediaStreamTrack) => {
      const audio = this.microphone.current;
      if (audio) audio.unmix(track);
      else if (this._room.publisher.local('audio')?.track === track) await this._room.publisher.setLocalTrack('audio', undefined);
    },
  };

  /** Stops everything without waiting (the client is destroyed). */
  release(): void {
    this.camera.release();
    this.microphone.release();
    this.screen.release();
  }
}
