import { EXTRA_CODE } from '../constants/error-code.js';
import { deviceError, envNotSupported, invalidParameter } from '../errors/catalogue.js';
import { VideoPlayer, type FillMode } from '../playback/video-player.js';
import { resolveView } from '../playback/view.js';
import type { ScreenShareConfig, UpdateScreenShareConfig } from '../types.js';
import { SCREEN_PROFILES, type VideoProfile } from './profiles.js';
import { resolveVideoProfile } from './local-video.js';

/** Checks startScreenShare's options. */
export function validateScreenShareConfig(config: ScreenShareConfig | undefined, functionName: string): void {
  if (config === undefined) return;
  if (typeof config !== 'object' || config === null) throw invalidParameter(EXTRA_CODE.TYPE, 'config must be an object', functionName);
  const option = config.option;
  if (!option) return;
  if (option.profile !== undefined) resolveVideoProfile(option.profile as VideoProfile, SCREEN_PROFILES, '1080p', functionName);
  if (option.fillMode !== undefined && !['contain', 'cover', 'fill'].includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
  if (option.preferDisplaySurface !== undefined && !['current-tab', 'tab', 'window', 'monitor'].includes(option.preferDisplaySurface)) {
    throw invalidParameter(EXTRA_CODE.RANGE, "preferDisplaySurface must be 'current-tab', 'tab', 'window' or 'monitor'", functionName);
  }
  if (option.qosPreference !== undefined && option.qosPreference !== 'smooth' && option.qosPreference !== 'clear') {
    throw invalidParameter(EXTRA_CODE.RANGE, "qosPreference must be 'smooth' or 'clear'", functionName);
  }
  if (option.systemAudio !== undefined && typeof option.systemAudio !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'systemAudio must be a boolean', functionName);
}

/** What the room needs to publish the screen. */
export interface ScreenPublisher {
  publish(track: MediaStreamTrack, bitrate: number): Promise<void>;
  unpublish(): Promise<void>;
}

/** The screen share: captured with getDisplayMedia, published as the auxiliary ('sub') stream. */
export class ScreenShare {
  track!: MediaStreamTrack;
  profile!: VideoProfile;
  #player: VideoPlayer | undefined;
  #ownsTrack = true;
  #publish = true;
  readonly #publisher: ScreenPublisher;
  readonly #onEnded: () => void;

  /** @param onEnded called when the user stops sharing from the browser's own UI. */
  constructor(publisher: ScreenPublisher, onEnded: () => void) {
    this.#publisher = publisher;
    this.#onEnded = onEnded;
  }

  async start(config: ScreenShareConfig): Promise<void> {
    const fn = 'startScreenShare';
    const views = resolveView(config.view, fn);
    const option = config.option ?? {};
    this.profile = resolveVideoProfile(option.profile as VideoProfile | undefined, SCREEN_PROFILES, '1080p', fn);
    if (option.videoTrack) {
      this.track = option.videoTrack;
      this.#ownsTrack = false;
    } else {
      if (typeof navigator === 'undefined' || typeof navigator.mediaDevices?.getDisplayMedia !== 'function') {
        throw envNotSupported(EXTRA_CODE.SCREEN_SHARE, 'screen sharing is not supported in this browser', fn);
      }
      try {
        const stream = await navigator.mediaDevices.getDisplayMedia({
          video: { width: { ideal: this.profile.width }, height: { ideal: this.profile.height }, frameRate: { ideal: this.profile.frameRate } },
          audio: option.systemAudio ? { echoCancellation: true, noiseSuppression: false, autoGainControl: false } : false,
        });
        this.track = stream.getVideoTracks()[0];
        for (const audio of stream.getAudioTracks()) audio.stop();
      } catch (error) {
        throw deviceError(error, 'screen', fn);
      }
      this.#ownsTrack = true;
    }
    if ('contentHint' in this.track) this.track.contentHint = 'detail';
    this.track.addEventListener('ended', this.#onEnded, { once: true });
    this.#player = new VideoPlayer(this.track, views, { fillMode: option.fillMode ?? 'contain' });
    this.#publish = config.publish !== false;
    if (this.#publish) await this.#publisher.publish(this.track, this.profile.bitrate);
  }

  async update(config: UpdateScreenShareConfig): Promise<void> {
    const views = config.view !== undefined ? resolveView(config.view, 'updateScreenShare') : undefined;
    if (config.option?.fillMode !== undefined || views) this.#player?.update({ fillMode: config.option?.fillMode as FillMode | undefined }, views);
    if (config.publish !== undefined && config.publish !== this.#publish) {
      this.#publish = config.publish;
      if (this.#publish) await this.#publisher.publish(this.track, this.profile.bitrate);
      else await this.#publisher.unpublish();
    }
  }

  async stop(): Promise<void> {
    this.track?.removeEventListener('ended', this.#onEnded);
    this.#player?.stop();
    this.#player = undefined;
    if (this.#ownsTrack) this.track?.stop();
    if (this.#publish) await this.#publisher.unpublish();
  }
}
