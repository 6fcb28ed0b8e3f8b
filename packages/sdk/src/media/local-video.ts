import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidOperation, invalidParameter } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import { VideoPlayer, type FillMode } from '../playback/video-player.js';
import { resolveView } from '../playback/view.js';
import type { LocalVideoConfig, VideoProfileName } from '../types.js';
import { captureCamera } from './capture.js';
import type { VideoBus } from '../plugins/context/video.js';
import type { LocalMediaEnv, SlotPublisher } from './local-media-env.js';
import {
  applyResolutionRules, DEFAULT_SMALL_PROFILE, DEFAULT_VIDEO_PROFILE, degradationPreferenceOf, VIDEO_PROFILES, type VideoProfile,
} from './profiles.js';
import { CaptureRecovery } from './recovery.js';
import { isSmallStreamSupported } from './support.js';
import { imageTrack, mirrorTrack, type DerivedTrack, type TrackProcessor } from './track-processing.js';

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

/** The small-stream profile of an option: true → SPEC's default 120p; a name or object → that profile. */
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
  const option = config.option;
  if (option === undefined) return;
  if (option.mirror !== undefined && !MIRRORS.includes(option.mirror)) throw invalidParameter(EXTRA_CODE.RANGE, "mirror must be true, false, 'view', 'publish' or 'both'", functionName);
  if (option.fillMode !== undefined && !FILL_MODES.includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
  if (option.qosPreference !== undefined && option.qosPreference !== 'smooth' && option.qosPreference !== 'clear') {
    throw invalidParameter(EXTRA_CODE.RANGE, "qosPreference must be 'smooth' or 'clear'", functionName);
  }
  if (option.cameraId !== undefined && typeof option.cameraId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'cameraId must be a string', functionName);
  if (option.useFrontCamera !== undefined && typeof option.useFrontCamera !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'useFrontCamera must be a boolean', functionName);
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

/** The local camera: capture, preview, and what is published (big and small stream). */
export class LocalVideo {
  /** The camera (or custom) track: what the local view shows. */
  track!: MediaStreamTrack;
  profile!: VideoProfile;
  #player: VideoPlayer | undefined;
  #ownsTrack = true;
  #cameraId: string | undefined;
  #useFrontCamera: boolean | undefined;
  #avoidCropping = false;
  #mirror: Mirror = 'view';
  #fillMode: FillMode = 'cover';
  #qos: 'smooth' | 'clear' | undefined;
  #small: VideoProfile | undefined;
  #publish = true;
  /** true: mute flag; a string: the image URL published instead. */
  #mute: boolean | string = false;
  /** The mirrored or image track sent instead of the camera track, if any. */
  #derived: DerivedTrack | undefined;
  #recovery: CaptureRecovery | undefined;
  /** The video-effect pipeline the camera goes through, if a plugin installed one. */
  #processor: TrackProcessor | undefined;
  /** True while #derived is the processor's output (the preview then shows it). */
  #processed = false;
  readonly #main: SlotPublisher;
  readonly #smallSlot: SlotPublisher;
  readonly #env: LocalMediaEnv;
  /** The plugins' video context: effects put their pipeline on the camera through it. */
  readonly #bus: VideoBus | undefined;

  constructor(main: SlotPublisher, small: SlotPublisher, env: LocalMediaEnv, bus?: VideoBus) {
    this.#main = main;
    this.#smallSlot = small;
    this.#env = env;
    this.#bus = bus;
  }

  get published(): boolean {
    return this.#publish;
  }

  get cameraId(): string | undefined {
    return this.#cameraId;
  }

  /** The small stream's profile while one is published. */
  get smallProfile(): VideoProfile | undefined {
    return this.#small;
  }

  /** The preview's video element (for snapshots). */
  get element(): HTMLVideoElement | undefined {
    return this.#player?.elements[0];
  }

  /** The track others receive (mirrored or image, else the camera track). */
  get publishedTrack(): MediaStreamTrack {
    return this.#derived?.track ?? this.track;
  }

  #resolveProfile(profile: VideoProfileName | VideoProfile | undefined, fn: string): VideoProfile {
    const resolved = applyResolutionRules(resolveVideoProfile(profile, VIDEO_PROFILES, DEFAULT_VIDEO_PROFILE, fn), {
      enable2k4k: this.#env.enable2k4k(),
      userAgent: typeof navigator !== 'undefined' ? navigator.userAgent : '',
    });
    for (const warning of resolved.warnings) log.warn(warning);
    return resolved.profile;
  }

  async start(config: LocalVideoConfig): Promise<void> {
    const fn = 'startLocalVideo';
    const views = resolveView(config.view, fn);
    const option = config.option ?? {};
    this.profile = this.#resolveProfile(option.profile, fn);
    this.#small = resolveSmallProfile(option.small, fn);
    if (this.#small && !isSmallStreamSupported()) throw envNotSupported(EXTRA_CODE.SMALL_VIDEO, 'the small stream is not supported in this browser', fn);
    this.#ownsTrack = !option.videoTrack;
    this.#cameraId = option.cameraId;
    this.#useFrontCamera = option.useFrontCamera;
    this.#avoidCropping = option.avoidCropping === true;
    this.#qos = option.qosPreference;
    this.track = option.videoTrack ?? await this.#capture(this.#cameraId, fn);
    if (this.#ownsTrack) {
      this.#watchRecovery();
      this.#env.deviceActive('camera', this.track);
    }
    this.#mirror = option.mirror ?? 'view';
    this.#fillMode = option.fillMode ?? 'cover';
    this.#player = new VideoPlayer(this.track, views, { fillMode: this.#fillMode, mirror: mirrorParts(this.#mirror).view });
    this.#publish = config.publish !== false;
    this.#mute = config.mute ?? false;
    this.#bus?.attach(this);
    this.#processor = this.#bus?.cameraProcessor;
    await this.#derive(fn);
    if (this.#publish) await this.#publishAll();
  }

  #capture(cameraId: string | undefined, fn: string): Promise<MediaStreamTrack> {
    return captureCamera(this.profile, cameraId, fn, { useFrontCamera: this.#useFrontCamera, avoidCropping: this.#avoidCropping });
  }

  #watchRecovery(): void {
    this.#recovery ??= new CaptureRecovery({
      kind: 'camera',
      deviceId: () => this.#cameraId,
      listDevices: async () => (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput').map((d) => d.deviceId),
      recapture: (deviceId) => this.#capture(deviceId, 'startLocalVideo'),
      recovered: async (track, deviceId) => {
        this.#cameraId = deviceId ?? this.#cameraId;
        await this.#useTrack(track, true, 'startLocalVideo');
        this.#env.deviceActive('camera', track);
      },
      failed: (error) => this.#env.emitError(error),
    });
    this.#recovery.watch(this.track);
  }

  /**
   * Builds the track others receive: the image of mute-with-URL, the effect pipeline's output (mirrored
   * inside it), or the camera mirrored for 'publish'/'both'. Returns the track it replaces: the caller stops
   * it once the senders have moved to the new one (stopping it earlier would freeze what others see).
   */
  async #derive(fn: string): Promise<DerivedTrack | undefined> {
    let next: DerivedTrack | undefined;
    const mirror = mirrorParts(this.#mirror).publish;
    if (typeof this.#mute === 'string') {
      next = await imageTrack(this.#mute, this.profile.width, this.profile.height, fn);
    } else if (this.#processor) {
      next = this.#processor.process(this.track, { mirror, frameRate: this.profile.frameRate });
    } else if (mirror) {
      next = mirrorTrack(this.track);
    }
    const old = this.#derived;
    this.#derived = next;
    this.#processed = next !== undefined && typeof this.#mute !== 'string' && this.#processor !== undefined;
    const shown = this.#processed && next ? next.track : this.track;
    if (this.#player && this.#player.track !== shown) this.#player.setTrack(shown);
    this.#player?.update({ mirror: this.#previewMirror() });
    return old;
  }

  /** Derives the sent track again and moves the senders to it, then stops the one it replaced. */
  async #rederive(fn: string): Promise<void> {
    await this.#resend(await this.#derive(fn));
  }

  /** Moves the senders to the current track, then stops `old` (the derived track they sent before). */
  async #resend(old: DerivedTrack | undefined): Promise<void> {
    try {
      await this.#replaceSent();
    } finally {
      old?.stop();
    }
  }

  /**
   * The preview's CSS mirror. With effects the preview shows the processed track (what others receive),
   * already mirrored for 'publish'/'both', so the CSS flip undoes or keeps it to look as without effects.
   */
  #previewMirror(): boolean {
    const { view, publish } = mirrorParts(this.#mirror);
    return this.#processed ? view !== publish : view;
  }

  /**
   * Routes the camera through a processor (the video-effect pipeline), or back to the plain camera with
   * undefined: big and small stream senders swap tracks (replaceTrack, no renegotiation) and the preview
   * shows the processed track.
   */
  async setProcessor(processor: TrackProcessor | undefined, fn: string): Promise<void> {
    if (processor === this.#processor) return;
    this.#processor = processor;
    await this.#rederive(fn);
  }

  #encoding() {
    return {
      maxBitrateKbps: this.profile.bitrate,
      maxFramerate: this.profile.frameRate,
      degradationPreference: degradationPreferenceOf(this.#qos),
    };
  }

  #smallEncoding(small: VideoProfile) {
    const width = this.publishedTrack.getSettings?.().width ?? this.profile.width;
    const height = this.publishedTrack.getSettings?.().height ?? this.profile.height;
    return {
      maxBitrateKbps: small.bitrate,
      maxFramerate: small.frameRate,
      scaleResolutionDownBy: Math.max(1, Math.min(width / small.width, height / small.height)),
      degradationPreference: degradationPreferenceOf(this.#qos, 'maintain-resolution'),
    };
  }

  async #publishAll(): Promise<void> {
    const muted = this.#mute === true;
    await this.#main.publish({ track: this.publishedTrack, encoding: this.#encoding(), muted });
    if (this.#small) await this.#smallSlot.publish({ track: this.publishedTrack, encoding: this.#smallEncoding(this.#small), muted });
  }

  async #unpublishAll(): Promise<void> {
    if (this.#small) await this.#smallSlot.unpublish();
    await this.#main.unpublish();
  }

  /** Moves preview and uplink to a new source track (device switch, custom track, recovery). */
  async #useTrack(track: MediaStreamTrack, owns: boolean, fn: string): Promise<void> {
    if (this.#ownsTrack && this.track !== track) this.track.stop();
    this.track = track;
    this.#ownsTrack = owns;
    this.#player?.setTrack(track);
    await this.#rederive(fn); // moves the preview to the processed track when effects are on
  }

  async #replaceSent(): Promise<void> {
    if (!this.#publish) return;
    await this.#main.replace(this.publishedTrack, this.#encoding());
    if (this.#small) await this.#smallSlot.replace(this.publishedTrack, this.#smallEncoding(this.#small));
  }

  async update(config: LocalVideoConfig): Promise<void> {
    const fn = 'updateLocalVideo';
    const option = config.option ?? {};
    if (option.small !== undefined) {
      const small = resolveSmallProfile(option.small, fn);
      if (!!small !== !!this.#small && this.#publish) throw invalidOperation(undefined, 'small stream cannot be enabled or disabled after publish', fn);
      if (small && !isSmallStreamSupported()) throw envNotSupported(EXTRA_CODE.SMALL_VIDEO, 'the small stream is not supported in this browser', fn);
      this.#small = small;
      if (small && this.#publish) await this.#smallSlot.setEncoding(this.#smallEncoding(small));
    }
    if (option.profile !== undefined) {
      this.profile = this.#resolveProfile(option.profile, fn);
      if (this.#ownsTrack) {
        await this.track.applyConstraints({ width: { ideal: this.profile.width }, height: { ideal: this.profile.height }, frameRate: { ideal: this.profile.frameRate } })
          .catch((error: unknown) => log.warn('applyConstraints failed', error));
      }
    }
    if (option.qosPreference !== undefined) this.#qos = option.qosPreference;
    if (option.avoidCropping !== undefined) this.#avoidCropping = option.avoidCropping;
    if ((option.profile !== undefined || option.qosPreference !== undefined) && this.#publish) {
      await this.#main.setEncoding(this.#encoding());
      if (this.#small) await this.#smallSlot.setEncoding(this.#smallEncoding(this.#small));
    }
    const frontChanged = option.useFrontCamera !== undefined && option.useFrontCamera !== this.#useFrontCamera && option.cameraId === undefined;
    if ((option.cameraId !== undefined && option.cameraId !== this.#cameraId) || frontChanged) {
      // A repeated switch to the device in use is ignored.
      if (frontChanged) this.#useFrontCamera = option.useFrontCamera;
      const cameraId = option.cameraId ?? (frontChanged ? undefined : this.#cameraId);
      const track = await this.#capture(cameraId, fn);
      this.#cameraId = cameraId;
      await this.#useTrack(track, true, fn);
      this.#recovery?.watch(track);
      this.#env.deviceActive('camera', track);
    }
    if (option.videoTrack !== undefined && option.videoTrack !== this.track) {
      this.#recovery?.stop();
      this.#recovery = undefined;
      await this.#useTrack(option.videoTrack, false, fn);
    }
    const mirrorBefore = mirrorParts(this.#mirror).publish;
    if (option.mirror !== undefined || option.fillMode !== undefined || config.view !== undefined) {
      this.#mirror = option.mirror ?? this.#mirror;
      this.#fillMode = option.fillMode ?? this.#fillMode;
      const views = config.view !== undefined ? resolveView(config.view, fn) : undefined;
      this.#player?.update({ mirror: this.#previewMirror(), fillMode: this.#fillMode }, views);
    }
    const muteBefore = this.#mute;
    if (config.mute !== undefined) this.#mute = config.mute;
    if (mirrorParts(this.#mirror).publish !== mirrorBefore || (typeof muteBefore === 'string' || typeof this.#mute === 'string') && muteBefore !== this.#mute) {
      let old: DerivedTrack | undefined;
      try {
        old = await this.#derive(fn);
      } catch (error) {
        this.#mute = muteBefore; // e.g. 'load image failed': keep publishing what was published
        throw error;
      }
      await this.#resend(old);
    }
    if (config.publish !== undefined && config.publish !== this.#publish) {
      this.#publish = config.publish;
      if (this.#publish) await this.#publishAll();
      else await this.#unpublishAll();
    }
    if ((muteBefore === true) !== (this.#mute === true) && this.#publish) {
      await this.#main.setMuted(this.#mute === true);
      if (this.#small) await this.#smallSlot.setMuted(this.#mute === true);
    }
  }

  async stop(): Promise<void> {
    this.#bus?.detach(this);
    this.#recovery?.stop();
    this.#player?.stop();
    this.#player = undefined;
    this.#derived?.stop();
    this.#derived = undefined;
    if (this.#ownsTrack) this.track?.stop();
    if (this.#publish) await this.#unpublishAll();
  }
}
