import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import { log } from '../log/logger.js';
import type { AudioBus } from '../plugins/context/audio.js';
import type { LocalAudioConfig, UpdateLocalAudioConfig } from '../types.js';
import { AudioGraph } from './audio-graph.js';
import { captureMicrophone } from './capture.js';
import type { LocalMediaEnv, SlotPublisher } from './local-media-env.js';
import { AUDIO_PROFILES, DEFAULT_AUDIO_PROFILE, type AudioProfile } from './profiles.js';
import { CaptureRecovery } from './recovery.js';

/** Checks start/updateLocalAudio's options (SPEC §5). */
export function validateLocalAudioConfig(config: LocalAudioConfig | undefined, functionName: string): void {
  if (config === undefined) return;
  if (typeof config !== 'object' || config === null) throw invalidParameter(EXTRA_CODE.TYPE, 'config must be an object', functionName);
  if (config.publish !== undefined && typeof config.publish !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'publish must be a boolean', functionName);
  if (config.mute !== undefined && typeof config.mute !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, 'mute must be a boolean', functionName);
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
  for (const flag of ['echoCancellation', 'autoGainControl', 'noiseSuppression'] as const) {
    if (option[flag] !== undefined && typeof option[flag] !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `${flag} must be a boolean`, functionName);
  }
  if (option.microphoneId !== undefined && typeof option.microphoneId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'microphoneId must be a string', functionName);
  if (option.audioTrack !== undefined && !(typeof MediaStreamTrack !== 'undefined' && option.audioTrack instanceof MediaStreamTrack && option.audioTrack.kind === 'audio')) {
    throw invalidParameter(EXTRA_CODE.INSTANCE, 'audioTrack must be an audio MediaStreamTrack', functionName);
  }
}

type Processing = { echoCancellation?: boolean; autoGainControl?: boolean; noiseSuppression?: boolean };
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
  #ownsTrack = true;
  #microphoneId: string | undefined;
  #processing: Processing = {};
  #publish = true;
  #muted = false;
  #captureVolume = 100;
  #earMonitorVolume = 0;
  #graph: AudioGraph | undefined;
  #recovery: CaptureRecovery | undefined;
  readonly #publisher: SlotPublisher;
  readonly #env: LocalMediaEnv;
  /** The audio plugins' side (mixer, denoiser): when one is active the microphone goes through the graph. */
  readonly #bus: AudioBus | undefined;
  #unwatchBus: (() => void) | undefined;

  constructor(publisher: SlotPublisher, env: LocalMediaEnv, bus?: AudioBus) {
    this.#publisher = publisher;
    this.#env = env;
    this.#bus = bus;
  }

  /** True while muted (mute: true): the audio-volume event then reports 0. */
  get muted(): boolean {
    return this.#muted;
  }

  /** The track others receive. */
  get publishedTrack(): MediaStreamTrack {
    return this.#graph?.output ?? this.track;
  }

  get captureVolume(): number {
    return this.#captureVolume;
  }

  async start(config: LocalAudioConfig): Promise<void> {
    const fn = 'startLocalAudio';
    const option = config.option ?? {};
    this.profile = AUDIO_PROFILES[option.profile ?? DEFAULT_AUDIO_PROFILE];
    this.#microphoneId = option.microphoneId;
    this.#processing = { echoCancellation: option.echoCancellation, autoGainControl: option.autoGainControl, noiseSuppression: option.noiseSuppression };
    this.#ownsTrack = !option.audioTrack;
    this.track = option.audioTrack ?? await this.#capture(this.#microphoneId, fn);
    if (this.#ownsTrack) {
      this.#watchRecovery();
      this.#env.deviceActive('microphone', this.track);
    }
    this.#captureVolume = option.captureVolume ?? 100;
    this.#earMonitorVolume = option.earMonitorVolume ?? 0;
    this.#bus?.setMicrophone(true);
    this.#unwatchBus = this.#bus?.onChange(() => void this.#pluginsChanged().catch((error: unknown) => log.warn('audio plugin routing failed:', error)));
    this.#applyGraph();
    this.#publish = config.publish !== false;
    this.#muted = config.mute === true;
    if (this.#publish) await this.#publishNow();
  }

  #capture(microphoneId: string | undefined, fn: string): Promise<MediaStreamTrack> {
    return captureMicrophone(this.profile, { microphoneId, ...this.#processing }, fn);
  }

  #publishNow(): Promise<void> {
    return this.#publisher.publish({ track: this.publishedTrack, encoding: { maxBitrateKbps: this.profile.bitrate }, muted: this.#muted, stereo: this.profile.channelCount > 1 });
  }

  #watchRecovery(): void {
    this.#recovery ??= new CaptureRecovery({
      kind: 'microphone',
      deviceId: () => this.#microphoneId,
      listDevices: async () => (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'audioinput').map((d) => d.deviceId),
      recapture: (deviceId) => this.#capture(deviceId, 'startLocalAudio'),
      recovered: async (track, deviceId) => {
        this.#microphoneId = deviceId ?? this.#microphoneId;
        await this.#useTrack(track, true);
        this.#env.deviceActive('microphone', track);
      },
      failed: (error) => this.#env.emitError(error),
    });
    this.#recovery.watch(this.track);
  }

  /** Builds the Web Audio graph once it is needed (a volume other than 100, an ear monitor) and applies the volumes. */
  #applyGraph(): void {
    if (!this.#graph && (this.#captureVolume !== 100 || this.#earMonitorVolume > 0 || this.#bus?.active) && typeof AudioContext !== 'undefined') {
      this.#graph = new AudioGraph(this.track, this.profile.sampleRate, this.#bus);
    }
    this.#graph?.setCaptureVolume(this.#captureVolume);
    this.#graph?.setEarMonitorVolume(this.#earMonitorVolume);
  }

  /** A plugin attached to or detached from the microphone: route through the graph, swap the sent track if it changed. */
  async #pluginsChanged(): Promise<void> {
    const before = this.publishedTrack;
    this.#applyGraph();
    this.#graph?.rewire();
    if (before !== this.publishedTrack && this.#publish) await this.#publisher.replace(this.publishedTrack);
  }

  /** Mixes another audio track (screen-share system audio) into the published one. */
  async mix(track: MediaStreamTrack): Promise<void> {
    const hadGraph = !!this.#graph;
    this.#graph ??= new AudioGraph(this.track, this.profile.sampleRate, this.#bus);
    this.#graph.setCaptureVolume(this.#captureVolume);
    this.#graph.addExtra(track);
    if (!hadGraph && this.#publish) await this.#publisher.replace(this.publishedTrack);
  }

  /** Stops mixing a track in. */
  unmix(track: MediaStreamTrack): void {
    this.#graph?.removeExtra(track);
  }

  async #useTrack(track: MediaStreamTrack, owns: boolean): Promise<void> {
    if (this.#ownsTrack && this.track !== track) this.track.stop();
    this.track = track;
    this.#ownsTrack = owns;
    this.#graph?.setSource(track);
    if (this.#publish && !this.#graph) await this.#publisher.replace(track);
  }

  async update(config: UpdateLocalAudioConfig): Promise<void> {
    const fn = 'updateLocalAudio';
    const option = config.option ?? {};
    const processingChanged = PROCESSING_FLAGS.some((flag) => option[flag] !== undefined && option[flag] !== this.#processing[flag]);
    const deviceChanged = option.microphoneId !== undefined && option.microphoneId !== this.#microphoneId;
    if (option.audioTrack !== undefined && option.audioTrack !== this.track) {
      this.#recovery?.stop();
      this.#recovery = undefined;
      await this.#useTrack(option.audioTrack, false);
    } else if (deviceChanged || processingChanged) {
      // A repeated switch to the device in use is ignored; a change of device or processing recaptures.
      for (const flag of PROCESSING_FLAGS) if (option[flag] !== undefined) this.#processing[flag] = option[flag];
      const microphoneId = option.microphoneId ?? this.#microphoneId;
      const track = await this.#capture(microphoneId, fn);
      this.#microphoneId = microphoneId;
      const hadPublished = this.publishedTrack;
      await this.#useTrack(track, true);
      this.#recovery?.watch(track);
      if (deviceChanged) this.#env.deviceActive('microphone', track);
      if (hadPublished !== this.publishedTrack && this.#publish && this.#graph) await this.#publisher.replace(this.publishedTrack);
    }
    if (option.captureVolume !== undefined || option.earMonitorVolume !== undefined) {
      const before = this.publishedTrack;
      this.#captureVolume = option.captureVolume ?? this.#captureVolume;
      this.#earMonitorVolume = option.earMonitorVolume ?? this.#earMonitorVolume;
      this.#applyGraph();
      if (before !== this.publishedTrack && this.#publish) await this.#publisher.replace(this.publishedTrack);
    }
    if (config.publish !== undefined && config.publish !== this.#publish) {
      this.#publish = config.publish;
      if (this.#publish) await this.#publishNow();
      else await this.#publisher.unpublish();
    }
    if (config.mute !== undefined && config.mute !== this.#muted) {
      this.#muted = config.mute;
      if (this.#publish) await this.#publisher.setMuted(this.#muted);
    }
  }

  async stop(): Promise<void> {
    this.#unwatchBus?.();
    this.#bus?.setMicrophone(false);
    this.#recovery?.stop();
    this.#graph?.close();
    this.#graph = undefined;
    if (this.#ownsTrack) this.track?.stop();
    if (this.#publish) await this.#publisher.unpublish();
  }
}
