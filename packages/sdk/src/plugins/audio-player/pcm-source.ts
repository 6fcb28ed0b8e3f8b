import type { PluginLog } from '../../plugin-api/index.js';
import type { AudioPlayerCallbacks, RealtimeOption } from './options.js';
import { downmix, PLAY_RATE, StreamResampler, toFloat } from './pcm-convert.js';
import { addPcmWorklet, PCM_PROCESSOR } from './pcm-worklet.js';

/** With `realtime: { discardAll: true }`, what waits longer than this (ms) is dropped when more comes (the original's default). */
const DEFAULT_MAX_DELAY_MS = 300;
/** What was fed counts as played to its end once the worklet has had nothing to play for this long (as the original). */
const END_AFTER_DRY_MS = 500;

type State = 'idle' | 'playing' | 'paused' | 'stopped' | 'destroyed';

const seconds = (samples: number) => Math.round((samples / PLAY_RATE) * 100) / 100;

/**
 * A PCM player: the app's samples (Float32 or Int16, any rate, `channels` interleaved) become mono 48 kHz chunks
 * played by an AudioWorklet (pcm-worklet.ts) into `output`. Input before start() waits in the worklet, which is
 * held until then. Realtime (the default): pause, stop and clearInput drop what was fed, and input while paused
 * is dropped; otherwise fed data is kept and a stop then start plays it again from its start.
 */
export class PcmSource {
  readonly output: GainNode;
  private readonly _ctx: AudioContext;
  private readonly _log: PluginLog;
  private _node: AudioWorkletNode | undefined;
  private readonly _pending: Float32Array[] = [];
  private readonly _resampler = new StreamResampler();
  private _state: State = 'idle';
  private _realtime: boolean | RealtimeOption;
  private _channels: number;
  private _callbacks: AudioPlayerCallbacks;
  private _fed = 0;
  private _played = 0;
  private _inputs = 0;
  private _ended = false;
  private _endTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(ctx: AudioContext, log: PluginLog, options: { realtime?: boolean | RealtimeOption; channels?: number }, callbacks: AudioPlayerCallbacks) {
    this._ctx = ctx;
    this._log = log;
    this._realtime = options.realtime ?? true;
    this._channels = options.channels && options.channels > 0 ? Math.floor(options.channels) : 1;
    this._callbacks = callbacks;
    this.output = ctx.createGain();
  }

  /** Loads the worklet (once per context) and makes the player's node, held. */
  async init(): Promise<void> {
    await addPcmWorklet(this._ctx);
    if (this._state === 'destroyed') return;
    const node = new AudioWorkletNode(this._ctx, PCM_PROCESSOR, { numberOfInputs: 0, numberOfOutputs: 1, outputChannelCount: [1] });
    node.port.onmessage = ({ data }: MessageEvent<{ t: 'pos' | 'dry'; played: number }>) => this._onWorklet(data.t, data.played);
    node.connect(this.output);
    this._node = node;
    this._post({ t: 'keep', on: !this._realtime });
    for (const pcm of this._pending.splice(0)) this._post({ t: 'push', pcm }, [pcm.buffer]);
  }

  get currentTime(): number {
    return seconds(this._played);
  }

  get duration(): number {
    return seconds(this._fed);
  }

  get isStop(): boolean {
    return this._state === 'idle' || this._state === 'stopped';
  }

  get isPause(): boolean {
    return this._state === 'paused';
  }

  get isPlayEnd(): boolean {
    return this._ended;
  }

  /** Feeds samples; a bad call is reported to onInputError (the original never throws from input). */
  input(data: Float32Array | Int16Array, sampleRate: number): void {
    const index = this._inputs++;
    const error = this._state === 'destroyed' ? 'player is destroyed'
      : !(data instanceof Float32Array || data instanceof Int16Array) ? 'pcmData must be a Float32Array or an Int16Array'
        : !(typeof sampleRate === 'number' && sampleRate > 0 && Number.isFinite(sampleRate)) ? 'invalid sampleRate' : '';
    if (error) {
      this._log.warn(`audioPlayer: input ${index}: ${error}`);
      this._callbacks.onInputError?.(error, index);
      return;
    }
    if (this._state === 'paused' && this._realtime) return;
    const pcm = this._resampler.push(downmix(toFloat(data), this._channels), sampleRate);
    if (pcm.length === 0) return;
    const limit = typeof this._realtime === 'object' ? this._realtime : undefined;
    if (limit?.discardAll && this._fed - this._played > ((limit.maxDelay || DEFAULT_MAX_DELAY_MS) / 1000) * PLAY_RATE) {
      this._drop();
      this._callbacks.onDurationChange?.(this.duration);
    }
    this._fed += pcm.length;
    this._ended = false;
    clearTimeout(this._endTimer);
    if (this._node) this._post({ t: 'push', pcm }, [pcm.buffer]);
    else this._pending.push(pcm);
    this._callbacks.onDurationChange?.(this.duration);
    this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
  }

  /** Forgets what was fed and not played yet (and, realtime or not, the position). */
  clearInput(): void {
    this._drop();
    this._callbacks.onDurationChange?.(0);
    this._callbacks.onTimeUpdate?.(0, 0);
  }

  start(): void {
    if (this._state === 'playing' || this._state === 'destroyed') return;
    if (this._state === 'stopped' && !this._realtime) this._post({ t: 'rewind' });
    this._state = 'playing';
    this._ended = false;
    this._post({ t: 'play' });
  }

  pause(): void {
    if (this._state !== 'playing') return;
    this._state = 'paused';
    this._post({ t: 'hold' });
    clearTimeout(this._endTimer);
    if (this._realtime) {
      this._drop();
      this._callbacks.onDurationChange?.(0);
    }
    this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
  }

  resume(): void {
    if (this._state !== 'paused') return;
    this._state = 'playing';
    this._post({ t: 'play' });
    this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
  }

  /** Stops; start() plays again (what was kept, from its start, when not realtime). onEnded, as the typings say. */
  stop(): void {
    if (this._state !== 'playing' && this._state !== 'paused') return;
    this._post({ t: 'hold' });
    clearTimeout(this._endTimer);
    if (this._realtime) {
      this._drop();
      this._callbacks.onDurationChange?.(0);
    } else {
      this._played = 0;
      this._resampler.reset();
    }
    this._state = 'stopped';
    this._ended = true;
    this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
    this._callbacks.onEnded?.();
  }

  /** realtime / channels / callbacks changed by updatePlugin. */
  update(options: { realtime?: boolean | RealtimeOption; channels?: number }, callbacks: AudioPlayerCallbacks): void {
    if (options.realtime !== undefined) {
      this._realtime = options.realtime;
      this._post({ t: 'keep', on: !options.realtime });
    }
    if (options.channels !== undefined && options.channels > 0) this._channels = Math.floor(options.channels);
    this._callbacks = { ...this._callbacks, ...Object.fromEntries(Object.entries(callbacks).filter(([, f]) => f)) };
  }

  destroy(): void {
    if (this._state === 'destroyed') return;
    this._state = 'destroyed';
    clearTimeout(this._endTimer);
    this._post({ t: 'end' });
    if (this._node) {
      this._node.port.onmessage = null;
      this._node.disconnect();
    }
    this._node = undefined;
    this._pending.length = 0;
    this.output.disconnect();
  }

  private _drop(): void {
    this._post({ t: 'drop' });
    this._pending.length = 0;
    this._resampler.reset();
    this._fed = 0;
    this._played = 0;
  }

  private _post(message: Record<string, unknown>, transfer: Transferable[] = []): void {
    this._node?.port.postMessage(message, transfer);
  }

  private _onWorklet(kind: 'pos' | 'dry', played: number): void {
    if (this._state !== 'playing') return;
    this._played = Math.min(played, this._fed);
    if (kind === 'pos') {
      this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
      return;
    }
    clearTimeout(this._endTimer);
    this._endTimer = setTimeout(() => {
      if (this._state !== 'playing' || this._played < this._fed) return;
      this._ended = true;
      if (this._fed > 0) this._callbacks.onEnded?.();
      this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
    }, END_AFTER_DRY_MS);
  }
}
