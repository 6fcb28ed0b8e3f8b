import { DEFAULT_SERVER_ORIGIN } from '../common/server-origin.js';
import { EXTRA_CODE } from '../constants/error-code.js';
import { envNotSupported, invalidParameter } from '../errors/catalogue.js';
import { importOnce } from '../loader/import-once.js';
import type { ExperimentalApi, ExperimentalHost } from './experimental-api.js';
import type { ExperimentalAPIFunctionMap } from './types.js';

/** The names callExperimentalAPI knows (the compiler keeps this list equal to the typings' map). */
const NAMES: Readonly<Record<keyof ExperimentalAPIFunctionMap, true>> = {
  enableAudioFrameEvent: true, resumeRemotePlayer: true, pauseRemotePlayer: true, requestPictureInPicture: true,
  requestFullScreen: true, switchPlaybackQuality: true, preconnect: true,
};

type RemoteVideoOption = Parameters<ExperimentalApi['remoteVideoOptions']>[2];

/**
 * The core's side of callExperimentalAPI and of remote video's pictureInPicture / fullScreen / draggable: few
 * apps use them, so their code (experimental-api.ts and what it imports) is an asset, /sdk/assets/experimental.js,
 * loaded from the server on first use like the built-in plugins (size budget; docs/architecture.md "SDK plugins").
 * The host hands the asset everything it reaches of the client, the core's logger included.
 */
export class LazyExperimental {
  private readonly _host: ExperimentalHost;
  private _api: Promise<ExperimentalApi> | undefined;
  private _loaded: ExperimentalApi | undefined;
  private _released = false;

  constructor(host: ExperimentalHost) {
    this._host = host;
  }

  private _load(functionName: string): Promise<ExperimentalApi> {
    this._api ??= importOnce<{ ExperimentalApi: typeof ExperimentalApi }>(`${DEFAULT_SERVER_ORIGIN}/sdk/assets/experimental.js`).then(
      (module) => {
        const api = new module.ExperimentalApi(this._host);
        if (this._released) api.release();
        this._loaded = api;
        return api;
      },
      (error: unknown) => {
        this._api = undefined;
        this._host.log.warn('experimental APIs failed to load:', error);
        throw envNotSupported(EXTRA_CODE.PLUGIN, `${functionName}: its module failed to load from ${DEFAULT_SERVER_ORIGIN}/sdk/assets: ${String(error)}`, functionName);
      },
    );
    return this._api;
  }

  /** Runs an experimental API. @throws RtcError INVALID_PARAMETER for an unknown name (without loading anything). */
  async call(name: string, options: unknown): Promise<void> {
    if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(NAMES, name)) {
      throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `experimental api ${String(name)} does not exist.`, 'callExperimentalAPI');
    }
    await (await this._load(name)).call(name, options);
  }

  /** startRemoteVideo / updateRemoteVideo's pictureInPicture, fullScreen, draggable: loads the asset only when one is given. */
  async remoteVideoOptions(userId: string, streamType: 'main' | 'sub', option: RemoteVideoOption): Promise<void> {
    if (!option || (option.pictureInPicture === undefined && option.fullScreen === undefined && option.draggable === undefined)) return;
    await (await this._load('startRemoteVideo')).remoteVideoOptions(userId, streamType, option);
  }

  /** Stops what the experimental APIs started (destroy); one still loading is stopped once it has loaded. */
  release(): void {
    this._released = true;
    this._loaded?.release();
  }
}
