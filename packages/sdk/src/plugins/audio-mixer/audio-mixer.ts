import { ERROR_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../context/index.js';
import { Music } from './music.js';
import { validateMixerOptions, type AudioMixerOptions, type StopAudioMixerOptions, type UpdateAudioMixerOptions } from './options.js';

/**
 * The AudioMixer plugin (built in, as in the original): background music mixed into what the microphone
 * publishes and played to the local user; several ids at once. Music started before the microphone is heard
 * by others as soon as the microphone publishes.
 */
export class AudioMixer {
  static readonly Name = 'AudioMixer';
  readonly #ctx: PluginContext;
  readonly #music = new Map<string, Music>();

  constructor(context: PluginContext) {
    this.#ctx = context;
  }

  /** Starts a piece of music (a new start with the same id replaces it). */
  async start(options: AudioMixerOptions): Promise<void> {
    validateMixerOptions(options, 'start', this.#ctx.errors);
    this.#music.get(options.id)?.stop();
    this.#music.delete(options.id);
    const audio = this.#ctx.audio;
    let music: Music;
    try {
      music = await Music.open(audio.audioContext(), (node) => audio.mix(node), options);
    } catch (error) {
      throw this.#ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, message: `start audioMixer plugin: music url is invalid, ${(error as Error).message}`, functionName: 'startPlugin' });
    }
    this.#music.set(options.id, music);
    music.apply({ volume: 1, ...options });
    await audio.audioContext().resume().catch(() => undefined);
    await music.play();
    this.#ctx.log.info(`audioMixer: started ${options.id}`);
  }

  /** Changes loop / volume / rate / position, or pauses, resumes or stops. */
  async update(options: UpdateAudioMixerOptions): Promise<void> {
    validateMixerOptions(options, 'update', this.#ctx.errors);
    const music = this.#music.get(options.id);
    if (!music) return;
    music.apply(options);
    if (options.operation === 'pause') music.pause();
    else if (options.operation === 'resume') await music.play();
    else if (options.operation === 'stop') this.#stopOne(options.id);
  }

  /** Stops one piece of music. */
  stop(options: StopAudioMixerOptions): void {
    validateMixerOptions(options, 'stop', this.#ctx.errors);
    this.#stopOne(options.id);
  }

  #stopOne(id: string): void {
    this.#music.get(id)?.stop();
    this.#music.delete(id);
  }

  destroy(): void {
    for (const id of [...this.#music.keys()]) this.#stopOne(id);
  }
}
