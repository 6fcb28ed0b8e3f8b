import type { Emitter } from '../common/emitter.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidOperation, invalidParameter } from '../errors/catalogue.js';
import type { RemoteUser } from '../room/remote-user.js';
import type { TRTCEventTypes } from '../types.js';
import { validateBoolean, validateUserIdArg } from '../validate/client.js';
import { AudioFrameTaps, type AudioFrameHost } from './audio-frames.js';
import type { EnableAudioFrameEventOptions, ExperimentalAPIFunctionMap, RemotePlayerOptions } from './types.js';

/** What the experimental calls reach of the client. */
export interface ExperimentalHost extends AudioFrameHost {
  readonly events: Emitter<TRTCEventTypes>;
  remoteUsers(): Iterable<RemoteUser>;
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
  }

  /** Runs an experimental API. @throws RtcError INVALID_PARAMETER for an unknown name. */
  async call(name: string, options: unknown): Promise<void> {
    const handler = typeof name === 'string' ? this._handlers.get(name) : undefined;
    if (!handler) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `experimental api ${String(name)} does not exist.`, 'callExperimentalAPI');
    await handler(options);
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
      if (main && user.audioPlayer) players.push(user.audioPlayer);
      if (main && user.videoPlayers.main) players.push(user.videoPlayers.main.player);
      if (sub && user.videoPlayers.sub) players.push(user.videoPlayers.sub.player);
      for (const player of players) {
        if (action === 'pause') player.pause();
        else work.push(player.resume());
      }
    }
    await Promise.all(work);
  }

  /** The first remote main video playing (the original's choice for picture-in-picture and full screen). */
  private _firstVideo(fn: string): { element: HTMLVideoElement; userId: string } {
    for (const user of this._host.remoteUsers()) {
      const element = user.videoPlayers.main?.player.elements[0];
      if (element && user.videoAvailable) return { element, userId: user.userId };
    }
    throw invalidOperation(undefined, 'no available remote video', fn);
  }

  private async _pictureInPicture(options: { enable: boolean }): Promise<void> {
    validateBoolean(options?.enable, 'enable', 'requestPictureInPicture');
    if (!options.enable) {
      if (document.pictureInPictureElement) await document.exitPictureInPicture();
      return;
    }
    const target = this._firstVideo('requestPictureInPicture');
    const { element, userId } = target;
    const left = () => {
      element.removeEventListener('leavepictureinpicture', left);
      if (this._pip?.element === element) this._pip = undefined;
      this._host.events.emit('picture-in-picture-state-changed', { userId, streamType: 'main', isPictureInPicture: false });
    };
    const pipWindow = await element.requestPictureInPicture();
    this._pip = target;
    element.addEventListener('leavepictureinpicture', left);
    this._host.events.emit('picture-in-picture-state-changed', { userId, streamType: 'main', isPictureInPicture: true, pictureInPictureWindow: pipWindow });
  }

  private async _requestFullScreen(options: { enable: boolean }): Promise<void> {
    validateBoolean(options?.enable, 'enable', 'requestFullScreen');
    if (!options.enable) {
      if (document.fullscreenElement) await document.exitFullscreen();
      return;
    }
    const { element: video, userId } = this._firstVideo('requestFullScreen');
    // The view (the video's parent) goes full screen, so fill mode and mirror still apply.
    const element = video.parentElement ?? video;
    const changed = () => {
      if (document.fullscreenElement === element) return;
      document.removeEventListener('fullscreenchange', changed);
      if (this._fullScreen?.element === element) this._fullScreen = undefined;
      this._host.events.emit('full-screen-state-changed', { userId, streamType: 'main', isFullScreen: false });
    };
    await element.requestFullscreen();
    this._fullScreen = { element, userId };
    document.addEventListener('fullscreenchange', changed);
    this._host.events.emit('full-screen-state-changed', { userId, streamType: 'main', isFullScreen: true });
  }
}
