import { log } from '../log/logger.js';
import { PlaybackCore, type PlayerHooks } from './playback-core.js';
import type { PlayerState } from './player-state.js';

type SinkElement = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };
type SinkContext = AudioContext & { setSinkId?: (id: string) => Promise<void> };

/** Every live remote audio player, so a speaker change reaches them all. */
const players = new Set<AudioPlayer>();
let defaultSpeaker: string | undefined;
let context: SinkContext | undefined;

/** Resumes of the AudioContext are at least this far apart (docs/behaviour.md §4). */
const CONTEXT_RESUME_SPACING_MS = 1000;
let lastResumeAt = 0;
let resumeTimer: ReturnType<typeof setTimeout> | undefined;
let clickArmed = false;

/**
 * The shared AudioContext used to amplify above 100 (created on first need). docs/behaviour.md §4: a suspended
 * context resumes on the next click, an interrupted one at once; resumes at least 1 s apart.
 */
function audioContext(): SinkContext | undefined {
  if (typeof AudioContext === 'undefined') return undefined;
  if (!context) {
    const ctx = new AudioContext() as SinkContext;
    context = ctx;
    if (defaultSpeaker) ctx.setSinkId?.(defaultSpeaker === 'default' ? '' : defaultSpeaker).catch(() => undefined); // a speaker gone: the default output plays
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
  private readonly _element: SinkElement;
  private readonly _track: MediaStreamTrack;
  private readonly _core: PlaybackCore;
  private _muted = false;
  /** 0 … (100 = unchanged, above amplifies). */
  private _volume = 100;
  private _gain: GainNode | undefined;
  private _source: MediaStreamAudioSourceNode | undefined;

  constructor(track: MediaStreamTrack, hooks: PlayerHooks = {}) {
    this._track = track;
    const element = document.createElement('audio') as SinkElement;
    // No autoplay attribute: playback starts only from play() / resume(), so a refusal is seen.
    element.dataset.conclave = 'audio';
    element.srcObject = new MediaStream([track]);
    this._element = element;
    this._core = new PlaybackCore(element, track, {
      ...hooks,
      onPlaying: () => {
        this._apply();
        hooks.onPlaying?.();
      },
    });
    players.add(this);
    if (defaultSpeaker) this.setSinkId(defaultSpeaker).catch(() => undefined); // a speaker gone: the default output plays
    void this._core.play();
  }

  get state(): PlayerState {
    return this._core.state;
  }

  get blocked(): boolean {
    return this._core.blocked;
  }

  get element(): HTMLAudioElement {
    return this._element;
  }

  get track(): MediaStreamTrack {
    return this._track;
  }

  /** Resumes a paused or refused player. */
  resume(): Promise<void> {
    return this._core.resume();
  }

  /** Pauses on the app's request (pauseRemotePlayer) until resume(). */
  pause(): void {
    this._core.pause();
  }

  setMuted(muted: boolean): void {
    this._muted = muted;
    this._apply();
  }

  get muted(): boolean {
    return this._muted;
  }

  /** Sets the volume: 0–100, above 100 amplifies. */
  setVolume(volume: number): void {
    this._volume = Math.max(0, volume);
    this._apply();
  }

  get volume(): number {
    return this._volume;
  }

  async setSinkId(speakerId: string): Promise<void> {
    await this._element.setSinkId?.(speakerId);
  }

  private _apply(): void {
    if (this._volume > 100 && !this._gain) this._amplify();
    const gain = this._gain;
    if (gain) {
      gain.gain.value = this._muted ? 0 : this._volume / 100;
      this._element.muted = true;
      if (this._volume <= 100) this._unamplify();
    }
    if (!this._gain) {
      this._element.muted = this._muted;
      this._element.volume = Math.min(1, this._volume / 100);
    }
  }

  /** Builds track → GainNode → speakers. */
  private _amplify(): void {
    const ctx = audioContext();
    if (!ctx) {
      log.warn('Web Audio is not available: remote volume is capped at 100');
      return;
    }
    if (ctx.state !== 'running') resumeAudioContext();
    this._source = ctx.createMediaStreamSource(new MediaStream([this._track]));
    this._gain = ctx.createGain();
    this._source.connect(this._gain).connect(ctx.destination);
  }

  private _unamplify(): void {
    this._source?.disconnect();
    this._gain?.disconnect();
    this._source = undefined;
    this._gain = undefined;
  }

  stop(): void {
    players.delete(this);
    this._unamplify();
    this._core.stop();
    this._element.pause();
    this._element.srcObject = null;
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
  context.resume().catch(() => undefined); // refused without a gesture: the next play, click or interruption calls this again
}
