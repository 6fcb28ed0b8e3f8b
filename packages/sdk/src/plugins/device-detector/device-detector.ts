import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_IMPLEMENTED, unavailable } from '../common/unavailable.js';
import type { DeviceDetectorOptions, DeviceDetectorResult } from './options.js';

/**
 * The DeviceDetector plugin (trtc-sdk-v5's plugins/device-detector): the pre-call device check dialog. Not
 * built in Conclave yet: the module loads and registers, and start rejects with ENV_NOT_SUPPORTED (5200).
 */
export class DeviceDetector {
  static readonly Name = 'DeviceDetector';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED (not yet implemented). */
  start(_options?: DeviceDetectorOptions): Promise<DeviceDetectorResult | undefined> {
    return unavailable(this._ctx, 'DeviceDetector', 'startPlugin', NOT_IMPLEMENTED);
  }

  /** Resolves: no dialog is open. */
  stop(): Promise<void> {
    return Promise.resolve();
  }
}
