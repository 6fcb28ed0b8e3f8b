/**
 * One remote video decoded by the plugin: walks the fallback chain (chain.ts) — each attempt a decode worker,
 * a renderer on a fresh canvas in the video's view, and the core's encoded-frame tap — and reports states,
 * downgrade levels and the final failure to the app through video-decode-downgrade-state-changed and error.
 */
import type { PluginContext } from '../context/index.js';
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
  readonly #ctx: PluginContext;
  readonly #options: SessionOptions;
  readonly #lifecycle = new DecoderLifecycle();
  readonly #first: number;
  #floor = 0;
  #level = 0;
  #worker: Worker | undefined;
  #tap: MessagePort | undefined;
  #renderer: Renderer | undefined;
  #canvas: HTMLCanvasElement | undefined;
  /** The player's <video>: once the app stops the player (it leaves the page), decoding stops too. */
  #video: HTMLVideoElement | undefined;
  #hidden: { element: HTMLElement; css: string }[] = [];
  #frames = 0;
  #stopped = false;
  /** Watches the player's <video>: once the app stops the player (it leaves the page, frames may stop), so does the decoder. */
  readonly #watch = setInterval(() => {
    if (!this.#video || this.#video.isConnected) return;
    this.#ctx.log.info(`video decoder ${this.#options.userId}/${this.#options.streamType}: the player stopped, so does the decoder`);
    this.stop();
  }, 500);

  /** SPEC §8 video pipeline errors of the track: logged; an ended track ends the decoder. */
  readonly #onMute = () => this.#ctx.log.warn(`video decoder ${this.#options.userId}/${this.#options.streamType}: video track muted`);
  readonly #onEnded = () => {
    this.#ctx.log.warn(`video decoder ${this.#options.userId}/${this.#options.streamType}: video track ended`);
    this.stop();
  };

  constructor(ctx: PluginContext, options: SessionOptions) {
    this.#ctx = ctx;
    this.#options = options;
    this.#first = firstStage(options.type, options.renderer);
    options.track.addEventListener('mute', this.#onMute);
    options.track.addEventListener('ended', this.#onEnded);
  }

  get state(): DecoderState {
    return this.#lifecycle.state;
  }

  /** Starts the first attempt; throws when the track has no tap (the schedule's videoDecodeFallback is off). */
  start(): void {
    const tap = this.#ctx.remoteVideo.openTap(this.#options.track);
    if (!tap) clearInterval(this.#watch);
    if (!tap) throw this.#ctx.errors({ code: 5200, extraCode: 5210, message: `no encoded frames for ${this.#options.userId}'s ${this.#options.streamType} video: the server's videoDecodeFallback is off or enableSEI is on`, functionName: 'startPlugin' });
    tap.close();
    this.#attempt();
  }

  /** Raises the lowest downgrade level (a compute-pressure monitor's hint); 0 lifts it. */
  setPressureFloor(level: number): void {
    this.#floor = Math.min(4, Math.max(0, Math.round(level)));
    this.#worker?.postMessage({ type: 'floor', floor: this.#floor } satisfies ToWorker);
  }

  #emit(state: DecoderState, prevState: DecoderState, stage: Stage, extra: Record<string, unknown> = {}): void {
    const { userId, streamType } = this.#options;
    const data = { userId, streamType, state, prevState, type: stage.decoder, renderer: stage.renderer, retries: this.#lifecycle.retries, downgradeLevel: this.#level, ...extra };
    this.#ctx.log.info(`video decoder ${userId}/${streamType}:`, JSON.stringify(data));
    this.#ctx.remoteVideo.emit('video-decode-downgrade-state-changed', data);
  }

  #attempt(): void {
    const attempt = this.#lifecycle.retries;
    const stage = stageOf(this.#first, attempt);
    const fail = this.#options.mock?.failures?.[attempt] ?? undefined;
    if (this.#lifecycle.state === 'INITIALIZED') this.#emit('STARTING', this.#lifecycle.start(), stage);
    this.#frames = 0;
    const video = videoOf(this.#options.track);
    const canvas = document.createElement('canvas');
    Object.assign(canvas.style, { width: '100%', height: '100%', display: 'block', objectFit: video?.style.objectFit || 'cover', transform: video?.style.transform ?? '', backgroundColor: '#000' });
    Object.assign(canvas.dataset, { conclave: 'decoder', decoder: stage.decoder, renderer: stage.renderer, framesDecoded: '0' });
    this.#canvas = canvas;
    this.#video = video;
    const view = video?.parentElement;
    if (view) {
      for (const element of [...view.children] as HTMLElement[]) {
        if (!element.dataset.conclave) continue;
        this.#hidden.push({ element, css: element.style.cssText });
        Object.assign(element.style, { position: 'absolute', width: '1px', height: '1px', opacity: '0', pointerEvents: 'none' });
      }
      view.appendChild(canvas);
    }
    try {
      if (fail === 'context') throw new ContextUnavailable('injected');
      this.#renderer = createRenderer(stage.renderer, canvas);
    } catch (error) {
      this.#failed(FAILURE.CONTEXT_UNAVAILABLE, `graphics context unavailable: ${String(error)}`, stage);
      return;
    }
    const tap = this.#ctx.remoteVideo.openTap(this.#options.track);
    const workerUrl = `${this.#ctx.assetsPath}/video-decoder/decode-worker.js`;
    // A worker script must be same-origin: a blob bootstrap imports the server's asset (classic importScripts).
    const worker = new Worker(URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(workerUrl)})`], { type: 'text/javascript' })));
    this.#worker = worker;
    this.#tap = tap;
    worker.onerror = () => this.#failed(stage.decoder === 'wasm' ? FAILURE.WASM_CREATE : FAILURE.WEBCODECS_CREATE, `decode worker failed to load from ${workerUrl}`, stage);
    worker.onmessage = ({ data }: MessageEvent<FromWorker>) => this.#onMessage(data, stage, fail, worker);
    if (!tap) return this.#failed(stage.decoder === 'wasm' ? FAILURE.WASM_CREATE : FAILURE.WEBCODECS_CREATE, 'the encoded-frame tap is gone', stage);
    const init: ToWorker = { type: 'init', tap, decoder: stage.decoder, codec: this.#options.codec, wasmUrl: `${this.#ctx.assetsPath}/video-decoder/tinyh264.wasm`, floor: this.#floor,
      ...(fail && fail !== 'render' ? { fail } : {}), ...(this.#options.mock?.decodeDelayMs ? { decodeDelayMs: this.#options.mock.decodeDelayMs } : {}) };
    worker.postMessage(init, [tap]);
  }

  #onMessage(message: FromWorker, stage: Stage, fail: InjectedFailure | undefined, worker: Worker): void {
    if (worker !== this.#worker) {
      if (message.type === 'frame') message.frame.close();
      return;
    }
    if (message.type === 'error') return this.#failed(message.code as FailureCode, message.message, stage);
    if (message.type === 'level') {
      const prevLevel = this.#level;
      this.#level = message.level;
      this.#emit(this.#lifecycle.state, this.#lifecycle.state, stage, { prevDowngradeLevel: prevLevel, ...message.counters, decodeMs: message.decodeMs, frameIntervalMs: message.frameIntervalMs });
      if (this.#renderer) this.#renderer.canvas.dataset.downgradeLevel = String(message.level);
      return;
    }
    if (message.type !== 'frame' && message.type !== 'i420') return;
    const renderer = this.#renderer;
    try {
      if (!renderer) return;
      if (fail === 'render') throw new Error('injected');
      if (message.draw) {
        if (message.type === 'frame') renderer.drawFrame(message.frame);
        else renderer.drawI420(message.data, message.width, message.height);
      }
    } catch (error) {
      const code = error instanceof ContextUnavailable ? FAILURE.CONTEXT_UNAVAILABLE : FAILURE.RENDER;
      this.#failed(code, `render error: ${String(error)}`, stage);
      return;
    } finally {
      if (message.type === 'frame') message.frame.close();
    }
    this.#frames += 1;
    if (renderer) renderer.canvas.dataset.framesDecoded = String(this.#frames);
    if (this.#lifecycle.state === 'STARTING') this.#emit('STARTED', this.#lifecycle.started(), stage);
  }

  #teardownAttempt(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#tap?.close();
    this.#tap = undefined;
    this.#canvas?.remove();
    this.#canvas = undefined;
    this.#renderer = undefined;
  }

  #restoreView(): void {
    for (const { element, css } of this.#hidden) element.style.cssText = css;
    this.#hidden = [];
  }

  #failed(code: FailureCode, message: string, stage: Stage): void {
    if (this.#stopped || this.#lifecycle.state === 'FAILED') return;
    this.#ctx.log.warn(`video decoder ${stage.decoder}/${stage.renderer} failed (code ${code}): ${message}`);
    this.#teardownAttempt();
    this.#restoreView();
    const prev = this.#lifecycle.state;
    if (this.#lifecycle.fail(code)) {
      const next = stageOf(this.#first, this.#lifecycle.retries);
      this.#emit('STARTING', prev, next, { code, failedType: stage.decoder, failedRenderer: stage.renderer });
      this.#attempt();
      return;
    }
    clearInterval(this.#watch);
    this.#emit('FAILED', prev, stage, { code, failures: [...this.#lifecycle.failures] });
    const contextError = code === FAILURE.CONTEXT_UNAVAILABLE;
    this.#ctx.remoteVideo.emit('error', this.#ctx.errors({
      code: OPERATION_FAILED,
      extraCode: contextError ? VIDEO_CONTEXT_ERROR : VIDEO_DECODE_ERROR,
      message: `video decoder of ${this.#options.userId}'s ${this.#options.streamType} video failed after ${this.#lifecycle.retries} retries (decoder failure codes ${this.#lifecycle.failures.join(', ')}): ${message}`,
    }));
  }

  /** Stops decoding and gives the view back to the player. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#watch);
    this.#options.track.removeEventListener('mute', this.#onMute);
    this.#options.track.removeEventListener('ended', this.#onEnded);
    this.#teardownAttempt();
    this.#restoreView();
  }
}
