import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';
import { authorise, type DenoiseCredentials } from './auth.js';

/** startPlugin('AIDenoiser', …) / updatePlugin: the app's credentials, and where the denoiser asset is served. */
export interface AIDenoiserOptions extends DenoiseCredentials {
  /** Folder of denoiser-wasm.js (default: the client's assetsPath, `<server>/sdk/assets`). */
  assetsPath?: string;
  /** 5.17's DenoiserMode: 0 normal (default), 1 far-field reduction (distant talkers brought down too). */
  mode?: DenoiserMode;
}

/** 5.17's DenoiserMode values. */
export type DenoiserMode = 0 | 1;

/** updatePlugin('AIDenoiser', …): 5.17's `{ mode }`, or new credentials (re-authorised). */
export type UpdateDenoiserOptions = { mode: DenoiserMode } | AIDenoiserOptions;

/** The worklet script (RNNoise inside) under the assets path, as the original names it. */
export const DENOISER_ASSET = 'denoiser-wasm.js';

const loadedWorklets = new WeakMap<AudioContext, Map<string, Promise<void>>>();

/**
 * The AIDenoiser plugin (built in): RNNoise in an AudioWorklet on the published microphone, after the
 * server's authorisation. Start, update and stop swap the microphone path while publishing (no renegotiation).
 */
export class AIDenoiser {
  static readonly Name = 'AIDenoiser';
  private readonly _ctx: PluginContext;
  private _node: AudioWorkletNode | undefined;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  private _validate(options: unknown, functionName: string): asserts options is AIDenoiserOptions {
    const fail = (extraCode: number, message: string) => this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName });
    if (typeof options !== 'object' || options === null) throw fail(EXTRA_CODE.PARAMETER_REQUIRED, 'AIDenoiser options {sdkAppId, userId, userSig} are required');
    const o = options as Record<string, unknown>;
    if (typeof o.sdkAppId !== 'number') throw fail(o.sdkAppId === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.TYPE, 'sdkAppId must be a number');
    for (const key of ['userId', 'userSig'] as const) {
      if (typeof o[key] !== 'string' || o[key] === '') throw fail(o[key] === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.TYPE, `${key} must be a non-empty string`);
    }
    if (o.assetsPath !== undefined && typeof o.assetsPath !== 'string') throw fail(EXTRA_CODE.TYPE, 'assetsPath must be a string');
    this._checkMode(o.mode, functionName);
    // docs/behaviour.md §5: the microphone must be on.
    if (!this._ctx.audio.hasMicrophone()) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, extraCode: EXTRA_CODE.NEED_AUDIO, message: 'AIDenoiser needs the microphone on: call startLocalAudio() first', functionName });
    }
  }

  private _checkMode(mode: unknown, functionName: string): void {
    if (mode !== undefined && mode !== 0 && mode !== 1) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message: 'mode must be 0 (normal) or 1 (far-field reduction)', functionName });
    }
  }

  private async _loadWorklet(audioContext: AudioContext, assetsPath: string): Promise<void> {
    let byPath = loadedWorklets.get(audioContext);
    if (!byPath) loadedWorklets.set(audioContext, byPath = new Map());
    const url = `${assetsPath.replace(/\/+$/, '')}/${DENOISER_ASSET}`;
    let loading = byPath.get(url);
    if (!loading) {
      // Downloaded on the main thread, then added from a blob URL, as the original does (the fetch shows in the page's network log).
      loading = fetch(url).then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const blobUrl = URL.createObjectURL(await response.blob());
        try {
          await audioContext.audioWorklet.addModule(blobUrl);
        } finally {
          URL.revokeObjectURL(blobUrl);
        }
      });
      byPath.set(url, loading);
      loading.catch(() => byPath.delete(url)); // forgotten so the next start retries; the caller gets the rejection
    }
    try {
      await loading;
    } catch (error) {
      throw this._ctx.errors({ code: ERROR_CODE.OPERATION_FAILED, message: `AIDenoiser: loading ${url} failed: ${String(error)}`, functionName: 'startPlugin' });
    }
  }

  /** Authorises, loads the worklet and inserts it on the microphone path. */
  async start(options: AIDenoiserOptions): Promise<void> {
    this._validate(options, 'startPlugin');
    await authorise(this._ctx, options);
    if (this._node) return;
    const audioContext = this._ctx.audio.audioContext();
    await this._loadWorklet(audioContext, options.assetsPath ?? this._ctx.assetsPath);
    const node = new AudioWorkletNode(audioContext, 'conclave-rnnoise', { numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1], channelCount: 1, channelCountMode: 'explicit' });
    // Wait for the wasm so the first published audio is already denoised.
    await new Promise<void>((resolve, reject) => {
      node.port.onmessage = (event: MessageEvent<{ type: string; message?: string }>) => {
        if (event.data.type === 'ready') resolve();
        else reject(this._ctx.errors({ code: ERROR_CODE.OPERATION_FAILED, message: `AIDenoiser: ${event.data.message ?? 'wasm failed'}`, functionName: 'startPlugin' }));
      };
    });
    this._node = node;
    node.port.postMessage({ type: 'mode', value: options.mode ?? 0 });
    this._ctx.audio.setProcessor({ input: node, output: node });
    await audioContext.resume().catch(() => undefined); // a context the page may not start yet: the denoiser runs once it does
    this._ctx.log.info('AIDenoiser: started');
  }

  /**
   * 5.17's `{ mode }` switches the running denoiser's mode; with credentials it re-authorises them too (and
   * applies `mode` if given). The denoiser keeps running. INVALID_PARAMETER for a bad mode or credentials.
   */
  async update(options: UpdateDenoiserOptions): Promise<void> {
    const o = (options ?? {}) as Partial<AIDenoiserOptions>;
    if (o.sdkAppId !== undefined || o.userId !== undefined || o.userSig !== undefined || o.mode === undefined) {
      this._validate(options, 'updatePlugin');
      await authorise(this._ctx, options as AIDenoiserOptions);
    } else {
      this._checkMode(o.mode, 'updatePlugin');
    }
    if (o.mode !== undefined) this._node?.port.postMessage({ type: 'mode', value: o.mode });
  }

  /** Takes the denoiser off the microphone path. */
  stop(): void {
    const node = this._node;
    if (!node) return;
    this._node = undefined;
    this._ctx.audio.setProcessor(null);
    node.port.postMessage({ type: 'close' });
    node.disconnect();
    this._ctx.log.info('AIDenoiser: stopped');
  }

  destroy(): void {
    this.stop();
  }
}
