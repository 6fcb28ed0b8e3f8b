import type { PluginContext } from '../../plugin-api/index.js';
import { NOT_ON_THIS_SERVER, unavailable } from '../common/unavailable.js';

/** The other room of startPlugin('CrossRoom') / stopPlugin (a numeric or a string room id). */
export interface StartCrossRoomOption {
  roomId?: number;
  strRoomId?: string;
  /** The other room's anchor to connect with. */
  userId?: string;
}

/** One connected anchor's mute settings, for updatePlugin('CrossRoom'). */
export interface UpdateCrossRoomOptionItem extends StartCrossRoomOption {
  muteAudio: boolean;
  muteVideo: boolean;
  muteSubStream: boolean;
}

/** Options of updatePlugin('CrossRoom'). */
export interface UpdateCrossRoomOption {
  updateList: UpdateCrossRoomOptionItem[];
}

/** Options of stopPlugin('CrossRoom'): the room to disconnect from (all when absent). */
export interface StopCrossRoomOption {
  roomId?: number;
  strRoomId?: string;
}

/**
 * The CrossRoom plugin (trtc-sdk-v5's plugins/cross-room): connects anchors of two rooms. Its server side
 * (forwarding between rooms) does not exist in Conclave yet: the module loads and registers, and every call
 * rejects with ENV_NOT_SUPPORTED (5200) — the original's code when the core lacks the room commands.
 */
export class CrossRoom {
  static readonly Name = 'CrossRoom';
  private readonly _ctx: PluginContext;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Rejects with ENV_NOT_SUPPORTED: cross-room is not yet available on this server. */
  start(_options: StartCrossRoomOption): Promise<void> {
    return unavailable(this._ctx, 'CrossRoom', 'startPlugin', NOT_ON_THIS_SERVER);
  }

  /** Rejects with ENV_NOT_SUPPORTED, as start does. */
  update(_options: UpdateCrossRoomOption): Promise<void> {
    return unavailable(this._ctx, 'CrossRoom', 'updatePlugin', NOT_ON_THIS_SERVER);
  }

  /** Rejects with ENV_NOT_SUPPORTED, as start does. */
  stop(_options?: StopCrossRoomOption): Promise<void> {
    return unavailable(this._ctx, 'CrossRoom', 'stopPlugin', NOT_ON_THIS_SERVER);
  }
}
