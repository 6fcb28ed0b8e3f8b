import { log } from '../log/logger.js';
import { autoplayDialog } from './autoplay-dialog-loader.js';
import { PlayerStateMachine, ResumeBudget, type PlayerState, type PlayReason } from './player-state.js';

/** Delay before a media element that failed to decode gets a fresh MediaStream (docs/behaviour.md §8). */
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
  private readonly _element: HTMLMediaElement;
  private readonly _track: MediaStreamTrack;
  private readonly _hooks: PlayerHooks;
  private readonly _machine: PlayerStateMachine;
  private readonly _budget = new ResumeBudget();
  private readonly _unbind: (() => void)[] = [];
  private _blocked = false;
  private _playingFired = false;
  /** Paused by the app (pause()): the player does not resume by itself. */
  private _held = false;
  private _recreated = false;
  private _stopped = false;
  private _recreateTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(element: HTMLMediaElement, track: MediaStreamTrack, hooks: PlayerHooks) {
    this._element = element;
    this._track = track;
    this._hooks = hooks;
    this._machine = new PlayerStateMachine((state, reason) => hooks.onState?.(state, reason));
    const on = <T extends EventTarget>(target: T, type: string, fn: () => void) => {
      target.addEventListener(type, fn);
      this._unbind.push(() => target.removeEventListener(type, fn));
    };
    on(element, 'playing', () => {
      this._blocked = false;
      this._playingFired = true;
      this._machine.playing('playing');
      hooks.onPlaying?.();
    });
    on(element, 'pause', () => this._onPause());
    on(element, 'ended', () => this._machine.stopped('ended'));
    on(element, 'error', () => this._onError());
    on(track, 'ended', () => this._machine.stopped('ended'));
    on(track, 'mute', () => this._machine.paused('mute'));
    on(track, 'unmute', () => {
      if (this._element.paused && !this._held) void this.resume();
      else if (this._playingFired) this._machine.playing('unmute');
    });
  }

  get state(): PlayerState {
    return this._state;
  }

  private get _state(): PlayerState {
    return this._machine.state;
  }

  /** True while the browser refuses to play this element until a user gesture. */
  get blocked(): boolean {
    return this._blocked;
  }

  /** Auto-resume tries left. */
  get resumesLeft(): number {
    return this._budget.left;
  }

  /** Starts playback; a refusal by the autoplay policy goes to onBlocked. Never rejects. */
  async play(): Promise<void> {
    if (this._stopped) return;
    try {
      await this._element.play();
      this._blocked = false;
    } catch (error) {
      if (this._stopped) return;
      if ((error as DOMException)?.name === 'NotAllowedError') {
        log.warn('playback refused by the autoplay policy', error);
        const first = !this._blocked;
        this._blocked = true;
        if (first) this._hooks.onBlocked?.(() => this.resume());
      } else {
        log.debug('play() failed', error);
      }
    }
  }

  /** Pauses on the app's request (pauseRemotePlayer): no auto-resume until resume(). */
  pause(): void {
    this._held = true;
    this._element.pause();
  }

  /** Resumes a paused or refused player (resolves at once when it plays). */
  resume(): Promise<void> {
    this._held = false;
    if (this._state === 'PLAYING' && !this._element.paused) return Promise.resolve();
    return this.play();
  }

  private _onPause(): void {
    this._machine.paused('pause');
    if (this._stopped || this._blocked || this._held || autoplayDialog.isOpen) return;
    if (this._budget.take()) {
      log.info(`[${5 - this._budget.left}/5] player auto resume when paused`);
      void this.resume();
    }
  }

  /** A decode error: PAUSED, then a fresh MediaStream after 1 s (once). */
  private _onError(): void {
    const error = this._element.error;
    if (!error) return;
    this._machine.paused('error');
    log.error(`media element error ${error.code}: ${error.message}`);
    if (this._recreated) return;
    this._recreated = true;
    this._recreateTimer = setTimeout(() => {
      if (this._stopped) return;
      log.warn('recreating the media stream after a decode error');
      this._element.srcObject = null;
      this._element.srcObject = new MediaStream([this._track]);
      void this.play();
    }, RECREATE_STREAM_DELAY_MS);
  }

  /** The view was recreated: the auto-resume budget starts over. */
  resetResumes(): void {
    this._budget.reset();
  }

  /** Stops for good (STOPPED, reason 'ended'). */
  stop(): void {
    if (this._stopped) return;
    this._stopped = true;
    clearTimeout(this._recreateTimer);
    for (const unbind of this._unbind) unbind();
    this._machine.stopped('ended');
  }
}
