import type { PluginContext } from '../../plugin-api/index.js';
import { validateAudioPlayerOptions, type AudioPlayerOptions, type AudioPlayerStopOptions, type AudioPlayerUpdateOptions } from './options.js';
import { AudioPlayerInstance } from './player.js';

/**
 * The AudioPlayer plugin (5.18; `trtc-sdk-v5/plugins/audio-player`, global `AudioPlayer`): players of PCM the app
 * feeds (TTS, an AI voice), of files and of tracks, each heard locally and, with `publish`, by the room. One player
 * per `id`, several at once; startPlugin resolves with the player (AudioPlayerContext), updatePlugin changes one,
 * stopPlugin destroys one or, with id '*', all. (Each player's type is AudioPlayerContext.)
 */
export class AudioPlayer {
  static readonly Name = 'AudioPlayer';
  /** The original's plugin carries an empty TYPE table. */
  static readonly TYPE: Readonly<Record<string, never>> = Object.freeze({});
  private readonly _context: PluginContext;
  private readonly _players = new Map<string, AudioPlayerInstance>();

  constructor(context: PluginContext) {
    this._context = context;
  }

  /** Makes the player `options.id` (replacing one of that id) and resolves with it, ready for start(). */
  async start(options: AudioPlayerOptions): Promise<AudioPlayerInstance> {
    validateAudioPlayerOptions(options, 'start', this._context.errors);
    const existing = this._players.get(options.id);
    if (existing) {
      this._context.log.warn(`audioPlayer: a player with id ${options.id} exists, replacing it`);
      existing.destroy();
      this._players.delete(options.id);
    }
    const player = new AudioPlayerInstance(this._context, options);
    try {
      await player.init();
    } catch (error) {
      player.destroy();
      throw error;
    }
    this._players.set(options.id, player);
    this._context.log.info(`audioPlayer: player ${options.id} (${options.sourceType}) made, ${this._players.size} in all`);
    return player;
  }

  /** Changes player `options.id`; resolves with it (undefined, with a warning, when there is none). */
  async update(options: AudioPlayerUpdateOptions): Promise<AudioPlayerInstance | undefined> {
    validateAudioPlayerOptions(options, 'update', this._context.errors);
    const player = this._players.get(options.id);
    if (!player) {
      this._context.log.warn(`audioPlayer: update: no player with id ${options.id}`);
      return undefined;
    }
    player.update(options);
    return player;
  }

  /** Destroys player `options.id`, or every player for '*'. */
  stop(options: AudioPlayerStopOptions): void {
    validateAudioPlayerOptions(options, 'stop', this._context.errors);
    const ids = options.id === '*' ? [...this._players.keys()] : [options.id];
    for (const id of ids) {
      const player = this._players.get(id);
      if (!player) {
        this._context.log.warn(`audioPlayer: stop: no player with id ${id}`);
        continue;
      }
      player.destroy();
      this._players.delete(id);
    }
  }

  destroy(): void {
    this.stop({ id: '*' });
  }
}
