/**
 * One remote video decoded by the plugin: walks the fallback chain (chain.ts) — each attempt a decode worker,
 * a renderer on a fresh canvas in the video's view, and the core's encoded-frame tap — and reports states,
 * downgrade levels and the final failure to the app through video-decode-downgrade-state-changed and error.
 */
import type { PluginContext } from '../../plugin-api/index.js';
import { DecoderLifecycle, FAILURE, firstStage, stageOf, type DecoderState, type FailureCode, type RendererKind, type Stage } from './chain.js';
import { ContextUnavailable, createRenderer, type Renderer } from './renderers.js';
import type { FromWorker, InjectedFailure, ToWorker } from './worker/protocol.js';

/** What a session decodes and how (the plugin's start options, resolved). */
export interface SessionOptions {
  userId: string;
  streamType: 'main' | 'sub';
  track: MediaStreamTrack;
  type: 'auto' | 'webCodecs' | 'wasm' | 'mock';
  renderer?: RendererKind;
  codec: string;
  /** Injected failures per attempt (type 'mock', tests) and a simulated decode time. */
  mock?: { failures?: (InjectedFailure | null)[]; decodeDelayMs?: number };
}

const OPERATION_FAILED = 5500;
const VIDEO_CONTEXT_ERROR = 5504;
const VIDEO_DECODE_ERROR = 5505;

/** The view's <video> that plays `track` (the player of startRemoteVideo). */
function videoOf(track: MediaStreamTrack): HTMLVideoElement | undefined {
  return [...document.querySelectorAll('video')].find((video) => (video.srcObject as MediaStream | null)?.getVideoTracks().some((t) => t === track));
}

export class DecodeSession {
  private readonly _ctx: PluginContext;
  private readonly _options: SessionOptions;
  private readonly _lifecycle = new DecoderLifecycle();
  private readonly _first: number;
  private _floor = 0;
  private _level = 0;
  private _worker: Worker | undefined;
  private _tap: MessagePort | undefined;
  private _renderer: Renderer | undefined;
  private _canvas: HTMLCanvasElement | undefined;
  /** The player's <video>: once the app stops the player (it leaves the page), decoding stops too. */
  private _video: HTMLVideoElement | undefined;
  private _hidden: { element: HTMLElement; css: string }[] = [];
  private _frames = 0;
  private _stopped = false;
  /** Watches the player's <video>: once the app stops the player (it leaves the page, frames may stop), so does the decoder. */
  private readonly _watch = setInterval(() => {
    if (!this._video || this._video.isConnected) return;
    this._ctx.log.info(`video decoder ${this._options.userId}/${this._options.streamType}: the player stopped, so does the decoder`);
    this.stop();
  }, 500);

  /** docs/behaviour.md §8 video pipeline errors of the track: logged; an ended track ends the decoder. */
  private readonly _onMute = () => this._ctx.log.warn(`video decoder ${this._options.userId}/${this._options.streamType}: video track muted`);
  private readonly _onEnded = () => {
    this._ctx.log.warn(`video decoder ${this._options.userId}/${this._options.streamType}: video track ended`);
    this.stop();
  };

  constructor(ctx: PluginContext, options: SessionOptions) {
    this._ctx = ctx;
    this._options = options;
    this._first = firstStage(options.type, options.renderer);
    options.track.addEventListener('mute', this._onMute);
    options.track.addEventListener('ended', this._onEnded);
  }

  get state(): DecoderState {
    return this._lifecycle.state;
  }

  /** Starts the first attempt; throws when the track has no tap (the schedule's videoDecodeFallback is off). */
  start(): void {
    const tap = this._ctx.remoteVideo.openTap(this._options.track);
    if (!tap) clearInterval(this._watch);
    if (!tap) throw this._ctx.errors({ code: 5200, extraCode: 5210, message: `no encoded frames for ${this._options.userId}'s ${this._options.streamType} video: the server's videoDecodeFallback is off or enableSEI is on`, functionName: 'startPlugin' });
    tap.close();
    this._attempt();
  }

  /** Raises the lowest downgrade level (a compute-pressure monitor's hint); 0 lifts it. */
  setPressureFloor(level: number): void {
    this._floor = Math.min(4, Math.max(0, Math.round(level)));
    this._worker?.postMessage({ type: 'floor', floor: this._floor } satisfies ToWorker);
  }

  private _emit(state: DecoderState, prevState: DecoderState, stage: Stage, extra: Record<string, unknown> = {}): void {
    const { userId, streamType } = this._options;
    const data = { userId, streamType, state, prevState, type: stage.decoder, renderer: stage.renderer, retries: this._lifecycle.retries, downgradeLevel: this._level, ...extra };
    this._ctx.log.info(`video decoder ${userId}/${streamType}:`, JSON.stringify(data));
    this._ctx.remoteVideo.emit('video-decode-downgrade-state-changed', data);
  }

  private _attempt(): void {
    const attempt = this._lifecycle.retries;
    const stage = stageOf(this._first, attempt);
    const fail = this._options.mock?.failures?.[attempt] ?? undefined;
    if (this._lifecycle.state === 'INITIALIZED') this._emit('STARTING', this._lifecycle.start(), stage);
    this._frames = 0;
    const video = videoOf(this._options.track);
    const canvas = document.createElement('canvas');
    Object.assign(canvas.style, { width: '100%', height: '100%', display: 'block', objectFit: video?.style.objectFit || 'cover', transform: video?.style.transform ?? '', backgroundColor: '#000' });
    Object.assign(canvas.dataset, { conclave: 'decoder', decoder: stage.decoder, renderer: stage.renderer, framesDecoded: '0' });
    this._canvas = canvas;
    this._video = video;
    const view = video?.parentElement;
    if (view) {
      for (const element of [...view.children] as HTMLElement[]) {
        if (!element.dataset.conclave) continue;
        this._hidden.push({ element, css: element.style.cssText });
        Object.assign(element.style, { position: 'absolute', width: '1px', height: '1px', opacity: '0', pointerEvents: 'none' });
      }
      view.appendChild(canvas);
    }
    try {
      if (fail === 'context') throw new ContextUnavailable('injected');
      this._renderer = createRenderer(stage.renderer, canvas);
    } catch (error) {
      this._failed(FAILURE.CONTEXT_UNAVAILABLE, `graphics context unavailable: ${String(error)}`, stage);
      return;
    }
    const tap = this._ctx.remoteVideo.openTap(this._options.track);
    const workerUrl = `${this._ctx.assetsPath}/video-decoder/decode-worker.js`;
    // A worker script must be same-origin: a blob bootstrap imports the server's asset (classic importScripts).
    const worker = new Worker(URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(workerUrl)})`], { type: 'text/javascript' })));
    this._worker = worker;
    this._tap = tap;
    worker.onerror = () => this._failed(stage.decoder === 'wasm' ? FAILURE.WASM_CREATE : FAILURE.WEBCODECS_CREATE, `decode worker failed to load from ${workerUrl}`, stage);
    worker.onmessage = ({ data }: MessageEvent<FromWorker>) => this._onMessage(data, stage, fail, worker);
    if (!tap) return this._failed(stage.decoder === 'wasm' ? FAILURE.WASM_CREATE : FAILURE.WEBCODECS_CREATE, 'the encoded-frame tap is gone', stage);
    const init: ToWorker = { type: 'init', tap, decoder: stage.decoder, codec: this._options.codec, wasmUrl: `${this._ctx.assetsPath}/video-decoder/tinyh264.wasm`, floor: this._floor,
      ...(fail && fail !== 'render' ? { fail } : {}), ...(this._options.mock?.decodeDelayMs ? { decodeDelayMs: this._options.mock.decodeDelayMs } : {}) };
    worker.postMessage(init, [tap]);
  }

  private _onMessage(message: FromWorker, stage: Stage, fail: InjectedFailure | undefined, worker: Worker): void {
    if (worker !== this._worker) {
      if (message.type === 'frame') message.frame.close();
      return;
    }
    if (message.type === 'error') return this._failed(message.code as FailureCode, message.message, stage);
    if (message.type === 'level') {
      const prevLevel = this._level;
      this._level = message.level;
      this._emit(this._lifecycle.state, this._lifecycle.state, stage, { prevDowngradeLevel: prevLevel, ...message.counters, decodeMs: message.decodeMs, frameIntervalMs: message.frameIntervalMs });
      if (this._renderer) this._renderer.canvas.dataset.downgradeLevel = String(message.level);
      return;
    }
    if (message.type !== 'frame' && message.type !== 'i420') return;
    const renderer = this._renderer;
    try {
      if (!renderer) return;
      if (fail === 'render') throw new Error('injected');
      if (message.draw) {
        if (message.type === 'frame') renderer.drawFrame(message.frame);
        else renderer.drawI420(message.data, message.width, message.height);
      }
    } catch (error) {
      const code = error instanceof ContextUnavailable ? FAILURE.CONTEXT_UNAVAILABLE : FAILURE.RENDER;
      this._failed(code, `render error: ${String(error)}`, stage);
      return;
    } finally {
      if (message.type === 'frame') message.frame.close();
    }
    this._frames += 1;
    if (renderer) renderer.canvas.dataset.framesDecoded = String(this._frames);
    if (this._lifecycle.state === 'STARTING') this._emit('STARTED', this._lifecycle.started(), stage);
  }

  private _teardownAttempt(): void {
    this._worker?.terminate();
    this._worker = undefined;
    this._tap?.close();
    this._tap = undefined;
    this._canvas?.remove();
    this._canvas = undefined;
    this._renderer = undefined;
  }

  private _restoreView(): void {
    for (const { element, css } of this._hidden) element.style.cssText = css;
    this._hidden = [];
  }

  private _failed(code: FailureCode, message: string, stage: Stage): void {
    if (this._stopped || this._lifecycle.state === 'FAILED') return;
    this._ctx.log.warn(`video decoder ${stage.decoder}/${stage.renderer} failed (code ${code}): ${message}`);
    this._teardownAttempt();
    this._restoreView();
    const prev = this._lifecycle.state;
    if (this._lifecycle.fail(code)) {
      const next = stageOf(this._first, this._lifecycle.retries);
      this._emit('STARTING', prev, next, { code, failedType: stage.decoder, failedRenderer: stage.renderer });
      this._attempt();
      return;
    }
    clearInterval(this._watch);
    this._emit('FAILED', prev, stage, { code, failures: [...this._lifecycle.failures] });
    const contextError = code === FAILURE.CONTEXT_UNAVAILABLE;
    this._ctx.remoteVideo.emit('error', this._ctx.errors({
      code: OPERATION_FAILED,
      extraCode: contextError ? VIDEO_CONTEXT_ERROR : VIDEO_DECODE_ERROR,
      message: `video decoder of ${this._options.userId}'s ${this._options.streamType} video failed after ${this._lifecycle.retries} retries (decoder failure codes ${this._lifecycle.failures.join(', ')}): ${message}`,
    }));
  }

  /** Stops decoding and gives the view back to the player. */
  stop(): void {
    this._stopped = true;
    clearInterval(this._watch);
    this._options.track.removeEventListener('mute', this._onMute);
    this._options.track.removeEventListener('ended', this._onEnded);
    this._teardownAttempt();
    this._restoreView();
  }
}
