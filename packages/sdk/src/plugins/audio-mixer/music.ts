import type { AudioMixerOptions, UpdateAudioMixerOptions } from './options.js';

type Callbacks = Pick<AudioMixerOptions, 'onTimeUpdate' | 'onEnded' | 'onDurationChange'>;

/**
 * One piece of music: a media element (it decodes every format the browser knows, blob and data URLs
 * included) → a volume gain → the published microphone (through the context's mix) and the local speakers
 * (the original also plays the music to the local user).
 */
export class Music {
  private readonly _element: HTMLAudioElement | undefined;
  private readonly _source: AudioNode;
  private readonly _gain: GainNode;
  private readonly _unmix: () => void;
  private _callbacks: Callbacks = {};

  private constructor(ctx: AudioContext, mix: (node: AudioNode) => () => void, element: HTMLAudioElement | undefined, source: AudioNode) {
    this._element = element;
    this._source = source;
    this._gain = ctx.createGain();
    source.connect(this._gain);
    this._gain.connect(ctx.destination);
    this._unmix = mix(this._gain);
  }

  /** Loads a url (resolves once it can play; rejects when the file cannot be loaded or decoded) or wraps a track. */
  static async open(ctx: AudioContext, mix: (node: AudioNode) => () => void, options: AudioMixerOptions): Promise<Music> {
    if (!options.url && options.track) {
      return new Music(ctx, mix, undefined, ctx.createMediaStreamSource(new MediaStream([options.track])));
    }
    const element = new Audio();
    // Web Audio may only read a cross-origin file served with CORS.
    if (/^https?:/.test(options.url ?? '')) element.crossOrigin = 'anonymous';
    element.preload = 'auto';
    await new Promise<void>((resolve, reject) => {
      element.oncanplay = () => resolve();
      element.onerror = () => reject(new Error(`cannot load ${options.url?.slice(0, 100)}: ${element.error?.message || `media error ${element.error?.code ?? ''}`}`));
      element.src = options.url ?? '';
      element.load();
    });
    element.oncanplay = null;
    element.onerror = null;
    return new Music(ctx, mix, element, ctx.createMediaElementSource(element));
  }

  /** Applies loop / volume / rate / position and the callbacks. */
  apply(options: AudioMixerOptions | UpdateAudioMixerOptions): void {
    const element = this._element;
    if (options.volume !== undefined) this._gain.gain.value = options.volume;
    for (const key of ['onTimeUpdate', 'onEnded', 'onDurationChange'] as const) {
      if (options[key]) (this._callbacks as Record<string, unknown>)[key] = options[key];
    }
    if (!element) return;
    if (options.loop !== undefined) element.loop = options.loop;
    if (options.playbackRate !== undefined) element.playbackRate = options.playbackRate;
    if (options.seekFrom !== undefined) element.currentTime = options.seekFrom;
    element.ontimeupdate = () => this._callbacks.onTimeUpdate?.(element.currentTime, element.duration);
    element.ondurationchange = () => this._callbacks.onDurationChange?.(element.duration);
    element.onended = () => this._callbacks.onEnded?.();
    if (Number.isFinite(element.duration)) this._callbacks.onDurationChange?.(element.duration);
  }

  async play(): Promise<void> {
    await this._element?.play();
  }

  pause(): void {
    this._element?.pause();
  }

  stop(): void {
    this._unmix();
    this._gain.disconnect();
    this._source.disconnect();
    if (this._element) {
      this._element.pause();
      this._element.ontimeupdate = this._element.ondurationchange = this._element.onended = null;
      this._element.removeAttribute('src');
      this._element.load();
    }
  }
}
