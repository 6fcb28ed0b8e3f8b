import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import type { LocalAudioConfig, UpdateLocalAudioConfig } from '../types.js';
import { AudioGraph, type AudioBus } from './audio-graph.js';
import { captureMicrophone } from './capture.js';
import { recoveryCandidates } from './devices.js';
import type { LocalMediaEnv, SlotPublisher } from './local-media-env.js';
import { AUDIO_PROFILES, DEFAULT_AUDIO_PROFILE, type AudioProfile } from './profiles.js';
import { CaptureRecovery } from './recovery.js';

/** The plugins' audio context as the microphone uses it (the plugin API's AudioBus; media sits below the plugin API). */
export interface MicrophoneBus extends AudioBus {
  /** True while some plugin uses the bus: the microphone then goes through the shared graph. */
  readonly active: boolean;
  setMicrophone(on: boolean): void;
  onChange(listener: () => void): () => void;
}

/** Checks start/updateLocalAudio's options (docs/behaviour.md §5). */
export function validateLocalAudioConfig(config: LocalAudioConfig | undefined, functionName: string): void {
  if (config === undefined) return;
  if (typeof config !== 'object' || config === null) throw invalidParameter(EXTRA_CODE.TYPE, 'config must be an object', functionName);
  if (config.publish !== undefined && typeof config.publish !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'publish must be a boolean', functionName);
  if (config.mute !== undefined && typeof config.mute !== 'boolean' && config.mute !== 'microphone') {
    throw invalidParameter(EXTRA_CODE.TYPE, "mute must be a boolean or 'microphone'", functionName);
  }
  if (config.muteKeepVolumeDetection !== undefined && typeof config.muteKeepVolumeDetection !== 'boolean') {
    throw invalidParameter(EXTRA_CODE.TYPE, 'muteKeepVolumeDetection must be a boolean', functionName);
  }
  const option = config.option;
  if (option === undefined) return;
  if (option.profile !== undefined && !AUDIO_PROFILES[option.profile]) {
    throw invalidParameter(EXTRA_CODE.RANGE, `profile must be one of ${Object.keys(AUDIO_PROFILES).join(', ')}`, functionName);
  }
  if (option.captureVolume !== undefined && (typeof option.captureVolume !== 'number' || option.captureVolume < 0)) {
    throw invalidParameter(EXTRA_CODE.MIN, 'captureVolume must be a number of at least 0 (percent)', functionName);
  }
  if (option.earMonitorVolume !== undefined && (typeof option.earMonitorVolume !== 'number' || option.earMonitorVolume < 0 || option.earMonitorVolume > 100)) {
    throw invalidParameter(EXTRA_CODE.RANGE, 'earMonitorVolume must be a number between 0 and 100', functionName);
  }
  if (option.echoCancellation !== undefined && typeof option.echoCancellation !== 'boolean' && option.echoCancellation !== 'all' && option.echoCancellation !== 'remote-only') {
    throw invalidParameter(EXTRA_CODE.TYPE, "echoCancellation must be a boolean, 'all' or 'remote-only'", functionName);
  }
  for (const flag of ['autoGainControl', 'noiseSuppression'] as const) {
    if (option[flag] !== undefined && typeof option[flag] !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `${flag} must be a boolean`, functionName);
  }
  if (option.microphoneId !== undefined && typeof option.microphoneId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'microphoneId must be a string', functionName);
  if (option.audioTrack !== undefined && !(typeof MediaStreamTrack !== 'undefined' && option.audioTrack instanceof MediaStreamTrack && option.audioTrack.kind === 'audio')) {
    throw invalidParameter(EXTRA_CODE.INSTANCE, 'audioTrack must be an audio MediaStreamTrack', functionName);
  }
}

type Processing = { echoCancellation?: boolean | 'all' | 'remote-only'; autoGainControl?: boolean; noiseSuppression?: boolean };
const PROCESSING_FLAGS = ['echoCancellation', 'autoGainControl', 'noiseSuppression'] as const;

/**
 * The local microphone (never played back locally, except through the ear monitor). The published
 * track is the microphone itself, or the output of a Web Audio graph when captureVolume,
 * earMonitorVolume or a mixed-in screen audio need one.
 */
export class LocalAudio {
  /** The microphone (or custom) track. */
  track!: MediaStreamTrack;
  profile: AudioProfile = AUDIO_PROFILES[DEFAULT_AUDIO_PROFILE];
  private _ownsTrack = true;
  private _microphoneId: string | undefined;
  private _processing: Processing = {};
  private _publish = true;
  private _muted = false;
  /** mute: 'microphone': the microphone silenced in the graph, mixed-in audio still sent. */
  private _micMuted = false;
  /** muteKeepVolumeDetection: the audio-volume event keeps measuring while muted. */
  private _keepVolume = false;
  private _captureVolume = 100;
  private _earMonitorVolume = 0;
  private _graph: AudioGraph | undefined;
  private _recovery: CaptureRecovery | undefined;
  private readonly _publisher: SlotPublisher;
  private readonly _env: LocalMediaEnv;
  /** The audio plugins' side (mixer, denoiser): when one is active the microphone goes through the graph. */
  private readonly _bus: MicrophoneBus | undefined;
  private _unwatchBus: (() => void) | undefined;

  constructor(publisher: SlotPublisher, env: LocalMediaEnv, bus?: MicrophoneBus) {
    this._publisher = publisher;
    this._env = env;
    this._bus = bus;
  }

  /** True while muted (mute: true). */
  get muted(): boolean {
    return this._muted;
  }

  /** True when the audio-volume event reports 0: muted (or the microphone muted) without muteKeepVolumeDetection. */
  get volumeMuted(): boolean {
    return (this._muted || this._micMuted) && !this._keepVolume;
  }

  /** Applies a mute value: a boolean mutes what is sent, 'microphone' only the microphone. */
  private _setMute(mute: boolean | 'microphone'): void {
    this._micMuted = mute === 'microphone';
    this._muted = mute === true;
  }

  /** The track others receive. */
  get publishedTrack(): MediaStreamTrack {
    return this._graph?.output ?? this.track;
  }

  get captureVolume(): number {
    return this._captureVolume;
  }

  async start(config: LocalAudioConfig): Promise<void> {
    const fn = 'startLocalAudio';
    const option = config.option ?? {};
    this.profile = AUDIO_PROFILES[option.profile ?? DEFAULT_AUDIO_PROFILE];
    this._microphoneId = option.microphoneId;
    this._processing = { echoCancellation: option.echoCancellation, autoGainControl: option.autoGainControl, noiseSuppression: option.noiseSuppression };
    this._ownsTrack = !option.audioTrack;
    this.track = option.audioTrack ?? await this._capture(this._microphoneId, fn);
    if (this._ownsTrack) {
      this._watchRecovery();
      this._env.deviceActive('microphone', this.track);
    }
    this._captureVolume = option.captureVolume ?? 100;
    this._earMonitorVolume = option.earMonitorVolume ?? 0;
    this._bus?.setMicrophone(true);
    this._unwatchBus = this._bus?.onChange(() => void this._pluginsChanged().catch((error: unknown) => log.warn('audio plugin routing failed:', error)));
    this._applyGraph();
    this._publish = config.publish !== false;
    this._keepVolume = config.muteKeepVolumeDetection === true;
    this._setMute(config.mute ?? false);
    this._applyGraph();
    if (this._publish) await this._publishNow();
  }

  private _capture(microphoneId: string | undefined, fn: string): Promise<MediaStreamTrack> {
    return captureMicrophone(this.profile, { microphoneId, ...this._processing }, fn);
  }

  private _publishNow(): Promise<void> {
    return this._publisher.publish({ track: this.publishedTrack, encoding: { maxBitrateKbps: this.profile.bitrate }, muted: this._muted, stereo: this.profile.channelCount > 1 });
  }

  private _watchRecovery(): void {
    this._recovery ??= new CaptureRecovery({
      kind: 'microphone',
      deviceId: () => this._microphoneId,
      listDevices: () => recoveryCandidates('audioinput'),
      recapture: (deviceId) => this._capture(deviceId, 'startLocalAudio'),
      recovered: async (track, deviceId) => {
        this._microphoneId = deviceId ?? this._microphoneId;
        await this._useTrack(track, true);
        this._env.deviceActive('microphone', track);
      },
      failed: (error) => this._env.emitError(error),
    });
    this._recovery.watch(this.track);
  }

  /** Builds the Web Audio graph once it is needed (a volume other than 100, an ear monitor) and applies the volumes. */
  private _applyGraph(): void {
    if (!this._graph && (this._captureVolume !== 100 || this._earMonitorVolume > 0 || this._micMuted || this._bus?.active) && typeof AudioContext !== 'undefined') {
      this._graph = new AudioGraph(this.track, this.profile.sampleRate, this._bus);
    }
    this._graph?.setCaptureVolume(this._micMuted ? 0 : this._captureVolume);
    this._graph?.setEarMonitorVolume(this._earMonitorVolume);
  }

  /** A plugin attached to or detached from the microphone: route through the graph, swap the sent track if it changed. */
  private async _pluginsChanged(): Promise<void> {
    const before = this.publishedTrack;
    this._applyGraph();
    this._graph?.rewire();
    if (before !== this.publishedTrack && this._publish) await this._publisher.replace(this.publishedTrack);
  }

  /** Mixes another audio track (screen-share system audio) into the published one. */
  async mix(track: MediaStreamTrack): Promise<void> {
    const hadGraph = !!this._graph;
    this._graph ??= new AudioGraph(this.track, this.profile.sampleRate, this._bus);
    this._graph.setCaptureVolume(this._micMuted ? 0 : this._captureVolume);
    this._graph.addExtra(track);
    if (!hadGraph && this._publish) await this._publisher.replace(this.publishedTrack);
  }

  /** Stops mixing a track in. */
  unmix(track: MediaStreamTrack): void {
    this._graph?.removeExtra(track);
  }

  private async _useTrack(track: MediaStreamTrack, owns: boolean): Promise<void> {
    if (this._ownsTrack && this.track !== track) this.track.stop();
    this.track = track;
    this._ownsTrack = owns;
    this._graph?.setSource(track);
    if (this._publish && !this._graph) await this._publisher.replace(track);
  }

  async update(config: UpdateLocalAudioConfig): Promise<void> {
    const fn = 'updateLocalAudio';
    const option = config.option ?? {};
    const processingChanged = PROCESSING_FLAGS.some((flag) => option[flag] !== undefined && option[flag] !== this._processing[flag]);
    const deviceChanged = option.microphoneId !== undefined && option.microphoneId !== this._microphoneId;
    if (option.audioTrack !== undefined && option.audioTrack !== this.track) {
      this._recovery?.stop();
      this._recovery = undefined;
      await this._useTrack(option.audioTrack, false);
    } else if (deviceChanged || processingChanged) {
      // A repeated switch to the device in use is ignored; a change of device or processing recaptures.
      for (const flag of PROCESSING_FLAGS) if (option[flag] !== undefined) Object.assign(this._processing, { [flag]: option[flag] });
      const microphoneId = option.microphoneId ?? this._microphoneId;
      const track = await this._capture(microphoneId, fn);
      this._microphoneId = microphoneId;
      const hadPublished = this.publishedTrack;
      await this._useTrack(track, true);
      this._recovery?.watch(track);
      if (deviceChanged) this._env.deviceActive('microphone', track);
      if (hadPublished !== this.publishedTrack && this._publish && this._graph) await this._publisher.replace(this.publishedTrack);
    }
    if (option.captureVolume !== undefined || option.earMonitorVolume !== undefined) {
      const before = this.publishedTrack;
      this._captureVolume = option.captureVolume ?? this._captureVolume;
      this._earMonitorVolume = option.earMonitorVolume ?? this._earMonitorVolume;
      this._applyGraph();
      if (before !== this.publishedTrack && this._publish) await this._publisher.replace(this.publishedTrack);
    }
    if (config.publish !== undefined && config.publish !== this._publish) {
      this._publish = config.publish;
      if (this._publish) await this._publishNow();
      else await this._publisher.unpublish();
    }
    if (config.muteKeepVolumeDetection !== undefined) this._keepVolume = config.muteKeepVolumeDetection;
    if (config.mute !== undefined) {
      const wasMuted = this._muted;
      const before = this.publishedTrack;
      this._setMute(config.mute);
      this._applyGraph();
      if (before !== this.publishedTrack && this._publish) await this._publisher.replace(this.publishedTrack);
      if (wasMuted !== this._muted && this._publish) await this._publisher.setMuted(this._muted);
    }
  }

  async stop(): Promise<void> {
    this._unwatchBus?.();
    this._bus?.setMicrophone(false);
    this._recovery?.stop();
    this._graph?.close();
    this._graph = undefined;
    if (this._ownsTrack) this.track?.stop();
    if (this._publish) await this._publisher.unpublish();
  }
}
