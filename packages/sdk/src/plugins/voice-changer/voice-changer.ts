import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_IMPLEMENTED, unavailable } from '../common/unavailable.js';
import type { VoiceChangerStartOptions, VoiceChangerUpdateOptions } from './options.js';

/** The VoiceChanger plugin (trtc-sdk-v5's plugins/voice-changer). */
export class VoiceChanger {
  static readonly Name = 'VoiceChanger';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  start(_options: VoiceChangerStartOptions): Promise<void> {
    return unavailable(this._ctx, 'VoiceChanger', 'startPlugin', NOT_IMPLEMENTED);
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  update(_options: VoiceChangerUpdateOptions): Promise<void> {
    return unavailable(this._ctx, 'VoiceChanger', 'updatePlugin', NOT_IMPLEMENTED);
  }

  /** Resolves: nothing runs. */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}
