import type { PluginContext } from '../../plugin-api/index.js';
import { unavailable, VENDOR_CLOUD } from '../common/unavailable.js';

/** Options of startPlugin('Chorus') (the original's shape). */
export interface StartChorusOption {
  /** Sing over the original recording (true) or the accompaniment. */
  useOriginalSong?: boolean;
}

/** Options of updatePlugin('Chorus'). */
export interface UpdateChorusOption {
  useOriginalSong?: boolean;
  /** Pauses or resumes the background music. */
  bgmAction?: 'pause' | 'resume';
}

/**
 * The Chorus plugin (trtc-sdk-v5's plugins/chorus): real-time chorus over songs of the vendor's licensed
 * catalogue (accompaniments, lyrics, pitch data served by its cloud). A self-hosted server has no such
 * catalogue: the module loads and registers so apps bundle and run, and start / update reject with
 * ENV_NOT_SUPPORTED (5200) saying so. stop resolves (nothing runs).
 */
export class Chorus {
  static readonly Name = 'Chorus';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED: the song catalogue is the vendor's cloud service. */
  start(_options?: StartChorusOption): Promise<void> {
    return unavailable(this._ctx, 'Chorus', 'startPlugin', `${VENDOR_CLOUD} (the commercial song catalogue: accompaniments, lyrics, pitch data)`);
  }

  /** Rejects with ENV_NOT_SUPPORTED, as start does. */
  update(_options?: UpdateChorusOption): Promise<void> {
    return unavailable(this._ctx, 'Chorus', 'updatePlugin', `${VENDOR_CLOUD} (the commercial song catalogue)`);
  }

  /** Resolves: a chorus never started here. */
  stop(_options?: unknown): Promise<void> {
    return Promise.resolve();
  }
}
