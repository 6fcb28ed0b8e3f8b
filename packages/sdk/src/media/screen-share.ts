import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidParameter, operationFailed } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import { VideoPlayer, type FillMode } from '../playback/video-player.js';
import { resolveView } from '../playback/view.js';
import type { ScreenShareConfig, UpdateScreenShareConfig } from '../types.js';
import { captureError } from './capture.js';
import type { SlotPublisher } from './local-media-env.js';
import { degradationPreferenceOf, SCREEN_PROFILES, type VideoProfile } from './profiles.js';
import { resolveVideoProfile } from './local-video.js';

/** Checks startScreenShare's options. */
export function validateScreenShareConfig(config: ScreenShareConfig | undefined, functionName: string): void {
  if (config === undefined) return;
  if (typeof config !== 'object' || config === null) throw invalidParameter(EXTRA_CODE.TYPE, 'config must be an object', functionName);
  if (config.streamType !== undefined && config.streamType !== 'main' && config.streamType !== 'sub') throw invalidParameter(EXTRA_CODE.STREAM_TYPE, "streamType must be 'main' or 'sub'", functionName);
  if (config.muteSystemAudio !== undefined && typeof config.muteSystemAudio !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'muteSystemAudio must be a boolean', functionName);
  const option = config.option;
  if (!option) return;
  if (option.selfBrowserSurface !== undefined && option.selfBrowserSurface !== 'include' && option.selfBrowserSurface !== 'exclude') {
    throw invalidParameter(EXTRA_CODE.RANGE, "selfBrowserSurface must be 'include' or 'exclude'", functionName);
  }
  if (option.profile !== undefined) resolveVideoProfile(option.profile as VideoProfile, SCREEN_PROFILES, '1080p', functionName);
  if (option.fillMode !== undefined && !['contain', 'cover', 'fill'].includes(option.fillMode)) throw invalidParameter(EXTRA_CODE.RANGE, "fillMode must be 'contain', 'cover' or 'fill'", functionName);
  if (option.preferDisplaySurface !== undefined && !['current-tab', 'tab', 'window', 'monitor'].includes(option.preferDisplaySurface)) {
    throw invalidParameter(EXTRA_CODE.RANGE, "preferDisplaySurface must be 'current-tab', 'tab', 'window' or 'monitor'", functionName);
  }
  if (option.qosPreference !== undefined && option.qosPreference !== 'smooth' && option.qosPreference !== 'clear') {
    throw invalidParameter(EXTRA_CODE.RANGE, "qosPreference must be 'smooth' or 'clear'", functionName);
  }
  if (option.systemAudio !== undefined && typeof option.systemAudio !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'systemAudio must be a boolean', functionName);
  const isTrack = (track: unknown, kind: string) => typeof MediaStreamTrack !== 'undefined' && track instanceof MediaStreamTrack && track.kind === kind;
  if (option.videoTrack !== undefined && !isTrack(option.videoTrack, 'video')) throw invalidParameter(EXTRA_CODE.INSTANCE, 'videoTrack must be a video MediaStreamTrack', functionName);
  if (option.audioTrack !== undefined && !isTrack(option.audioTrack, 'audio')) throw invalidParameter(EXTRA_CODE.INSTANCE, 'audioTrack must be an audio MediaStreamTrack', functionName);
  if (option.captureElement !== undefined && !(typeof HTMLElement !== 'undefined' && option.captureElement instanceof HTMLElement)) {
    throw invalidParameter(EXTRA_CODE.INSTANCE, 'captureElement must be an HTMLElement', functionName);
  }
}

/** docs/behaviour.md §9: screen audio has echo cancellation on, noise suppression and automatic gain off (unless overridden). */
export function screenAudioConstraints(option: NonNullable<ScreenShareConfig['option']>): MediaTrackConstraints {
  return {
    echoCancellation: option.echoCancellation ?? true,
    noiseSuppression: option.noiseSuppression ?? false,
    autoGainControl: option.autoGainControl ?? false,
  };
}

/** getDisplayMedia options for a screen profile and the preferred surface. */
export function displayMediaOptions(profile: VideoProfile, option: NonNullable<ScreenShareConfig['option']>): DisplayMediaStreamOptions & Record<string, unknown> {
  const surface = option.preferDisplaySurface ?? 'monitor';
  return {
    video: {
      width: { ideal: profile.width },
      height: { ideal: profile.height },
      frameRate: { ideal: profile.frameRate },
      ...(surface !== 'current-tab' ? { displaySurface: surface === 'tab' ? 'browser' : surface } : {}),
    },
    audio: option.systemAudio ? screenAudioConstraints(option) : false,
    ...(surface === 'current-tab' ? { preferCurrentTab: true, selfBrowserSurface: 'include' } : {}),
    ...(option.selfBrowserSurface ? { selfBrowserSurface: option.selfBrowserSurface } : {}),
    ...(option.systemAudio ? { systemAudio: 'include' } : {}),
  };
}

/** Region Capture (Chrome 104+): crops a current-tab capture to an element. */
async function cropTo(track: MediaStreamTrack, element: HTMLElement): Promise<void> {
  const g = globalThis as unknown as { CropTarget?: { fromElement(e: Element): Promise<unknown> } };
  const croppable = track as MediaStreamTrack & { cropTo?: (target: unknown) => Promise<void> };
  if (!g.CropTarget || typeof croppable.cropTo !== 'function') {
    throw envNotSupported(EXTRA_CODE.SCREEN_SHARE, 'captureElement needs Region Capture (Chrome 104+)', 'startScreenShare');
  }
  await croppable.cropTo(await g.CropTarget.fromElement(element));
}


/**
 * The screen share: captured with getDisplayMedia, published as the auxiliary ('sub') stream, or as the main one
 * (streamType 'main', 5.13+) in place of a camera.
 */
export class ScreenShare {
  track!: MediaStreamTrack;
  /** The system audio (or custom audio track), if any. */
  audioTrack: MediaStreamTrack | undefined;
  profile!: VideoProfile;
  private _player: VideoPlayer | undefined;
  private _ownsTrack = true;
  private _publish = true;
  private _qos: 'smooth' | 'clear' | undefined;
  private _publisher: SlotPublisher;
  private readonly _slots: { main: SlotPublisher; sub: SlotPublisher };
  /** The system audio is captured but not published (muteSystemAudio). */
  private _audioMuted = false;
  private _audioPublished = false;
  private readonly _onEnded: () => void;
  private readonly _onSizeChanged: ((streamType: 'main' | 'sub', width: number, height: number) => void) | undefined;
  private readonly _audio: { add(track: MediaStreamTrack): Promise<void>; remove(track: MediaStreamTrack): Promise<void> };

  /**
   * @param onEnded called when the user stops sharing from the browser's own UI.
   * @param audio publishes / withdraws the system audio (mixed into the microphone, or on the audio slot).
   */
  constructor(slots: { main: SlotPublisher; sub: SlotPublisher }, onEnded: () => void,
    audio: { add(track: MediaStreamTrack): Promise<void>; remove(track: MediaStreamTrack): Promise<void> },
    onSizeChanged?: (streamType: 'main' | 'sub', width: number, height: number) => void) {
    this._slots = slots;
    this._onSizeChanged = onSizeChanged;
    this._publisher = slots.sub;
    this._onEnded = onEnded;
    this._audio = audio;
  }

  async start(config: ScreenShareConfig): Promise<void> {
    const fn = 'startScreenShare';
    const views = resolveView(config.view, fn);
    const option = config.option ?? {};
    this.profile = resolveVideoProfile(option.profile as VideoProfile | undefined, SCREEN_PROFILES, '1080p', fn);
    this._qos = option.qosPreference;
    this._publisher = config.streamType === 'main' ? this._slots.main : this._slots.sub;
    this._audioMuted = config.muteSystemAudio === true;
    if (option.videoTrack) {
      this.track = option.videoTrack;
      this.audioTrack = option.audioTrack;
      this._ownsTrack = false;
    } else {
      if (typeof navigator === 'undefined' || typeof navigator.mediaDevices?.getDisplayMedia !== 'function') {
        throw envNotSupported(EXTRA_CODE.SCREEN_SHARE, 'screen sharing is not supported in this browser', fn);
      }
      const preferCurrentTab = option.captureElement ? { ...option, preferDisplaySurface: 'current-tab' as const } : option;
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getDisplayMedia(displayMediaOptions(this.profile, preferCurrentTab));
      } catch (error) {
        throw captureError(error, 'screen', fn);
      }
      this.track = stream.getVideoTracks()[0];
      this.audioTrack = option.audioTrack ?? stream.getAudioTracks()[0];
      if (option.audioTrack) for (const audio of stream.getAudioTracks()) audio.stop();
      this._ownsTrack = true;
      if (option.captureElement) await cropTo(this.track, option.captureElement);
    }
    if ('contentHint' in this.track && !this.track.contentHint) this.track.contentHint = 'detail';
    this.track.addEventListener('ended', this._onEnded, { once: true });
    this._player = new VideoPlayer(this.track, views, { fillMode: option.fillMode ?? 'contain' },
      { onSizeChanged: ({ width, height }) => this._onSizeChanged?.(this.streamType, width, height) });
    this._publish = config.publish !== false;
    if (this._publish) await this._publishNow();
  }

  private _encoding() {
    return {
      maxBitrateKbps: this.profile.bitrate,
      maxFramerate: this.profile.frameRate,
      degradationPreference: degradationPreferenceOf(this._qos, 'maintain-resolution'),
    };
  }

  private async _publishNow(): Promise<void> {
    await this._publisher.publish({ track: this.track, encoding: this._encoding(), muted: false });
    await this._syncAudio();
  }

  /** Publishes the system audio unless muted (muteSystemAudio) or the share is not published. */
  private async _syncAudio(): Promise<void> {
    const wanted = !!this.audioTrack && this._publish && !this._audioMuted;
    if (wanted === this._audioPublished || !this.audioTrack) return;
    this._audioPublished = wanted;
    if (wanted) await this._audio.add(this.audioTrack);
    else await this._audio.remove(this.audioTrack);
  }

  /** The stream type it is published as. */
  get streamType(): 'main' | 'sub' {
    return this._publisher === this._slots.main ? 'main' : 'sub';
  }

  /** Replaces the shared video and / or audio track (updateScreenShare's option.videoTrack / audioTrack, 5.13+). */
  private async _replaceTracks(video: MediaStreamTrack | undefined, audio: MediaStreamTrack | undefined): Promise<void> {
    if (video && video !== this.track) {
      this.track.removeEventListener('ended', this._onEnded);
      if (this._ownsTrack) this.track.stop();
      this.track = video;
      this._ownsTrack = false;
      this.track.addEventListener('ended', this._onEnded, { once: true });
      this._player?.setTrack(video);
      if (this._publish) await this._publisher.replace(video, this._encoding());
    }
    if (audio && audio !== this.audioTrack) {
      if (this.audioTrack && this._audioPublished) await this._audio.remove(this.audioTrack);
      this._audioPublished = false;
      if (this._ownsTrack) this.audioTrack?.stop();
      this.audioTrack = audio;
      await this._syncAudio();
    }
  }

  async update(config: UpdateScreenShareConfig): Promise<void> {
    await this._replaceTracks(config.option?.videoTrack, config.option?.audioTrack);
    if (config.muteSystemAudio !== undefined) {
      this._audioMuted = config.muteSystemAudio;
      await this._syncAudio();
    }
    const views = config.view !== undefined ? resolveView(config.view, 'updateScreenShare') : undefined;
    if (config.option?.fillMode !== undefined || views) this._player?.update({ fillMode: config.option?.fillMode as FillMode | undefined }, views);
    const { profile, qosPreference } = config.option ?? {};
    // 5.18: a new profile during the share (the original's applyProfile): the capture's size and rate, and the encoding.
    if (profile !== undefined) {
      this.profile = resolveVideoProfile(profile as VideoProfile, SCREEN_PROFILES, '1080p', 'updateScreenShare', this.profile);
      if (this._ownsTrack) {
        await this.track.applyConstraints({ width: { ideal: this.profile.width }, height: { ideal: this.profile.height }, frameRate: { ideal: this.profile.frameRate } })
          .catch((error: unknown) => log.warn('updateScreenShare: applyConstraints failed', error));
      }
    }
    if (qosPreference !== undefined) this._qos = qosPreference;
    if ((profile !== undefined || qosPreference !== undefined) && this._publish) await this._publisher.setEncoding(this._encoding());
    if (config.publish !== undefined && config.publish !== this._publish) {
      this._publish = config.publish;
      if (this._publish) {
        await this._publishNow();
      } else {
        await this._syncAudio();
        await this._publisher.unpublish();
      }
    }
  }

  /**
   * Stops sharing: the capture, the player and the published streams. Everything is released even when a step
   * fails; the first failure is then rethrown as OPERATION_FAILED (stopScreenShare rejects with it).
   */
  async stop(): Promise<void> {
    this.track?.removeEventListener('ended', this._onEnded);
    this._player?.stop();
    this._player = undefined;
    let failure: unknown;
    if (this.audioTrack && this._audioPublished) {
      await this._audio.remove(this.audioTrack).catch((error: unknown) => {
        failure = error;
        log.warn('stopScreenShare: withdrawing the screen\'s audio failed:', error);
      });
    }
    this._audioPublished = false;
    if (this._ownsTrack) {
      this.track?.stop();
      this.audioTrack?.stop();
    }
    if (this._publish) await this._publisher.unpublish();
    if (failure !== undefined) {
      throw operationFailed(undefined, `the screen's audio could not be withdrawn: ${failure instanceof Error ? failure.message : String(failure)}`, 'stopScreenShare', failure);
    }
  }
}
