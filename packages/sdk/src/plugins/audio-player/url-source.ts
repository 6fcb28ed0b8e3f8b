import type { PluginLog } from '../../plugin-api/index.js';
import type { AudioPlayerCallbacks } from './options.js';

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Why a file did not play, in the original's words: the HTTP status, or a fetch that failed (CORS, network). */
async function whyNotPlayable(url: string): Promise<{ message: string } | { blob: Blob }> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    // Reported: the message goes to the caller's error.
    return { message: `CORS error: Failed to fetch audio resource. Ensure the server allows cross-origin requests for: ${url}` };
  }
  if (!response.ok) return { message: `HTTP ${response.status}: Failed to load audio resource: ${url}` };
  const blob = await response.blob();
  if (blob.size === 0) return { message: `Downloaded resource is empty (size=0), url: ${url}` };
  return { blob };
}

/**
 * A file player: a media element (any format the browser decodes; blob: and data: URLs too) whose sound goes
 * through the plugin's Web Audio graph (`output`), so that one element is both heard and, when published, mixed.
 * Loading starts at creation; start() plays. As the original: a source the element refuses is fetched once and
 * played from a blob (its failure names the HTTP status); times are in seconds to 2 decimals.
 */
export class UrlSource {
  readonly output: GainNode;
  private readonly _element: HTMLAudioElement;
  private readonly _source: MediaElementAudioSourceNode;
  private readonly _url: string;
  private readonly _log: PluginLog;
  private _blobUrl = '';
  private _callbacks: AudioPlayerCallbacks = {};

  constructor(ctx: AudioContext, log: PluginLog, url: string, options: { loop?: boolean; playbackRate?: number }, callbacks: AudioPlayerCallbacks) {
    this._url = url;
    this._log = log;
    const element = new Audio();
    // Web Audio may only read a cross-origin file served with CORS.
    if (/^https?:/i.test(url)) element.crossOrigin = 'anonymous';
    element.preload = 'auto';
    element.src = url;
    this._element = element;
    this._source = ctx.createMediaElementSource(element);
    this.output = ctx.createGain();
    this._source.connect(this.output);
    element.ondurationchange = () => this._callbacks.onDurationChange?.(this.duration);
    element.ontimeupdate = () => this._callbacks.onTimeUpdate?.(this.currentTime, this.duration);
    element.onended = () => this._callbacks.onEnded?.();
    this.update(options, callbacks);
  }

  get currentTime(): number {
    return round2(this._element.currentTime);
  }

  get duration(): number {
    return Number.isFinite(this._element.duration) ? round2(this._element.duration) : 0;
  }

  get isStop(): boolean {
    return this._element.paused && this._element.currentTime === 0;
  }

  get isPause(): boolean {
    return this._element.paused;
  }

  get isPlayEnd(): boolean {
    return this._element.ended;
  }

  get loop(): boolean {
    return this._element.loop;
  }

  get playbackRate(): number {
    return this._element.playbackRate;
  }

  /** Plays; rejects with an Error naming why the file cannot play (the original's messages). */
  async start(): Promise<void> {
    try {
      await this._element.play();
    } catch (error) {
      if ((error as Error).name !== 'NotSupportedError' || this._blobUrl) throw error;
      this._log.warn(`audioPlayer: ${this._url.slice(0, 100)} did not play (${String(error)}), fetching it`);
      const fetched = await whyNotPlayable(this._url);
      if ('message' in fetched) throw new Error(fetched.message);
      this._blobUrl = URL.createObjectURL(fetched.blob);
      this._element.src = this._blobUrl;
      await this._element.play();
    }
  }

  pause(): void {
    this._element.pause();
  }

  resume(): void {
    this._element.play().catch((error: unknown) => this._log.warn('audioPlayer: resume failed:', error));
  }

  stop(): void {
    this._element.pause();
    this._element.currentTime = 0;
  }

  /** Moves to `time` seconds; outside [0, duration] it is ignored, as in the original. */
  seek(time: number): void {
    if (!(time >= 0) || time > this._element.duration) return;
    this._element.currentTime = time;
  }

  update(options: { loop?: boolean; playbackRate?: number; seekFrom?: number }, callbacks: AudioPlayerCallbacks): void {
    if (options.loop !== undefined) this._element.loop = options.loop;
    if (options.playbackRate !== undefined) {
      try {
        this._element.playbackRate = options.playbackRate;
      } catch (error) {
        this._log.warn(`audioPlayer: playbackRate ${options.playbackRate} refused:`, error);
      }
    }
    if (options.seekFrom !== undefined) this.seek(options.seekFrom);
    this._callbacks = { ...this._callbacks, ...Object.fromEntries(Object.entries(callbacks).filter(([, f]) => f)) };
  }

  destroy(): void {
    const element = this._element;
    element.pause();
    element.ondurationchange = element.ontimeupdate = element.onended = null;
    element.removeAttribute('src');
    element.load();
    this._source.disconnect();
    this.output.disconnect();
    if (this._blobUrl) URL.revokeObjectURL(this._blobUrl);
  }
}
