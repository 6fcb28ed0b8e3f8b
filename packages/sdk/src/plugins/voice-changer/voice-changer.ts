import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { AudioProcessorStage, PluginContext } from '../../plugin-api/index.js';
import type { VoiceChangerStartOptions, VoiceChangerUpdateOptions } from './options.js';
import { VOICE_TYPE, VOICES, voiceParams } from './voices.js';
import { WORKLET_NAME, workletSource } from './worklet.js';

const loadedContexts = new WeakMap<AudioContext, Promise<void>>();

/**
 * The VoiceChanger plugin (trtc-sdk-v5's plugins/voice-changer): every voiceType the original lists (0–12,
 * VoiceChanger.VOICE_TYPE; voices.ts says what each does) as DSP in an AudioWorklet on the published
 * microphone. start inserts it on the microphone path, update changes the voice in the running worklet,
 * stop takes it out — all while publishing, without renegotiation. The credentials are checked for shape
 * only (the original asks the vendor's licence service; a self-hosted server has none to ask).
 */
export class VoiceChanger {
  static readonly Name = 'VoiceChanger';
  static readonly VOICE_TYPE = VOICE_TYPE;
  private readonly _ctx: PluginContext;
  private _node: AudioWorkletNode | undefined;
  private _stage: AudioProcessorStage | undefined;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  private _fail(functionName: string, extraCode: number, message: string): Error {
    return this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message, functionName });
  }

  private _voice(options: unknown, functionName: string, credentials: boolean): { voiceType: number; pitch: number | undefined } {
    if (typeof options !== 'object' || options === null) throw this._fail(functionName, EXTRA_CODE.PARAMETER_REQUIRED, 'VoiceChanger options with a voiceType are required');
    const o = options as Record<string, unknown>;
    if (credentials) {
      if (typeof o.sdkAppId !== 'number') throw this._fail(functionName, o.sdkAppId === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.TYPE, 'sdkAppId must be a number');
      for (const key of ['userId', 'userSig'] as const) {
        if (typeof o[key] !== 'string' || o[key] === '') throw this._fail(functionName, o[key] === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.TYPE, `${key} must be a non-empty string`);
      }
    }
    if (typeof o.voiceType !== 'number' || !Number.isInteger(o.voiceType) || !(o.voiceType in VOICES)) {
      throw this._fail(functionName, o.voiceType === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.RANGE, `voiceType must be one of ${Object.keys(VOICES).join(', ')}`);
    }
    if (o.pitch !== undefined && (typeof o.pitch !== 'number' || !Number.isFinite(o.pitch) || o.pitch < -1 || o.pitch > 1)) {
      throw this._fail(functionName, EXTRA_CODE.RANGE, 'pitch must be a number from -1 to 1');
    }
    return { voiceType: o.voiceType, pitch: o.pitch as number | undefined };
  }

  /**
   * Starts changing the published voice. Rejects with INVALID_PARAMETER for bad options, INVALID_OPERATION
   * without a microphone (startLocalAudio first) or while another plugin processes it (AIDenoiser).
   */
  async start(options: VoiceChangerStartOptions): Promise<void> {
    const { voiceType, pitch } = this._voice(options, 'startPlugin', true);
    if (this._node) {
      this._node.port.postMessage(voiceParams(voiceType, pitch));
      return;
    }
    if (!this._ctx.audio.hasMicrophone()) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, extraCode: EXTRA_CODE.NEED_AUDIO, message: 'VoiceChanger needs the microphone on: call startLocalAudio() first', functionName: 'startPlugin' });
    }
    if (this._ctx.audio.currentProcessor()) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, message: 'VoiceChanger: another plugin (AIDenoiser) processes the microphone; stop it first', functionName: 'startPlugin' });
    }
    const audioContext = this._ctx.audio.audioContext();
    await this._load(audioContext);
    const node = new AudioWorkletNode(audioContext, WORKLET_NAME, {
      numberOfInputs: 1, numberOfOutputs: 1, outputChannelCount: [1], channelCount: 1, channelCountMode: 'explicit',
      processorOptions: { params: voiceParams(voiceType, pitch) },
    });
    this._node = node;
    this._stage = { input: node, output: node };
    this._ctx.audio.setProcessor(this._stage);
    this._ctx.log.info(`VoiceChanger: started, voiceType ${voiceType}`);
  }

  private async _load(audioContext: AudioContext): Promise<void> {
    let loading = loadedContexts.get(audioContext);
    if (!loading) {
      const url = URL.createObjectURL(new Blob([workletSource()], { type: 'text/javascript' }));
      loading = audioContext.audioWorklet.addModule(url).finally(() => URL.revokeObjectURL(url));
      loadedContexts.set(audioContext, loading);
      loading.catch(() => loadedContexts.delete(audioContext)); // forgotten so the next start retries; the caller gets the rejection
    }
    try {
      await loading;
    } catch (error) {
      throw this._ctx.errors({ code: ERROR_CODE.OPERATION_FAILED, message: `VoiceChanger: the AudioWorklet failed to load: ${String(error)}`, functionName: 'startPlugin' });
    }
  }

  /** Changes the voice of the running changer (no graph change). INVALID_OPERATION when not started. */
  update(options: VoiceChangerUpdateOptions): Promise<void> {
    try {
      const { voiceType, pitch } = this._voice(options, 'updatePlugin', false);
      if (!this._node) throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, message: 'VoiceChanger is not started', functionName: 'updatePlugin' });
      this._node.port.postMessage(voiceParams(voiceType, pitch));
      this._ctx.log.info(`VoiceChanger: voiceType ${voiceType}`);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Takes the changer off the microphone path (the natural voice is published again). */
  stop(): Promise<void> {
    this._remove();
    return Promise.resolve();
  }

  destroy(): void {
    this._remove();
  }

  private _remove(): void {
    if (!this._node) return;
    if (this._ctx.audio.currentProcessor() === this._stage) this._ctx.audio.setProcessor(null);
    this._node.port.close();
    this._node.disconnect();
    this._node = undefined;
    this._stage = undefined;
    this._ctx.log.info('VoiceChanger: stopped');
  }
}
