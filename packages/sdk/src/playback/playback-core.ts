import { log } from '../log/logger.js';
import { autoplayDialog } from './autoplay-dialog-loader.js';
import { PlayerStateMachine, ResumeBudget, type PlayerState, type PlayReason } from './player-state.js';

/** Delay before a media element that failed to decode gets a fresh MediaStream (SPEC §8). */
export const RECREATE_STREAM_DELAY_MS = 1000;

/** What a player tells its owner. */
export interface PlayerHooks {
  /** The player changed state (audio-/video-play-state-changed). */
  onState?(state: PlayerState, reason: PlayReason): void;
  /** The browser refused play() (autoplay policy): the owner shows the dialog or waits for a click. */
  onBlocked?(resume: () => Promise<void>): void;
  /** The element plays (first frame and any later resume). */
  onPlaying?(): void;
}

/**
 * What audio and video players share: the state machine driven by the element's and the track's
 * events, play() with autoplay-refusal detection, auto-resume of a paused player (5 tries), and
 * recreation of the MediaStream 1 s after a decode error.
 */
export class PlaybackCore {
  readonly #element: HTMLMediaElement;
  readonly #track: MediaStreamTrack;
  readonly #hooks: PlayerHooks;
  readonly #machine: PlayerStateMachine;
  readonly #budget = new ResumeBudget();
  readonly #unbind: (() => void)[] = [];
  #blocked = false;
  #playingFired = false;
  #recreated = false;
  #stopped = false;
  #recreateTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(element: HTMLMediaElement, track: MediaStreamTrack, hooks: PlayerHooks) {
    this.#element = element;
    this.#track = track;
    this.#hooks = hooks;
    this.#machine = new PlayerStateMachine((state, reason) => hooks.onState?.(state, reason));
    const on = <T extends EventTarget>(target: T, type: string, fn: () => void) => {
      target.addEventListener(type, fn);
      this.#unbind.push(() => target.removeEventListener(type, fn));
    };
    on(element, 'playing', () => {
      this.#blocked = false;
      this.#playingFired = true;
      this.#machine.playing('playing');
      hooks.onPlaying?.();
    });
    on(element, 'pause', () => this.#onPause());
    on(element, 'ended', () => this.#machine.stopped('ended'));
    on(element, 'error', () => this.#onError());
    on(track, 'ended', () => this.#machine.stopped('ended'));
    on(track, 'mute', () => this.#machine.paused('mute'));
    on(track, 'unmute', () => {
      if (this.#element.paused) void this.resume();
      else if (this.#playingFired) this.#machine.playing('unmute');
    });
  }

  get state(): PlayerState {
    return this.#state;
  }

  get #state(): PlayerState {
    return this.#machine.state;
  }

  /** True while the browser refuses to play this element until a user gesture. */
  get blocked(): boolean {
    return this.#blocked;
  }

  /** Auto-resume tries left. */
  get resumesLeft(): number {
    return this.#budget.left;
  }

  /** Starts playback; a refusal by the autoplay policy goes to onBlocked. Never rejects. */
  async play(): Promise<void> {
    if (this.#stopped) return;
    try {
      await this.#element.play();
      this.#blocked = false;
    } catch (error) {
      if (this.#stopped) return;
      if ((error as DOMException)?.name === 'NotAllowedError') {
        log.warn('playback refused by the autoplay policy', error);
        const first = !this.#blocked;
        this.#blocked = true;
        if (first) this.#hooks.onBlocked?.(() => this.resume());
      } else {
        log.debug('play() failed', error);
      }
    }
  }

  /** Resumes a paused or refused player (resolves at once when it plays). */
  resume(): Promise<void> {
    if (this.#state === 'PLAYING' && !this.#element.paused) return Promise.resolve();
    return this.play();
  }

  #onPause(): void {
    this.#machine.paused('pause');
    if (this.#stopped || this.#blocked || autoplayDialog.isOpen) return;
    if (this.#budget.take()) {
      log.info(`[${5 - this.#budget.left}/5] player auto resume when paused`);
      void this.resume();
    }
  }

  /** A decode error: PAUSED, then a fresh MediaStream after 1 s (once). */
  #onError(): void {
    const error = this.#element.error;
    if (!error) return;
    this.#machine.paused('error');
    log.error(`media element error ${error.code}: ${error.message}`);
    if (this.#recreated) return;
    this.#recreated = true;
    this.#recreateTimer = setTimeout(() => {
      if (this.#stopped) return;
      log.warn('recreating the media stream after a decode error');
      this.#element.srcObject = null;
      this.#element.srcObject = new MediaStream([this.#track]);
      void this.play();
    }, RECREATE_STREAM_DELAY_MS);
  }

  /** The view was recreated: the auto-resume budget starts over. */
  resetResumes(): void {
    this.#budget.reset();
  }

  /** Stops for good (STOPPED, reason 'ended'). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#recreateTimer);
    for (const unbind of this.#unbind) unbind();
    this.#machine.stopped('ended');
  }
}
