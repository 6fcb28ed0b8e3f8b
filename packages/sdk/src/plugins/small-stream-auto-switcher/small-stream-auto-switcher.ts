import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_IMPLEMENTED, unavailable } from '../common/unavailable.js';
import type { SmallStreamAutoSwitcherOptions } from './options.js';

/** The SmallStreamAutoSwitcher plugin (trtc-sdk-v5's plugins/small-stream-auto-switcher). */
export class SmallStreamAutoSwitcher {
  static readonly Name = 'SmallStreamAutoSwitcher';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  start(_options?: SmallStreamAutoSwitcherOptions): Promise<void> {
    return unavailable(this._ctx, 'SmallStreamAutoSwitcher', 'startPlugin', NOT_IMPLEMENTED);
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  update(_options?: SmallStreamAutoSwitcherOptions): Promise<void> {
    return unavailable(this._ctx, 'SmallStreamAutoSwitcher', 'updatePlugin', NOT_IMPLEMENTED);
  }

  /** Resolves: nothing runs. */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}
