import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginContext } from '../../plugin-api/index.js';
import { MediaStatsReader } from './media-stats.js';
import type { CallBack, FillMode, MediaType, StartLEBPlayerOption, UpdateLEBPlayerOption } from './options.js';
import { PlayerView } from './player-view.js';
import { WhepFailure, WhepSession } from './whep-session.js';

const FILL_MODES: readonly FillMode[] = ['contain', 'cover', 'fill'];
/** How often onStats is called. */
const STATS_INTERVAL_MS = 2000;

/** A playback in progress. */
interface Playing {
  session: WhepSession;
  view: PlayerView;
  callback: CallBack;
  stats: ReturnType<typeof setInterval> | undefined;
  detach: () => void;
}

/**
 * The LEBPlayer plugin (trtc-sdk-v5's plugins/lebplayer). The original plays a low-latency live stream of the
 * vendor's WebRTC CDN; here it plays any WHEP URL (RFC 9725), such as a Conclave server's
 * `/whep/v1/{sdkAppId}/rooms/{room}/users/{userId}?access_token=<token>` (server README). It needs no room:
 * start negotiates with the URL, shows the video in `view` and plays the sound; update changes volume, mute,
 * fill mode, pauses or resumes, enters or leaves full screen and picture-in-picture; stop ends the WHEP session.
 * Callbacks: onLoadStart, onPlayStateChanged, onAutoPlayFailed, onError, onStats, onFullScreenStateChanged,
 * onPictureInPictureStateChanged (onSEIMessage is never called: SEI is not read from WHEP streams). `licenseConfig`
 * is ignored (no licence service self-hosted). Volumes above 100 amplify (a Web Audio gain), as the original's do.
 */
export class LEBPlayer {
  static readonly Name = 'LEBPlayer';
  private readonly _ctx: PluginContext;
  private _playing: Playing | undefined;

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  private _invalid(functionName: string, extraCode: number, message: string): Error {
    return this._ctx.errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode, message: `LEBPlayer: ${message}`, functionName });
  }

  private _element(view: unknown, functionName: string): HTMLElement {
    if (view instanceof HTMLElement) return view;
    if (typeof view !== 'string') throw this._invalid(functionName, view === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.ELEMENT_ID_TYPE, 'view must be an element id or an HTMLElement');
    const element = document.getElementById(view);
    if (!element) throw this._invalid(functionName, EXTRA_CODE.INVALID_ELEMENT_ID, `no element with id '${view}'`);
    return element;
  }

  /** Checks volume, muted and fillMode where given. */
  private _common(o: Record<string, unknown>, functionName: string): void {
    if (o.volume !== undefined && (typeof o.volume !== 'number' || !Number.isFinite(o.volume) || o.volume < 0 || o.volume > 500)) {
      throw this._invalid(functionName, EXTRA_CODE.RANGE, 'volume must be a number from 0 to 500');
    }
    if (o.muted !== undefined && typeof o.muted !== 'boolean') throw this._invalid(functionName, EXTRA_CODE.TYPE, 'muted must be a boolean');
    if (o.fillMode !== undefined && !FILL_MODES.includes(o.fillMode as FillMode)) throw this._invalid(functionName, EXTRA_CODE.RANGE, `fillMode must be one of ${FILL_MODES.join(', ')}`);
  }

  /**
   * Plays `url` (a WHEP endpoint) in `view`. Rejects with INVALID_PARAMETER (5000) for bad options,
   * SERVER_ERROR (5400) when the WHEP server refuses (a bad token, an unknown stream: its message says which),
   * OPERATION_FAILED (5500) when it cannot be reached or negotiation fails. A second start replaces the first.
   */
  async start(options: StartLEBPlayerOption): Promise<void> {
    const fn = 'startPlugin';
    if (typeof options !== 'object' || options === null) throw this._invalid(fn, EXTRA_CODE.PARAMETER_REQUIRED, 'options with view and url are required');
    const o = options as unknown as Record<string, unknown>;
    const parent = this._element(o.view, fn);
    if (typeof o.url !== 'string' || o.url === '') throw this._invalid(fn, o.url === undefined ? EXTRA_CODE.PARAMETER_REQUIRED : EXTRA_CODE.TYPE, 'url must be a non-empty string');
    try {
      new URL(o.url.replace(/^webrtc:\/\//i, 'https://'));
    } catch {
      throw this._invalid(fn, EXTRA_CODE.TYPE, `url '${o.url}' is not a URL`);
    }
    this._common(o, fn);
    const callback: CallBack = options.callback ?? {};
    await this.stop();
    for (const type of ['video', 'audio'] as const) callback.onLoadStart?.(type);
    let session: WhepSession;
    try {
      session = await WhepSession.open(options.url);
    } catch (error) {
      const failure = error instanceof WhepFailure ? error : new WhepFailure(0, String(error));
      const rtcError = this._ctx.errors({ code: failure.status === 0 ? ERROR_CODE.OPERATION_FAILED : ERROR_CODE.SERVER_ERROR, message: `LEBPlayer: ${failure.message}`, functionName: fn });
      this._ctx.log.warn(rtcError.message);
      throw rtcError;
    }
    const view = new PlayerView(session.stream, () => this._ctx.audio.audioContext());
    view.setFillMode(options.fillMode ?? 'contain');
    view.setVolume(options.volume ?? 100);
    view.setMuted(options.muted ?? false);
    view.mount(parent);
    const playing: Playing = { session, view, callback, stats: undefined, detach: () => undefined };
    this._playing = playing;
    playing.detach = this._watch(playing);
    for (const type of ['video', 'audio'] as const) this._play(playing, type);
    if (callback.onStats) {
      const reader = new MediaStatsReader();
      playing.stats = setInterval(() => {
        reader.read(session.pc).then((stats) => playing.callback.onStats?.(stats), () => undefined); // no stats from a closing connection: the next tick reads again
      }, STATS_INTERVAL_MS);
    }
    this._ctx.log.info(`LEBPlayer: playing ${options.url.replace(/access_token=[^&]*/, 'access_token=…')}`);
  }

  /** Plays one element; an autoplay refusal is told through onAutoPlayFailed with a resume function. */
  private _play(playing: Playing, type: MediaType): void {
    playing.view.play(type).catch((error: unknown) => {
      if (this._playing !== playing) return;
      if (error instanceof DOMException && error.name === 'NotAllowedError') {
        playing.callback.onAutoPlayFailed?.({ type, resume: () => playing.view.play(type) });
      }
    });
  }

  /** Element and connection events → callbacks; returns the removal. */
  private _watch(playing: Playing): () => void {
    const { view, callback, session } = playing;
    const on = <K extends keyof HTMLMediaElementEventMap>(target: HTMLMediaElement, name: K, listener: () => void) => {
      target.addEventListener(name, listener);
      return () => target.removeEventListener(name, listener);
    };
    const state = (type: MediaType, s: 'PLAYING' | 'PAUSED', reason: string) => () => callback.onPlayStateChanged?.({ type, state: s, reason });
    const fullScreen = () => callback.onFullScreenStateChanged?.({ isFullScreen: document.fullscreenElement === view.box });
    document.addEventListener('fullscreenchange', fullScreen);
    const connection = () => {
      if (session.pc.connectionState !== 'failed' || this._playing !== playing) return;
      callback.onError?.(this._ctx.errors({ code: ERROR_CODE.OPERATION_FAILED, message: 'LEBPlayer: the WHEP connection failed', functionName: 'startPlugin' }));
    };
    session.pc.addEventListener('connectionstatechange', connection);
    const removals = [
      on(view.video, 'playing', state('video', 'PLAYING', 'playing')), on(view.video, 'pause', state('video', 'PAUSED', 'pause')),
      on(view.audio, 'playing', state('audio', 'PLAYING', 'playing')), on(view.audio, 'pause', state('audio', 'PAUSED', 'pause')),
      on(view.video, 'enterpictureinpicture' as keyof HTMLMediaElementEventMap, () => callback.onPictureInPictureStateChanged?.({ isPictureInPicture: true })),
      on(view.video, 'leavepictureinpicture' as keyof HTMLMediaElementEventMap, () => callback.onPictureInPictureStateChanged?.({ isPictureInPicture: false })),
      () => document.removeEventListener('fullscreenchange', fullScreen),
      () => session.pc.removeEventListener('connectionstatechange', connection),
    ];
    return () => removals.forEach((remove) => remove());
  }

  /**
   * Changes the playing stream's view, volume, mute, fill mode; pauses or resumes (`action`); enters or leaves
   * full screen and picture-in-picture. Rejects with INVALID_OPERATION (5100) when nothing plays, INVALID_PARAMETER
   * for bad options, OPERATION_FAILED when the browser refuses full screen or picture-in-picture.
   */
  async update(options: UpdateLEBPlayerOption): Promise<void> {
    const fn = 'updatePlugin';
    const playing = this._playing;
    if (!playing) throw this._ctx.errors({ code: ERROR_CODE.INVALID_OPERATION, message: 'LEBPlayer: nothing is playing; call startPlugin first', functionName: fn });
    if (typeof options !== 'object' || options === null) throw this._invalid(fn, EXTRA_CODE.PARAMETER_REQUIRED, 'update options are required');
    const o = options as unknown as Record<string, unknown>;
    this._common(o, fn);
    if (o.action !== undefined && o.action !== 'pause' && o.action !== 'resume') throw this._invalid(fn, EXTRA_CODE.RANGE, "action must be 'pause' or 'resume'");
    const parent = o.view === undefined ? undefined : this._element(o.view, fn);
    const { view } = playing;
    if (parent) view.mount(parent);
    if (options.volume !== undefined) view.setVolume(options.volume);
    if (options.muted !== undefined) view.setMuted(options.muted);
    if (options.fillMode !== undefined) view.setFillMode(options.fillMode);
    if (options.action === 'pause') view.pause();
    if (options.action === 'resume') for (const type of ['video', 'audio'] as const) this._play(playing, type);
    try {
      if (options.fullScreen === true && document.fullscreenElement !== view.box) await view.box.requestFullscreen();
      if (options.fullScreen === false && document.fullscreenElement === view.box) await document.exitFullscreen();
      if (options.pictureInPicture === true && document.pictureInPictureElement !== view.video) await view.video.requestPictureInPicture();
      if (options.pictureInPicture === false && document.pictureInPictureElement === view.video) await document.exitPictureInPicture();
    } catch (error) {
      throw this._ctx.errors({ code: ERROR_CODE.OPERATION_FAILED, message: `LEBPlayer: the browser refused: ${error instanceof Error ? error.message : String(error)}`, functionName: fn });
    }
  }

  /** Stops playing: ends the WHEP session (DELETE), removes the elements, tells onPlayStateChanged STOPPED. Resolves when nothing plays. */
  async stop(): Promise<void> {
    const playing = this._playing;
    if (!playing) return;
    this._playing = undefined;
    clearInterval(playing.stats);
    playing.detach();
    if (document.pictureInPictureElement === playing.view.video) await document.exitPictureInPicture().catch(() => undefined); // left it meanwhile: nothing to undo
    if (document.fullscreenElement === playing.view.box) await document.exitFullscreen().catch(() => undefined); // left it meanwhile: nothing to undo
    playing.view.remove();
    playing.session.close();
    for (const type of ['video', 'audio'] as const) playing.callback.onPlayStateChanged?.({ type, state: 'STOPPED', reason: 'stop' });
  }
}
