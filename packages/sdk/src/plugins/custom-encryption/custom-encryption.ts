import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_IMPLEMENTED, unavailable } from '../common/unavailable.js';
import type { EncryptionOptions } from './options.js';

/**
 * The CustomEncryption plugin (trtc-sdk-v5's plugins/custom-encryption): end-to-end encryption of published
 * media. Not built in Conclave yet: the module loads and registers, and start / update reject with
 * ENV_NOT_SUPPORTED (5200) — an app that needs encryption learns it at once instead of sending clear media.
 */
export class CustomEncryption {
  static readonly Name = 'CustomEncryption';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  start(_options: EncryptionOptions): Promise<void> {
    return unavailable(this._ctx, 'CustomEncryption', 'startPlugin', NOT_IMPLEMENTED);
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  update(_options: EncryptionOptions): Promise<void> {
    return unavailable(this._ctx, 'CustomEncryption', 'updatePlugin', NOT_IMPLEMENTED);
  }

  /** Resolves: nothing was encrypted. */
  stop(_options?: EncryptionOptions): Promise<void> {
    return Promise.resolve();
  }
}
