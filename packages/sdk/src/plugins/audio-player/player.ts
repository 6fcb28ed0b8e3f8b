import type { AudioPlayerContext } from '../../plugin-api/audio-player.js';
import type { PluginContext } from '../../plugin-api/index.js';
import type { AudioPlayerCallbacks, AudioPlayerOptions, AudioPlayerUpdateOptions, AudioSourceType } from './options.js';
import { PcmSource } from './pcm-source.js';
import { TrackSource } from './track-source.js';
import { UrlSource } from './url-source.js';

const CALLBACKS = ['onInputError', 'onDurationChange', 'onTimeUpdate', 'onEnded'] as const;
const callbacksOf = (options: AudioPlayerCallbacks): AudioPlayerCallbacks =>
  Object.fromEntries(CALLBACKS.filter((key) => options[key]).map((key) => [key, options[key]]));

/**
 * One player of the AudioPlayer plugin, what startPlugin('AudioPlayer') resolves with (its public type is
 * plugin-api's AudioPlayerContext, 5.18's name: apps only ever hold one as that type).
 * Its sound is always played locally (the page's speakers, through the plugin context's audio graph); with
 * `publish` it is also mixed into what the microphone publishes, so the room hears it too (and the browser's echo
 * cancellation, which works on the microphone's capture, does not remove it). `publish` can be switched at any time.
 */
export class AudioPlayerInstance implements AudioPlayerContext {
  readonly id: string;
  readonly sourceType: AudioSourceType;
  private readonly _context: PluginContext;
  private readonly _pcm: PcmSource | undefined;
  private readonly _url: UrlSource | undefined;
  private readonly _track: TrackSource | undefined;
  private readonly _output: GainNode;
  private _volume: number;
  private _unmix: (() => void) | undefined;
  private _destroyed = false;

  constructor(context: PluginContext, options: AudioPlayerOptions) {
    this.id = options.id;
    this.sourceType = options.sourceType as AudioSourceType;
    this._context = context;
    const ctx = context.audio.audioContext();
    const callbacks = callbacksOf(options);
    if (options.sourceType === 'pcm') this._pcm = new PcmSource(ctx, context.log, options, callbacks);
    else if (options.sourceType === 'url') this._url = new UrlSource(ctx, context.log, options.url ?? '', options, callbacks);
    else this._track = new TrackSource(ctx, options.track as MediaStreamTrack);
    this._output = (this._pcm ?? this._url ?? this._track as TrackSource).output;
    this._output.connect(ctx.destination);
    this._volume = options.volume ?? 1;
    this._applyVolume();
    if (options.publish) this.publish = true;
  }

  /** Prepares the player (the PCM worklet); startPlugin resolves after it. */
  async init(): Promise<void> {
    await this._pcm?.init();
  }

  get currentTime(): number {
    return this._pcm?.currentTime ?? this._url?.currentTime ?? 0;
  }

  get duration(): number {
    return this._pcm?.duration ?? this._url?.duration ?? 0;
  }

  get isStop(): boolean {
    return this._pcm?.isStop ?? this._url?.isStop ?? this._track?.isStop ?? true;
  }

  get isPause(): boolean {
    return this._pcm?.isPause ?? this._url?.isPause ?? this._track?.isPause ?? false;
  }

  get isPlayEnd(): boolean {
    return this._pcm?.isPlayEnd ?? this._url?.isPlayEnd ?? false;
  }

  /** 0–1 (default 1); url and track players (a PCM player plays its samples as fed, as the original). */
  get volume(): number {
    return this._volume;
  }

  set volume(value: number) {
    this._volume = value;
    this._applyVolume();
  }

  /** url players only. */
  get loop(): boolean {
    return this._url?.loop ?? false;
  }

  set loop(value: boolean) {
    this._url?.update({ loop: value }, {});
  }

  /** url players only. */
  get playbackRate(): number {
    return this._url?.playbackRate ?? 1;
  }

  set playbackRate(value: number) {
    this._url?.update({ playbackRate: value }, {});
  }

  /** Whether the sound is also mixed into the published microphone audio (switching is immediate). */
  get publish(): boolean {
    return this._unmix !== undefined;
  }

  set publish(value: boolean) {
    if (this._destroyed || value === this.publish) return;
    if (value) {
      this._unmix = this._context.audio.mix(this._output);
    } else {
      this._unmix?.();
      this._unmix = undefined;
    }
    this._context.log.info(`audioPlayer ${this.id}: publish ${value}`);
  }

  /** PCM players: feeds samples (Float32Array or Int16Array) at `sampleRate`; may be called before start(). */
  input(pcmData: Float32Array | Int16Array, sampleRate: number): void {
    if (!this._pcm) {
      this._context.log.warn('audioPlayer: input() is only available for PCM source type');
      return;
    }
    this._pcm.input(pcmData, sampleRate);
  }

  /** PCM players: forgets what was fed and not played yet. */
  clearInput(): void {
    this._pcm?.clearInput();
  }

  /** Starts playing (again after stop()). A page that may not play yet gets 'autoplay-failed' with a resume(). */
  async start(): Promise<void> {
    if (this._destroyed) {
      this._context.log.warn(`audioPlayer ${this.id}: player is destroyed`);
      return;
    }
    const ctx = this._context.audio.audioContext();
    if (ctx.state === 'suspended') ctx.resume().catch((error: unknown) => this._context.log.warn(`audioPlayer ${this.id}: the audio context did not resume:`, error));
    this._pcm?.start();
    this._track?.start();
    if (!this._url) return;
    try {
      await this._url.start();
    } catch (error) {
      if ((error as Error).name !== 'NotAllowedError') throw error;
      this._context.log.warn(`audioPlayer ${this.id}: playing needs a user gesture on this page`);
      const url = this._url;
      this._context.remoteVideo.emit('autoplay-failed', { userId: '', mediaType: 'audio', resume: () => url.start() });
    }
  }

  pause(): void {
    this._pcm?.pause();
    this._url?.pause();
    this._track?.pause();
  }

  resume(): void {
    this._pcm?.resume();
    this._url?.resume();
    this._track?.resume();
  }

  /** Stops; start() plays again (a file from its start). */
  stop(): void {
    this._pcm?.stop();
    this._url?.stop();
    this._track?.stop();
  }

  /** url players: moves to `time` seconds (ignored outside the file). */
  seek(time: number): void {
    this._url?.seek(time);
  }

  /** updatePlugin's fields (the deprecated `operation` included). */
  update(options: AudioPlayerUpdateOptions): void {
    const callbacks = callbacksOf(options);
    if (options.publish !== undefined) this.publish = options.publish;
    if (options.volume !== undefined) this.volume = options.volume;
    this._url?.update(options, callbacks);
    this._pcm?.update(options, callbacks);
    if (options.operation === 'pause') this.pause();
    else if (options.operation === 'resume') this.resume();
    else if (options.operation === 'stop') this.stop();
  }

  destroy(): void {
    if (this._destroyed) return;
    this.publish = false;
    this._destroyed = true;
    this._pcm?.destroy();
    this._url?.destroy();
    this._track?.destroy();
  }

  private _applyVolume(): void {
    if (!this._pcm) this._output.gain.value = this._volume;
  }
}
