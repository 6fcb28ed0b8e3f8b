import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_ON_THIS_SERVER, unavailable } from '../common/unavailable.js';

/** Options of startPlugin('RealtimeTranscriber'). */
export interface StartRealtimeTranscriberOption {
  /** The spoken language to transcribe. */
  sourceLanguage: string;
  /** Languages to translate the transcript into. */
  translationLanguages?: string | string[];
  /** Whose speech to transcribe (default: everyone, 'all'). */
  userIdsToTranscribe?: string | string[];
  /** The transcriber's robot user id (one is made up when absent). */
  transcriberRobotId?: string;
}

/** Options of stopPlugin('RealtimeTranscriber'). */
export interface StopRealtimeTranscriberOption {
  transcriberRobotId: string;
}

/**
 * The RealtimeTranscriber plugin (trtc-sdk-v5's plugins/realtime-transcriber): a server-side robot that
 * transcribes (and translates) the room's speech. Conclave's server has no transcriber yet: the module loads
 * and registers, and start / stop reject with ENV_NOT_SUPPORTED (5200), the original's code when the core
 * lacks the room commands.
 */
export class RealtimeTranscriber {
  static readonly Name = 'RealtimeTranscriber';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED: transcription is not yet available on this server. */
  start(_options: StartRealtimeTranscriberOption): Promise<void> {
    return unavailable(this._ctx, 'RealtimeTranscriber', 'startPlugin', NOT_ON_THIS_SERVER);
  }

  /** Rejects with ENV_NOT_SUPPORTED, as start does. */
  stop(_options?: StopRealtimeTranscriberOption): Promise<void> {
    return unavailable(this._ctx, 'RealtimeTranscriber', 'stopPlugin', NOT_ON_THIS_SERVER);
  }
}
