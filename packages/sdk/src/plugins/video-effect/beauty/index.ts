import type { PluginContext } from '../../../plugin-api/index.js';
import { NOT_IMPLEMENTED, unavailable } from '../../common/unavailable.js';
import type { BeautyOptions, UpdateBeautyOptions } from './options.js';

export type { AuthParam, BeautyOptions, Effect, UpdateBeautyOptions } from './options.js';

/**
 * The Beauty plugin (trtc-sdk-v5's plugins/video-effect/beauty): face-aware retouching. Not built in Conclave
 * yet (BasicBeauty is): the module loads and registers, and start / update reject with ENV_NOT_SUPPORTED (5200).
 */
export class Beauty {
  static readonly Name = 'Beauty';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented; BasicBeauty is). */
  start(_options: BeautyOptions): Promise<void> {
    return unavailable(this._ctx, 'Beauty', 'startPlugin', NOT_IMPLEMENTED);
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  update(_options: UpdateBeautyOptions): Promise<void> {
    return unavailable(this._ctx, 'Beauty', 'updatePlugin', NOT_IMPLEMENTED);
  }

  /** Resolves: nothing runs. */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}

export default Beauty;
