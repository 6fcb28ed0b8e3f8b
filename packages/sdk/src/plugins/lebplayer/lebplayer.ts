import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_ON_THIS_SERVER, unavailable } from '../common/unavailable.js';
import type { StartLEBPlayerOption, UpdateLEBPlayerOption } from './options.js';

/**
 * The LEBPlayer plugin (trtc-sdk-v5's plugins/lebplayer): plays a low-latency live (WebRTC pull) stream of the
 * vendor's CDN. Conclave's server has no such pull endpoint yet: the module loads and registers, and start /
 * update reject with ENV_NOT_SUPPORTED (5200), the original's code for a player it cannot run. stop resolves.
 */
export class LEBPlayer {
  static readonly Name = 'LEBPlayer';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED: low-latency live playback is not yet available on this server. */
  start(_options: StartLEBPlayerOption): Promise<void> {
    return unavailable(this._ctx, 'LEBPlayer', 'startPlugin', NOT_ON_THIS_SERVER);
  }

  /** Rejects with ENV_NOT_SUPPORTED, as start does. */
  update(_options: UpdateLEBPlayerOption): Promise<void> {
    return unavailable(this._ctx, 'LEBPlayer', 'updatePlugin', NOT_ON_THIS_SERVER);
  }

  /** Resolves: nothing plays. */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}
