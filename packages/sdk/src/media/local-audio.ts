import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import type { LocalAudioConfig, UpdateLocalAudioConfig } from '../types.js';
import { captureMicrophone } from './capture.js';
import { AUDIO_PROFILES, DEFAULT_AUDIO_PROFILE, type AudioProfile } from './profiles.js';

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

/** What the room needs to publish the microphone. */
export interface MicrophonePublisher {
  publish(track: MediaStreamTrack, bitrate: number, muted: boolean): Promise<void>;
  unpublish(): Promise<void>;
  replace(track: MediaStreamTrack): Promise<void>;
  setMuted(muted: boolean): Promise<void>;
}

/** The local microphone (never played back locally). */
export class LocalAudio {
  track!: MediaStreamTrack;
  profile: AudioProfile = AUDIO_PROFILES[DEFAULT_AUDIO_PROFILE];
  #ownsTrack = true;
  #microphoneId: string | undefined;
  #processing: { echoCancellation?: boolean; autoGainControl?: boolean; noiseSuppression?: boolean } = {};
  #publish = true;
  #muted = false;
  readonly #publisher: MicrophonePublisher;

  constructor(publisher: MicrophonePublisher) {
    this.#publisher = publisher;
  }

  async start(config: LocalAudioConfig): Promise<void> {
    const option = config.option ?? {};
    this.profile = AUDIO_PROFILES[option.profile ?? DEFAULT_AUDIO_PROFILE];
    this.#microphoneId = option.microphoneId;
    this.#processing = { echoCancellation: option.echoCancellation, autoGainControl: option.autoGainControl, noiseSuppression: option.noiseSuppression };
    this.#ownsTrack = !option.audioTrack;
    this.track = option.audioTrack ?? await captureMicrophone(this.profile, { microphoneId: option.microphoneId, ...this.#processing }, 'startLocalAudio');
    this.#publish = config.publish !== false;
    this.#muted = config.mute === true;
    if (this.#publish) await this.#publisher.publish(this.track, this.profile.bitrate, this.#muted);
  }

  async update(config: UpdateLocalAudioConfig): Promise<void> {
    const option = config.option ?? {};
    const processingChanged = (['echoCancellation', 'autoGainControl', 'noiseSuppression'] as const)
      .some((flag) => option[flag] !== undefined && option[flag] !== this.#processing[flag]);
    const deviceChanged = option.microphoneId !== undefined && option.microphoneId !== this.#microphoneId;
    if (option.audioTrack !== undefined && option.audioTrack !== this.track) {
      this.#replace(option.audioTrack, false);
    } else if (deviceChanged || processingChanged) {
      // A repeated switch to the device in use is ignored; a change of device or processing recaptures.
      this.#processing = { ...this.#processing, ...Object.fromEntries(Object.entries(option).filter(([k]) => k in { echoCancellation: 1, autoGainControl: 1, noiseSuppression: 1 })) };
      this.#microphoneId = option.microphoneId ?? this.#microphoneId;
      const track = await captureMicrophone(this.profile, { microphoneId: this.#microphoneId, ...this.#processing }, 'updateLocalAudio');
      this.#replace(track, true);
    }
    if (this.#publish) await this.#publisher.replace(this.track);
    if (config.publish !== undefined && config.publish !== this.#publish) {
      this.#publish = config.publish;
      if (this.#publish) await this.#publisher.publish(this.track, this.profile.bitrate, this.#muted);
      else await this.#publisher.unpublish();
    }
    if (config.mute !== undefined && config.mute !== this.#muted) {
      this.#muted = config.mute;
      await this.#publisher.setMuted(this.#muted);
    }
  }

  #replace(track: MediaStreamTrack, owns: boolean): void {
    if (this.#ownsTrack) this.track.stop();
    this.track = track;
    this.#ownsTrack = owns;
  }

  async stop(): Promise<void> {
    if (this.#ownsTrack) this.track?.stop();
    if (this.#publish) await this.#publisher.unpublish();
  }
}
