import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidOperation, invalidParameter } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import { VideoPlayer, type FillMode } from '../playback/video-player.js';
import { resolveView } from '../playback/view.js';
import type { LocalVideoConfig, VideoProfileName } from '../types.js';
import { captureCamera } from './capture.js';
import { recoveryCandidates } from './devices.js';
import type { LocalMediaEnv, SlotPublisher } from './local-media-env.js';
import {
  applyResolutionRules, DEFAULT_SMALL_PROFILE, DEFAULT_VIDEO_PROFILE, degradationPreferenceOf, VIDEO_PROFILES, type VideoProfile,
} from './profiles.js';
import { CaptureRecovery } from './recovery.js';
import { isSmallStreamSupported } from './support.js';
import { imageTrack, orientTrack, type DerivedTrack, type Orientation, type TrackProcessor } from './track-processing.js';

type Mirror = NonNullable<NonNullable<LocalVideoConfig['option']>['mirror']>;

/**
 * Resolves a camera profile name or object as the original does: an object's missing or unusable (not positive)
 * numbers come from `base` (the profile in use, else the default), and an unknown name keeps `base` with a
 * warning. Throws INVALID_PARAMETER only for a value of the wrong type.
 */
export function resolveVideoProfile(profile: VideoProfileName | VideoProfile | undefined, table: Readonly<Record<string, VideoProfile>>,
  fallback: string, functionName: string, base: VideoProfile = table[fallback]): VideoProfile {
  if (profile === undefined) return base;
  if (typeof profile === 'string') {
    const found = table[profile];
    if (!found) log.warn(`${functionName}: profile ${profile} is not one of ${Object.keys(table).join(', ')}; kept ${base.width}x${base.height}`);
    return found ?? base;
  }
  if (typeof profile !== 'object' || profile === null) throw invalidParameter(EXTRA_CODE.TYPE, 'profile must be a name or {width, height, frameRate, bitrate}', functionName);
  const read = (name: keyof VideoProfile): number => {
    const value: unknown = profile[name];
    if (value !== undefined && typeof value !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, `profile.${name} must be a number`, functionName);
    return value !== undefined && value > 0 ? value : base[name];
  };
  return { width: read('width'), height: read('height'), frameRate: read('frameRate'), bitrate: read('bitrate') };
}

/** The small-stream profile of an option: true → the default small stream (120p); a name or object → that profile. */
export function resolveSmallProfile(small: VideoProfileName | VideoProfile | boolean | undefined, functionName: string): VideoProfile | undefined {
  if (small === undefined || small === false) return undefined;
  if (small === true) return DEFAULT_SMALL_PROFILE;
  if (typeof small === 'string' && !VIDEO_PROFILES[small]) throw invalidParameter(EXTRA_CODE.RANGE, `small must be a boolean, a profile name or {width, height, frameRate, bitrate}`, functionName);
  const profile = resolveVideoProfile(small, VIDEO_PROFILES, '120p', functionName);
  return typeof small === 'string' ? { ...profile, bitrate: Math.min(profile.bitrate, DEFAULT_SMALL_PROFILE.bitrate * 2) } : profile;
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
  if (config.forcePublish !== undefined && typeof config.forcePublish !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'forcePublish must be a boolean', functionName);
  const option = config.option;
  if (option === undefined) return;
  if (option.mirror !== undefined && !MIRRORS.includes(option.mirror)) throw invalidParameter(EXTRA_CODE.RANGE, "mirror must be true, false, 'view', 'publish' or 'both'", functionName);
  if (option.fillMode !== undefined && !FILL_MODES.includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
  if (option.qosPreference !== undefined && option.qosPreference !== 'smooth' && option.qosPreference !== 'clear') {
    throw invalidParameter(EXTRA_CODE.RANGE, "qosPreference must be 'smooth' or 'clear'", functionName);
  }
  if (option.cameraId !== undefined && typeof option.cameraId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'cameraId must be a string', functionName);
  if (option.useFrontCamera !== undefined && typeof option.useFrontCamera !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'useFrontCamera must be a boolean', functionName);
  if (option.rotation !== undefined && ![0, 90, 180, 270].includes(option.rotation)) throw invalidParameter(EXTRA_CODE.RANGE, 'rotation must be 0, 90, 180 or 270', functionName);
  if (option.avoidCropping !== undefined && typeof option.avoidCropping !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'avoidCropping must be a boolean', functionName);
  if (option.videoTrack !== undefined && !(typeof MediaStreamTrack !== 'undefined' && option.videoTrack instanceof MediaStreamTrack && option.videoTrack.kind === 'video')) {
    throw invalidParameter(EXTRA_CODE.INSTANCE, 'videoTrack must be a video MediaStreamTrack', functionName);
  }
  if (option.profile !== undefined) resolveVideoProfile(option.profile, VIDEO_PROFILES, DEFAULT_VIDEO_PROFILE, functionName);
  resolveSmallProfile(option.small, functionName);
}

/** The mirror option's two halves: the local view, and what others receive. */
export function mirrorParts(mirror: Mirror): { view: boolean; publish: boolean } {
  return {
    view: mirror === true || mirror === 'view' || mirror === 'both',
    publish: mirror === 'publish' || mirror === 'both',
  };
}

/** The plugins' video context as the camera uses it (the plugin API's VideoBus; media sits below the plugin API). */
export interface CameraBus {
  readonly cameraProcessor: TrackProcessor | undefined;
  attach(camera: LocalVideo): void;
  detach(camera: LocalVideo): void;
}

/** The local camera: capture, preview, and what is published (big and small stream). */
export class LocalVideo {
  /** The camera (or custom) track: what the local view shows. */
  track!: MediaStreamTrack;
  profile!: VideoProfile;
  private _player: VideoPlayer | undefined;
  private _ownsTrack = true;
  private _cameraId: string | undefined;
  private _useFrontCamera: boolean | undefined;
  private _avoidCropping = false;
  private _mirror: Mirror = 'view';
  private _fillMode: FillMode = 'cover';
  private _qos: 'smooth' | 'clear' | undefined;
  private _small: VideoProfile | undefined;
  private _publish = true;
  /** true: mute flag; a string: the image URL published instead. */
  private _mute: boolean | string = false;
  /** The mirrored or image track sent instead of the camera track, if any. */
  private _derived: DerivedTrack | undefined;
  /** option.rotation (5.11+): the camera picture turned clockwise, for others and in the preview. */
  private _rotation: Orientation['rotation'] = 0;
  private _recovery: CaptureRecovery | undefined;
  /** The video-effect pipeline the camera goes through, if a plugin installed one. */
  private _processor: TrackProcessor | undefined;
  /** True while #derived is the processor's output (the preview then shows it). */
  private _processed = false;
  private readonly _main: SlotPublisher;
  private readonly _smallSlot: SlotPublisher;
  private readonly _env: LocalMediaEnv;
  /** The plugins' video context: effects put their pipeline on the camera through it. */
  private readonly _bus: CameraBus | undefined;

  constructor(main: SlotPublisher, small: SlotPublisher, env: LocalMediaEnv, bus?: CameraBus) {
    this._main = main;
    this._smallSlot = small;
    this._env = env;
    this._bus = bus;
  }

  get published(): boolean {
    return this._publish;
  }

  get cameraId(): string | undefined {
    return this._cameraId;
  }

  /** The preview's video element (for snapshots). */
  get element(): HTMLVideoElement | undefined {
    return this._player?.elements[0];
  }

  /** The track others receive (mirrored or image, else the camera track). */
  get publishedTrack(): MediaStreamTrack {
    return this._derived?.track ?? this.track;
  }

  private _resolveProfile(profile: VideoProfileName | VideoProfile | undefined, fn: string, base?: VideoProfile): VideoProfile {
    const resolved = applyResolutionRules(resolveVideoProfile(profile, VIDEO_PROFILES, DEFAULT_VIDEO_PROFILE, fn, base), {
      enable2k4k: this._env.enable2k4k(),
      userAgent: typeof navigator !== 'undefined' ? navigator.userAgent : '',
    });
    for (const warning of resolved.warnings) log.warn(warning);
    return resolved.profile;
  }

  async start(config: LocalVideoConfig): Promise<void> {
    const fn = 'startLocalVideo';
    const views = resolveView(config.view, fn);
    const option = config.option ?? {};
    this.profile = this._resolveProfile(option.profile, fn);
    this._small = resolveSmallProfile(option.small, fn);
    if (this._small && !isSmallStreamSupported()) throw envNotSupported(EXTRA_CODE.SMALL_VIDEO, 'the small stream is not supported in this browser', fn);
    this._ownsTrack = !option.videoTrack;
    this._cameraId = option.cameraId;
    this._useFrontCamera = option.useFrontCamera;
    this._avoidCropping = option.avoidCropping === true;
    this._qos = option.qosPreference;
    this.track = option.videoTrack ?? await this._capture(this._cameraId, fn);
    if (this._ownsTrack) {
      this._watchRecovery();
      this._env.deviceActive('camera', this.track);
    }
    this._mirror = option.mirror ?? 'view';
    this._rotation = option.rotation ?? 0;
    this._fillMode = option.fillMode ?? 'cover';
    this._player = new VideoPlayer(this.track, views, { fillMode: this._fillMode, mirror: mirrorParts(this._mirror).view },
      { onSizeChanged: ({ width, height }) => this._env.videoSizeChanged('main', width, height) });
    this._publish = config.publish !== false;
    this._mute = config.mute ?? false;
    this._bus?.attach(this);
    this._processor = this._bus?.cameraProcessor;
    await this._derive(fn);
    if (this._publish) await this._publishAll();
  }

  private _capture(cameraId: string | undefined, fn: string): Promise<MediaStreamTrack> {
    return captureCamera(this.profile, cameraId, fn, { useFrontCamera: this._useFrontCamera, avoidCropping: this._avoidCropping });
  }

  private _watchRecovery(): void {
    this._recovery ??= new CaptureRecovery({
      kind: 'camera',
      deviceId: () => this._cameraId,
      listDevices: () => recoveryCandidates('videoinput'),
      recapture: (deviceId) => this._capture(deviceId, 'startLocalVideo'),
      recovered: async (track, deviceId) => {
        this._cameraId = deviceId ?? this._cameraId;
        await this._useTrack(track, true, 'startLocalVideo');
        this._env.deviceActive('camera', track);
      },
      failed: (error) => this._env.emitError(error),
    });
    this._recovery.watch(this.track);
  }

  /**
   * Builds the track others receive: the image of mute-with-URL, the effect pipeline's output (mirrored
   * inside it), or the camera mirrored for 'publish'/'both'. Returns the track it replaces: the caller stops
   * it once the senders have moved to the new one (stopping it earlier would freeze what others see).
   */
  private async _derive(fn: string): Promise<DerivedTrack | undefined> {
    let next: DerivedTrack | undefined;
    const mirror = mirrorParts(this._mirror).publish;
    if (typeof this._mute === 'string') {
      next = await imageTrack(this._mute, this.profile.width, this.profile.height, fn);
    } else if (this._processor) {
      next = this._processor.process(this.track, { mirror, frameRate: this.profile.frameRate });
    } else if (mirror || this._rotation) {
      next = orientTrack(this.track, { mirror, rotation: this._rotation });
    }
    const old = this._derived;
    this._derived = next;
    // The preview shows the processed track, as others see it: the effects' output, or the rotated camera.
    this._processed = next !== undefined && typeof this._mute !== 'string' && (this._processor !== undefined || this._rotation !== 0);
    const shown = this._processed && next ? next.track : this.track;
    if (this._player && this._player.track !== shown) this._player.setTrack(shown);
    this._player?.update({ mirror: this._previewMirror() });
    return old;
  }

  /** Derives the sent track again and moves the senders to it, then stops the one it replaced. */
  private async _rederive(fn: string): Promise<void> {
    await this._resend(await this._derive(fn));
  }

  /** Moves the senders to the current track, then stops `old` (the derived track they sent before). */
  private async _resend(old: DerivedTrack | undefined): Promise<void> {
    try {
      await this._replaceSent();
    } finally {
      old?.stop();
    }
  }

  /**
   * The preview's CSS mirror. With effects the preview shows the processed track (what others receive),
   * already mirrored for 'publish'/'both', so the CSS flip undoes or keeps it to look as without effects.
   */
  private _previewMirror(): boolean {
    const { view, publish } = mirrorParts(this._mirror);
    return this._processed ? view !== publish : view;
  }

  /**
   * Routes the camera through a processor (the video-effect pipeline), or back to the plain camera with
   * undefined: big and small stream senders swap tracks (replaceTrack, no renegotiation) and the preview
   * shows the processed track.
   */
  async setProcessor(processor: TrackProcessor | undefined, fn: string): Promise<void> {
    if (processor === this._processor) return;
    this._processor = processor;
    await this._rederive(fn);
  }

  private _encoding() {
    return {
      maxBitrateKbps: this.profile.bitrate,
      maxFramerate: this.profile.frameRate,
      degradationPreference: degradationPreferenceOf(this._qos),
    };
  }

  private _smallEncoding(small: VideoProfile) {
    const width = this.publishedTrack.getSettings?.().width ?? this.profile.width;
    const height = this.publishedTrack.getSettings?.().height ?? this.profile.height;
    return {
      maxBitrateKbps: small.bitrate,
      maxFramerate: small.frameRate,
      scaleResolutionDownBy: Math.max(1, Math.min(width / small.width, height / small.height)),
      degradationPreference: degradationPreferenceOf(this._qos, 'maintain-resolution'),
    };
  }

  private async _publishAll(): Promise<void> {
    const muted = this._mute === true;
    await this._main.publish({ track: this.publishedTrack, encoding: this._encoding(), muted });
    if (this._small) await this._smallSlot.publish({ track: this.publishedTrack, encoding: this._smallEncoding(this._small), muted });
  }

  private async _unpublishAll(): Promise<void> {
    if (this._small) await this._smallSlot.unpublish();
    await this._main.unpublish();
  }

  /** Moves preview and uplink to a new source track (device switch, custom track, recovery). */
  private async _useTrack(track: MediaStreamTrack, owns: boolean, fn: string): Promise<void> {
    if (this._ownsTrack && this.track !== track) this.track.stop();
    this.track = track;
    this._ownsTrack = owns;
    this._player?.setTrack(track);
    await this._rederive(fn); // moves the preview to the processed track when effects are on
  }

  private async _replaceSent(): Promise<void> {
    if (!this._publish) return;
    await this._main.replace(this.publishedTrack, this._encoding());
    if (this._small) await this._smallSlot.replace(this.publishedTrack, this._smallEncoding(this._small));
  }

  async update(config: LocalVideoConfig): Promise<void> {
    const fn = 'updateLocalVideo';
    const option = config.option ?? {};
    if (option.small !== undefined) {
      const small = resolveSmallProfile(option.small, fn);
      if (!!small !== !!this._small && this._publish) throw invalidOperation(undefined, 'small stream cannot be enabled or disabled after publish', fn);
      if (small && !isSmallStreamSupported()) throw envNotSupported(EXTRA_CODE.SMALL_VIDEO, 'the small stream is not supported in this browser', fn);
      this._small = small;
      if (small && this._publish) await this._smallSlot.setEncoding(this._smallEncoding(small));
    }
    if (option.profile !== undefined) {
      this.profile = this._resolveProfile(option.profile, fn, this.profile);
      if (this._ownsTrack) {
        await this.track.applyConstraints({ width: { ideal: this.profile.width }, height: { ideal: this.profile.height }, frameRate: { ideal: this.profile.frameRate } })
          .catch((error: unknown) => log.warn('applyConstraints failed', error));
      }
    }
    if (option.qosPreference !== undefined) this._qos = option.qosPreference;
    if (option.avoidCropping !== undefined) this._avoidCropping = option.avoidCropping;
    if ((option.profile !== undefined || option.qosPreference !== undefined) && this._publish) {
      await this._main.setEncoding(this._encoding());
      if (this._small) await this._smallSlot.setEncoding(this._smallEncoding(this._small));
    }
    const frontChanged = option.useFrontCamera !== undefined && option.useFrontCamera !== this._useFrontCamera && option.cameraId === undefined;
    if ((option.cameraId !== undefined && option.cameraId !== this._cameraId) || frontChanged) {
      // A repeated switch to the device in use is ignored.
      if (frontChanged) this._useFrontCamera = option.useFrontCamera;
      const cameraId = option.cameraId ?? (frontChanged ? undefined : this._cameraId);
      const track = await this._capture(cameraId, fn);
      this._cameraId = cameraId;
      await this._useTrack(track, true, fn);
      this._recovery?.watch(track);
      this._env.deviceActive('camera', track);
    }
    if (option.videoTrack !== undefined && option.videoTrack !== this.track) {
      this._recovery?.stop();
      this._recovery = undefined;
      await this._useTrack(option.videoTrack, false, fn);
    }
    const mirrorBefore = mirrorParts(this._mirror).publish;
    const rotationBefore = this._rotation;
    this._rotation = option.rotation ?? this._rotation;
    if (option.mirror !== undefined || option.fillMode !== undefined || config.view !== undefined) {
      this._mirror = option.mirror ?? this._mirror;
      this._fillMode = option.fillMode ?? this._fillMode;
      const views = config.view !== undefined ? resolveView(config.view, fn) : undefined;
      this._player?.update({ mirror: this._previewMirror(), fillMode: this._fillMode }, views);
    }
    const muteBefore = this._mute;
    if (config.mute !== undefined) this._mute = config.mute;
    if (mirrorParts(this._mirror).publish !== mirrorBefore || this._rotation !== rotationBefore || (typeof muteBefore === 'string' || typeof this._mute === 'string') && muteBefore !== this._mute) {
      let old: DerivedTrack | undefined;
      try {
        old = await this._derive(fn);
      } catch (error) {
        this._mute = muteBefore; // e.g. 'load image failed': keep publishing what was published
        throw error;
      }
      await this._resend(old);
    }
    if (config.publish !== undefined && config.publish !== this._publish) {
      this._publish = config.publish;
      if (this._publish) await this._publishAll();
      else await this._unpublishAll();
    }
    if ((muteBefore === true) !== (this._mute === true) && this._publish) {
      await this._main.setMuted(this._mute === true);
      if (this._small) await this._smallSlot.setMuted(this._mute === true);
    }
  }

  async stop(): Promise<void> {
    this._bus?.detach(this);
    this._recovery?.stop();
    this._player?.stop();
    this._player = undefined;
    this._derived?.stop();
    this._derived = undefined;
    if (this._ownsTrack) this.track?.stop();
    if (this._publish) await this._unpublishAll();
  }
}
