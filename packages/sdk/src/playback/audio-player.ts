import { log } from '../log/logger.js';
import { PlaybackCore, type PlayerHooks } from './playback-core.js';
import type { PlayerState } from './player-state.js';

type SinkElement = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };
type SinkContext = AudioContext & { setSinkId?: (id: string) => Promise<void> };

/** Every live remote audio player, so a speaker change reaches them all. */
const players = new Set<AudioPlayer>();
let defaultSpeaker: string | undefined;
let context: SinkContext | undefined;

/** Resumes of the AudioContext are at least this far apart (SPEC §4). */
const CONTEXT_RESUME_SPACING_MS = 1000;
let lastResumeAt = 0;
let resumeTimer: ReturnType<typeof setTimeout> | undefined;
let clickArmed = false;

/**
 * The shared AudioContext used to amplify above 100 (created on first need). SPEC §4: a suspended
 * context resumes on the next click, an interrupted one at once; resumes at least 1 s apart.
 */
function audioContext(): SinkContext | undefined {
  if (typeof AudioContext === 'undefined') return undefined;
  if (!context) {
    const ctx = new AudioContext() as SinkContext;
    context = ctx;
    if (defaultSpeaker) ctx.setSinkId?.(defaultSpeaker === 'default' ? '' : defaultSpeaker).catch(() => undefined);
    const watch = () => {
      const state = ctx.state as AudioContextState | 'interrupted';
      if (state === 'interrupted') resumeAudioContext();
      else if (state === 'suspended' && !clickArmed) {
        clickArmed = true;
        document.addEventListener('click', () => {
          clickArmed = false;
          resumeAudioContext();
        }, { capture: true, once: true });
      }
    };
    ctx.addEventListener('statechange', watch);
    watch();
  }
  return context;
}

/** Routes every remote audio, present and future, to this output device (setSinkId). */
export async function setDefaultSpeaker(speakerId: string): Promise<void> {
  defaultSpeaker = speakerId;
  await Promise.all([...players].map((player) => player.setSinkId(speakerId)));
  await context?.setSinkId?.(speakerId === 'default' ? '' : speakerId);
}

/**
 * Plays a remote audio track through a hidden <audio> element. Volume 0–100 is the element's
 * volume; above 100 the track is amplified through a Web Audio GainNode (the element is then
 * muted and only keeps the stream flowing). Muting keeps the track flowing, so unmuting is instant.
 */
export class AudioPlayer {
  readonly #element: SinkElement;
  readonly #track: MediaStreamTrack;
  readonly #core: PlaybackCore;
  #muted = false;
  /** 0 … (100 = unchanged, above amplifies). */
  #volume = 100;
  #gain: GainNode | undefined;
  #source: MediaStreamAudioSourceNode | undefined;

  constructor(track: MediaStreamTrack, hooks: PlayerHooks = {}) {
    this.#track = track;
    const element = document.createElement('audio') as SinkElement;
    // No autoplay attribute: playback starts only from play() / resume(), so a refusal is seen.
    element.dataset.conclave = 'audio';
    element.srcObject = new MediaStream([track]);
    this.#element = element;
    this.#core = new PlaybackCore(element, track, {
      ...hooks,
      onPlaying: () => {
        this.#apply();
        hooks.onPlaying?.();
      },
    });
    players.add(this);
    if (defaultSpeaker) this.setSinkId(defaultSpeaker).catch(() => undefined);
    void this.#core.play();
  }

  get state(): PlayerState {
    return this.#core.state;
  }

  get blocked(): boolean {
    return this.#core.blocked;
  }

  get element(): HTMLAudioElement {
    return this.#element;
  }

  get track(): MediaStreamTrack {
    return this.#track;
  }

  /** Resumes a paused or refused player. */
  resume(): Promise<void> {
    return this.#core.resume();
  }

  setMuted(muted: boolean): void {
    this.#muted = muted;
    this.#apply();
  }

  get muted(): boolean {
    return this.#muted;
  }

  /** Sets the volume: 0–100, above 100 amplifies. */
  setVolume(volume: number): void {
    this.#volume = Math.max(0, volume);
    this.#apply();
  }

  get volume(): number {
    return this.#volume;
  }

  async setSinkId(speakerId: string): Promise<void> {
    await this.#element.setSinkId?.(speakerId);
  }

  #apply(): void {
    if (this.#volume > 100 && !this.#gain) this.#amplify();
    const gain = this.#gain;
    if (gain) {
      gain.gain.value = this.#muted ? 0 : this.#volume / 100;
      this.#element.muted = true;
      if (this.#volume <= 100) this.#unamplify();
    }
    if (!this.#gain) {
      this.#element.muted = this.#muted;
      this.#element.volume = Math.min(1, this.#volume / 100);
    }
  }

  /** Builds track → GainNode → speakers. */
  #amplify(): void {
    const ctx = audioContext();
    if (!ctx) {
      log.warn('Web Audio is not available: remote volume is capped at 100');
      return;
    }
    if (ctx.state !== 'running') resumeAudioContext();
    this.#source = ctx.createMediaStreamSource(new MediaStream([this.#track]));
    this.#gain = ctx.createGain();
    this.#source.connect(this.#gain).connect(ctx.destination);
  }

  #unamplify(): void {
    this.#source?.disconnect();
    this.#gain?.disconnect();
    this.#source = undefined;
    this.#gain = undefined;
  }

  stop(): void {
    players.delete(this);
    this.#unamplify();
    this.#core.stop();
    this.#element.pause();
    this.#element.srcObject = null;
  }
}

/** Resumes the shared AudioContext unless it runs (at most once a second). */
export function resumeAudioContext(): void {
  if (!context || context.state === 'running' || context.state === 'closed') return;
  const now = Date.now();
  if (now - lastResumeAt < CONTEXT_RESUME_SPACING_MS) {
    resumeTimer ??= setTimeout(() => {
      resumeTimer = undefined;
      resumeAudioContext();
    }, CONTEXT_RESUME_SPACING_MS - (now - lastResumeAt));
    return;
  }
  lastResumeAt = now;
  context.resume().catch(() => undefined);
}
