import { ERROR_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';
import { Music } from './music.js';
import { validateMixerOptions, type AudioMixerOptions, type StopAudioMixerOptions, type UpdateAudioMixerOptions } from './options.js';

/**
 * The AudioMixer plugin (built in, as in the original): background music mixed into what the microphone
 * publishes and played to the local user; several ids at once. Music started before the microphone is heard
 * by others as soon as the microphone publishes.
 */
export class AudioMixer {
  static readonly Name = 'AudioMixer';
  private readonly _ctx: PluginContext;
  private readonly _music = new Map<string, Music>();

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  /** Starts a piece of music (a new start with the same id replaces it). */
  async start(options: AudioMixerOptions): Promise<void> {
    validateMixerOptions(options, 'start', this._ctx.errors);
    this._music.get(options.id)?.stop();
    this._music.delete(options.id);
    const audio = this._ctx.audio;
    let music: Music;
    try {
      music = await Music.open(audio.audioContext(), (node) => audio.mix(node), options);
    } catch (error) {
      throw this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, message: `start audioMixer plugin: music url is invalid, ${(error as Error).message}`, functionName: 'startPlugin' });
    }
    this._music.set(options.id, music);
    music.apply({ volume: 1, ...options });
    await audio.audioContext().resume().catch(() => undefined); // a context the page may not start yet: the music plays once it does
    await music.play();
    this._ctx.log.info(`audioMixer: started ${options.id}`);
  }

  /** Changes loop / volume / rate / position, or pauses, resumes or stops. */
  async update(options: UpdateAudioMixerOptions): Promise<void> {
    validateMixerOptions(options, 'update', this._ctx.errors);
    const music = this._music.get(options.id);
    if (!music) return;
    music.apply(options);
    if (options.operation === 'pause') music.pause();
    else if (options.operation === 'resume') await music.play();
    else if (options.operation === 'stop') this._stopOne(options.id);
  }

  /** Stops one piece of music. */
  stop(options: StopAudioMixerOptions): void {
    validateMixerOptions(options, 'stop', this._ctx.errors);
    this._stopOne(options.id);
  }

  private _stopOne(id: string): void {
    this._music.get(id)?.stop();
    this._music.delete(id);
  }

  destroy(): void {
    for (const id of [...this._music.keys()]) this._stopOne(id);
  }
}
