import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import { VideoPlayer, type FillMode } from '../playback/video-player.js';
import { resolveView } from '../playback/view.js';
import type { LocalVideoConfig, VideoProfileName } from '../types.js';
import { captureCamera } from './capture.js';
import { DEFAULT_VIDEO_PROFILE, VIDEO_PROFILES, type VideoProfile } from './profiles.js';

type Mirror = NonNullable<NonNullable<LocalVideoConfig['option']>['mirror']>;

/** Resolves a camera profile name or object; throws INVALID_PARAMETER for an unknown name or bad numbers. */
export function resolveVideoProfile(profile: VideoProfileName | VideoProfile | undefined, table: Readonly<Record<string, VideoProfile>>,
  fallback: string, functionName: string): VideoProfile {
  if (profile === undefined) return table[fallback];
  if (typeof profile === 'string') {
    const found = table[profile];
    if (!found) throw invalidParameter(EXTRA_CODE.RANGE, `profile must be one of ${Object.keys(table).join(', ')}`, functionName);
    return found;
  }
  if (typeof profile !== 'object' || profile === null) throw invalidParameter(EXTRA_CODE.TYPE, 'profile must be a name or {width, height, frameRate, bitrate}', functionName);
  const { width, height, frameRate, bitrate } = profile;
  for (const [name, value] of Object.entries({ width, height, frameRate, bitrate })) {
    if (typeof value !== 'number' || !(value > 0)) throw invalidParameter(EXTRA_CODE.TYPE, `profile.${name} must be a positive number`, functionName);
  }
  return { width, height, frameRate, bitrate };
}

const MIRRORS: readonly unknown[] = [true, false, 'view', 'publish', 'both'];
const FILL_MODES: readonly unknown[] = ['contain', 'cover', 'fill'];

/** Checks the option fields of start/updateLocalVideo that need no device. */
export function validateLocalVideoConfig(config: LocalVideoConfig | undefined, functionName: string): void {
  if (config === undefined) return;
  if (typeof config !== 'object' || config === null) throw invalidParameter(EXTRA_CODE.TYPE, 'config must be an object', functionName);
  if (config.publish !== undefined && typeof config.publish !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'publish must be a boolean', functionName);
  if (config.mute !== undefined && typeof config.mute !== 'boolean' && typeof config.mute !== 'string') {
    throw invalidParameter(EXTRA_CODE.TYPE, 'mute must be a boolean or an image URL', functionName);
  }
  const option = config.option;
  if (option === undefined) return;
  if (option.mirror !== undefined && !MIRRORS.includes(option.mirror)) throw invalidParameter(EXTRA_CODE.RANGE, "mirror must be true, false, 'view', 'publish' or 'both'", functionName);
  if (option.fillMode !== undefined && !FILL_MODES.includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
  if (option.qosPreference !== undefined && option.qosPreference !== 'smooth' && option.qosPreference !== 'clear') {
    throw invalidParameter(EXTRA_CODE.RANGE, "qosPreference must be 'smooth' or 'clear'", functionName);
  }
  if (option.cameraId !== undefined && typeof option.cameraId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'cameraId must be a string', functionName);
  if (option.videoTrack !== undefined && !(typeof MediaStreamTrack !== 'undefined' && option.videoTrack instanceof MediaStreamTrack && option.videoTrack.kind === 'video')) {
    throw invalidParameter(EXTRA_CODE.INSTANCE, 'videoTrack must be a video MediaStreamTrack', functionName);
  }
  if (option.profile !== undefined) resolveVideoProfile(option.profile, VIDEO_PROFILES, DEFAULT_VIDEO_PROFILE, functionName);
}

/** What the room needs to publish the camera. */
export interface CameraPublisher {
  publish(track: MediaStreamTrack, bitrate: number, muted: boolean): Promise<void>;
  unpublish(): Promise<void>;
  replace(track: MediaStreamTrack): Promise<void>;
  setMuted(muted: boolean): Promise<void>;
}

/** The local camera: capture, preview, and what is published. */
export class LocalVideo {
  track!: MediaStreamTrack;
  profile!: VideoProfile;
  #player: VideoPlayer | undefined;
  #ownsTrack = true;
  #cameraId: string | undefined;
  #mirror: Mirror = 'view';
  #fillMode: FillMode = 'cover';
  #publish = true;
  #muted = false;
  readonly #publisher: CameraPublisher;

  constructor(publisher: CameraPublisher) {
    this.#publisher = publisher;
  }

  get published(): boolean {
    return this.#publish;
  }

  get cameraId(): string | undefined {
    return this.#cameraId;
  }

  /** The preview's video element (for snapshots). */
  get element(): HTMLVideoElement | undefined {
    return this.#player?.elements[0];
  }

  async start(config: LocalVideoConfig): Promise<void> {
    const fn = 'startLocalVideo';
    const views = resolveView(config.view, fn);
    const option = config.option ?? {};
    this.profile = resolveVideoProfile(option.profile, VIDEO_PROFILES, DEFAULT_VIDEO_PROFILE, fn);
    this.#ownsTrack = !option.videoTrack;
    this.#cameraId = option.cameraId;
    this.track = option.videoTrack ?? await captureCamera(this.profile, option.cameraId, fn);
    this.#mirror = option.mirror ?? 'view';
    this.#fillMode = option.fillMode ?? 'cover';
    this.#player = new VideoPlayer(this.track, views, { fillMode: this.#fillMode, mirror: this.#mirrorsView });
    this.#publish = config.publish !== false;
    this.#muted = config.mute === true;
    if (this.#publish) await this.#publisher.publish(this.track, this.profile.bitrate, this.#muted);
  }

  get #mirrorsView(): boolean {
    return this.#mirror === true || this.#mirror === 'view' || this.#mirror === 'both';
  }

  async update(config: LocalVideoConfig): Promise<void> {
    const fn = 'updateLocalVideo';
    const option = config.option ?? {};
    if (option.profile !== undefined) {
      this.profile = resolveVideoProfile(option.profile, VIDEO_PROFILES, DEFAULT_VIDEO_PROFILE, fn);
      if (this.#ownsTrack) {
        await this.track.applyConstraints({ width: { ideal: this.profile.width }, height: { ideal: this.profile.height }, frameRate: { ideal: this.profile.frameRate } })
          .catch((error: unknown) => log.warn('applyConstraints failed', error));
      }
    }
    if (option.cameraId !== undefined && option.cameraId !== this.#cameraId) {
      // Switching to the device in use is ignored (SPEC §5).
      const track = await captureCamera(this.profile, option.cameraId, fn);
      if (this.#ownsTrack) this.track.stop();
      this.track = track;
      this.#ownsTrack = true;
      this.#cameraId = option.cameraId;
      this.#player?.setTrack(track);
      if (this.#publish) await this.#publisher.replace(track);
    }
    if (option.videoTrack !== undefined && option.videoTrack !== this.track) {
      if (this.#ownsTrack) this.track.stop();
      this.track = option.videoTrack;
      this.#ownsTrack = false;
      this.#player?.setTrack(this.track);
      if (this.#publish) await this.#publisher.replace(this.track);
    }
    if (option.mirror !== undefined || option.fillMode !== undefined || config.view !== undefined) {
      this.#mirror = option.mirror ?? this.#mirror;
      this.#fillMode = option.fillMode ?? this.#fillMode;
      const views = config.view !== undefined ? resolveView(config.view, fn) : undefined;
      this.#player?.update({ mirror: this.#mirrorsView, fillMode: this.#fillMode }, views);
    }
    if (config.publish !== undefined && config.publish !== this.#publish) {
      this.#publish = config.publish;
      if (this.#publish) await this.#publisher.publish(this.track, this.profile.bitrate, this.#muted);
      else await this.#publisher.unpublish();
    }
    if (config.mute !== undefined && (config.mute === true) !== this.#muted) {
      this.#muted = config.mute === true;
      await this.#publisher.setMuted(this.#muted);
    }
  }

  async stop(): Promise<void> {
    this.#player?.stop();
    this.#player = undefined;
    if (this.#ownsTrack) this.track?.stop();
    if (this.#publish) await this.#publisher.unpublish();
  }
}
