import type { Emitter } from '../common/emitter.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, invalidParameter } from '../errors/catalogue.js';
import type { RemoteUser } from '../room/remote-user.js';
import type { TRTCEventTypes } from '../types.js';
import { validateBoolean, validateRequiredString, validateUserIdArg } from '../validate/client.js';
import { AudioFrameTaps, type AudioFrameHost } from './audio-frames.js';
import { PlaybackQuality, type PlaybackQualityHost } from './playback-quality.js';
import type { EnableAudioFrameEventOptions, ExperimentalAPIFunctionMap, PreconnectParams, RemotePlayerOptions, SwitchPlaybackQualityOptions } from './types.js';

/** What the experimental calls reach of the client. */
export interface ExperimentalHost extends AudioFrameHost, PlaybackQualityHost {
  readonly events: Emitter<TRTCEventTypes>;
  remoteUsers(): Iterable<RemoteUser>;
  /** Warms scheduling and signalling for this identity (and room, when given); drop() forgets it. */
  preconnect(identity: { sdkAppId: number; userId: string; userSig: string }, room: { roomId: string; isString: boolean }): Promise<void>;
  dropPreconnect(): void;
}

type Handler = (options: unknown) => Promise<void>;

/**
 * callExperimentalAPI(name, options): the names 5.17's typings list. An unknown name is rejected with
 * INVALID_PARAMETER 'experimental api <name> does not exist.' as the original does.
 */
export class ExperimentalApi {
  private readonly _host: ExperimentalHost;
  private readonly _handlers = new Map<string, Handler>();
  /** The element in picture-in-picture / full screen (its user and stream), for the state events. */
  private _pip: { element: HTMLVideoElement; userId: string } | undefined;
  private _fullScreen: { element: HTMLElement; userId: string } | undefined;
  private readonly _audioFrames: AudioFrameTaps;

  constructor(host: ExperimentalHost) {
    this._host = host;
    this._audioFrames = new AudioFrameTaps(host);
    this.register('enableAudioFrameEvent', async (o) => this._audioFrames.configure(o as EnableAudioFrameEventOptions));
    const quality = new PlaybackQuality(host);
    this.register('switchPlaybackQuality', (o) => quality.switch(o as SwitchPlaybackQualityOptions));
    this.register('preconnect', (o) => this._preconnect(o as PreconnectParams & { roomId?: number; strRoomId?: string }));
    this.register('pauseRemotePlayer', async (o) => this._players(o as RemotePlayerOptions, 'pauseRemotePlayer', 'pause'));
    this.register('resumeRemotePlayer', async (o) => this._players(o as RemotePlayerOptions, 'resumeRemotePlayer', 'resume'));
    this.register('requestPictureInPicture', (o) => this._pictureInPicture(o as ExperimentalAPIFunctionMap['requestPictureInPicture']));
    this.register('requestFullScreen', (o) => this._requestFullScreen(o as ExperimentalAPIFunctionMap['requestFullScreen']));
  }

  /** Adds (or replaces) the handler of a name: each feature registers its own. */
  register(name: keyof ExperimentalAPIFunctionMap, handler: Handler): void {
    this._handlers.set(name, handler);
  }

  /** Stops what the experimental APIs started (destroy). */
  release(): void {
    this._audioFrames.release();
    this._host.dropPreconnect();
  }

  /** Runs an experimental API. @throws RtcError INVALID_PARAMETER for an unknown name. */
  async call(name: string, options: unknown): Promise<void> {
    const handler = typeof name === 'string' ? this._handlers.get(name) : undefined;
    if (!handler) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `experimental api ${String(name)} does not exist.`, 'callExperimentalAPI');
    await handler(options);
  }

  /**
   * preconnect { enable: true, sdkAppId, userId, userSig } (and, as the original accepts, roomId / strRoomId):
   * scheduling and the signalling socket ready before enterRoom; { enable: false } drops them. Never fails for
   * the network: a failed warm-up only leaves enterRoom to do it all.
   */
  private async _preconnect(options: PreconnectParams & { roomId?: number; strRoomId?: string }): Promise<void> {
    const fn = 'preconnect';
    if (typeof options !== 'object' || options === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'options is required', fn);
    if (!validateBoolean(options.enable, 'enable', fn)) {
      this._host.dropPreconnect();
      return;
    }
    if (typeof options.sdkAppId !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, 'sdkAppId must be a number', fn);
    validateRequiredString(options.userId, 'userId', fn);
    validateRequiredString(options.userSig, 'userSig', fn);
    if (options.roomId !== undefined && typeof options.roomId !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, 'roomId must be a number', fn);
    if (options.strRoomId !== undefined && typeof options.strRoomId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'strRoomId must be a string', fn);
    const room = options.strRoomId ? { roomId: options.strRoomId, isString: true } : { roomId: String(options.roomId ?? 1), isString: false };
    await this._host.preconnect({ sdkAppId: options.sdkAppId, userId: options.userId, userSig: options.userSig }, room);
  }

  /** Pauses or resumes the players of a user ('*': everyone): audio and main video, or the sub video. */
  private async _players(options: RemotePlayerOptions, fn: string, action: 'pause' | 'resume'): Promise<void> {
    if (typeof options !== 'object' || options === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'options is required', fn);
    validateUserIdArg(options.userId, fn);
    const work: Promise<void>[] = [];
    for (const user of this._host.remoteUsers()) {
      if (options.userId !== '*' && user.userId !== options.userId) continue;
      const main = options.streamType !== 'sub';
      const sub = options.streamType !== 'main';
      const players: { pause(): void; resume(): Promise<void> }[] = [];
      const of = this._host.playback.players(user.userId);
      if (main && of?.audio) players.push(of.audio);
      if (main && of?.main) players.push(of.main.player);
      if (sub && of?.sub) players.push(of.sub.player);
      for (const player of players) {
        if (action === 'pause') player.pause();
        else work.push(player.resume());
      }
    }
    await Promise.all(work);
  }

  /** The first remote main video playing (the original's choice for picture-in-picture and full screen). */
  private _firstVideo(fn: string): { element: HTMLVideoElement; userId: string; streamType: 'main' | 'sub' } {
    for (const user of this._host.remoteUsers()) {
      const element = this._host.playback.players(user.userId)?.main?.player.elements[0];
      if (element && user.videoAvailable) return { element, userId: user.userId, streamType: 'main' };
    }
    throw invalidOperation(undefined, 'no available remote video', fn);
  }

  /**
   * startRemoteVideo / updateRemoteVideo's option.pictureInPicture, fullScreen and draggable (5.15+) for a video
   * being played: the first two need a user gesture (the call made from a click), as in the original.
   */
  async remoteVideoOptions(userId: string, streamType: 'main' | 'sub', option: { pictureInPicture?: boolean; fullScreen?: boolean; draggable?: boolean } | undefined): Promise<void> {
    if (!option) return;
    const element = this._host.playback.players(userId)?.[streamType]?.player.elements[0];
    if (!element) return;
    const target = { element, userId, streamType };
    if (option.draggable !== undefined) makeDraggable(element.parentElement, option.draggable);
    if (option.pictureInPicture !== undefined) await this._pictureInPictureOf(target, option.pictureInPicture);
    if (option.fullScreen !== undefined) await this._fullScreenOf(target, option.fullScreen);
  }

  private async _pictureInPicture(options: { enable: boolean }): Promise<void> {
    validateBoolean(options?.enable, 'enable', 'requestPictureInPicture');
    if (!options.enable) {
      if (document.pictureInPictureElement) await document.exitPictureInPicture();
      return;
    }
    await this._pictureInPictureOf(this._firstVideo('requestPictureInPicture'), true);
  }

  private async _pictureInPictureOf(target: { element: HTMLVideoElement; userId: string; streamType: 'main' | 'sub' }, enable: boolean): Promise<void> {
    const { element, userId, streamType } = target;
    if (!enable) {
      if (document.pictureInPictureElement === element) await document.exitPictureInPicture();
      return;
    }
    if (document.pictureInPictureElement === element) return;
    await metadataOf(element);
    const left = () => {
      element.removeEventListener('leavepictureinpicture', left);
      if (this._pip?.element === element) this._pip = undefined;
      this._host.events.emit('picture-in-picture-state-changed', { userId, streamType, isPictureInPicture: false });
    };
    const pipWindow = await element.requestPictureInPicture();
    this._pip = target;
    element.addEventListener('leavepictureinpicture', left);
    this._host.events.emit('picture-in-picture-state-changed', { userId, streamType, isPictureInPicture: true, pictureInPictureWindow: pipWindow });
  }

  private async _requestFullScreen(options: { enable: boolean }): Promise<void> {
    validateBoolean(options?.enable, 'enable', 'requestFullScreen');
    if (!options.enable) {
      if (document.fullscreenElement) await document.exitFullscreen();
      return;
    }
    await this._fullScreenOf(this._firstVideo('requestFullScreen'), true);
  }

  private async _fullScreenOf(target: { element: HTMLVideoElement; userId: string; streamType: 'main' | 'sub' }, enable: boolean): Promise<void> {
    const { element: video, userId, streamType } = target;
    // The view (the video's parent) goes full screen, so fill mode and mirror still apply.
    const element = video.parentElement ?? video;
    if (!enable) {
      if (document.fullscreenElement === element) await document.exitFullscreen();
      return;
    }
    if (document.fullscreenElement === element) return;
    const changed = () => {
      if (document.fullscreenElement === element) return;
      document.removeEventListener('fullscreenchange', changed);
      if (this._fullScreen?.element === element) this._fullScreen = undefined;
      this._host.events.emit('full-screen-state-changed', { userId, streamType, isFullScreen: false });
    };
    await element.requestFullscreen();
    this._fullScreen = { element, userId };
    document.addEventListener('fullscreenchange', changed);
    this._host.events.emit('full-screen-state-changed', { userId, streamType, isFullScreen: true });
  }
}

/** Resolves once the video knows its size (picture-in-picture needs it), or after 5 s. */
function metadataOf(video: HTMLVideoElement): Promise<void> {
  if (video.readyState >= 1) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      video.removeEventListener('loadedmetadata', done);
      resolve();
    };
    const timer = setTimeout(done, 5000);
    video.addEventListener('loadedmetadata', done);
  });
}

const dragOff = new WeakMap<HTMLElement, () => void>();

/** option.draggable: the user moves the view with the pointer (a CSS translation); false stops that. */
function makeDraggable(view: HTMLElement | null, on: boolean): void {
  if (!view) return;
  dragOff.get(view)?.();
  dragOff.delete(view);
  if (!on) return;
  let start: { x: number; y: number; dx: number; dy: number } | undefined;
  let offset = { dx: 0, dy: 0 };
  const down = (e: PointerEvent) => {
    start = { x: e.clientX, y: e.clientY, ...offset };
    view.setPointerCapture?.(e.pointerId);
  };
  const move = (e: PointerEvent) => {
    if (!start) return;
    offset = { dx: start.dx + e.clientX - start.x, dy: start.dy + e.clientY - start.y };
    view.style.transform = `translate(${offset.dx}px, ${offset.dy}px)`;
  };
  const up = () => { start = undefined; };
  view.addEventListener('pointerdown', down);
  view.addEventListener('pointermove', move);
  view.addEventListener('pointerup', up);
  view.style.touchAction = 'none';
  dragOff.set(view, () => {
    view.removeEventListener('pointerdown', down);
    view.removeEventListener('pointermove', move);
    view.removeEventListener('pointerup', up);
  });
}
