import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter, operationFailed } from '../errors/catalogue.js';
import type { log } from '../log/logger.js';
import type { Players } from '../playback/remote-playback.js';
import type { RemoteUser } from '../room/remote-user.js';
import type { RemoteVideoConfig } from '../types.js';
import type { PlaybackQualityStream, ResolutionConfig, SwitchPlaybackQualityOptions } from './types.js';

const FN = 'switchPlaybackQuality';
/** How long the target stream has to show its first frame before the switch is rolled back. */
const SWITCH_TIMEOUT_MS = 10_000;

/** What a quality switch drives: the client's own remote video calls. */
export interface PlaybackQualityHost {
  remoteUsers(): Iterable<RemoteUser>;
  /** Remote playback: the players of each user are its own record. */
  readonly playback: { players(userId: string): Players | undefined };
  startRemoteVideo(config: RemoteVideoConfig): Promise<void>;
  updateRemoteVideo(config: RemoteVideoConfig): Promise<void>;
  stopRemoteVideo(config: { userId: string; streamType: 'main' | 'sub' }): Promise<void>;
  muteRemoteAudio(userId: string, mute: boolean): Promise<void>;
  /** The core's logger (see AudioFrameHost.log). */
  readonly log: Pick<typeof log, 'info' | 'warn'>;
}

/**
 * switchPlaybackQuality: the app lists the streams that are one content at several qualities (each a user's
 * main or sub stream, e.g. transcoded copies), then names a quality: the view playing one of them plays the named
 * one instead, once its first frame is there (else the switch is rolled back), the audio following on main streams.
 * The original's 'auto' mode is not offered (refused with a warning).
 */
export class PlaybackQuality {
  private readonly _host: PlaybackQualityHost;
  private _list: (Pick<PlaybackQualityStream, 'name' | 'userId' | 'bitrate'> & { streamType: 'main' | 'sub' })[] = [];
  private _switching = false;

  constructor(host: PlaybackQualityHost) {
    this._host = host;
  }

  async switch(options: SwitchPlaybackQualityOptions): Promise<void> {
    if (typeof options !== 'object' || options === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'options is required', FN);
    if (options.streamList !== undefined) {
      if (!Array.isArray(options.streamList)) throw invalidParameter(EXTRA_CODE.TYPE, 'streamList must be an array', FN);
      for (const s of options.streamList) {
        if (typeof s?.name !== 'string' || typeof s.userId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'each stream needs a name and a userId', FN);
      }
      if (options.streamList.length > 0) this._list = options.streamList.map((s) => ({ name: s.name, userId: s.userId, bitrate: s.bitrate, streamType: s.streamType ?? 'main' }));
    }
    const quality = options.quality;
    if (!quality) return;
    if (quality === 'auto') {
      this._host.log.warn(`${FN}: the 'auto' mode is not supported by Conclave`);
      return;
    }
    const target = this._list.find((s) => s.name === quality);
    if (!target) {
      this._host.log.warn(`${FN}: quality "${quality}" is not in streamList`);
      return;
    }
    const current = this._playing();
    if (!current) return;
    if (current.userId === target.userId && current.streamType === target.streamType) return;
    if (this._switching) {
      this._host.log.info(`${FN}: a switch is in progress`);
      return;
    }
    this._switching = true;
    try {
      await this._switchTo(current, target, options.onSwitched);
    } finally {
      this._switching = false;
    }
  }

  /** The listed stream a view plays now, with its request (views and options). */
  private _playing(): (ResolutionConfig & { config: RemoteVideoConfig }) | undefined {
    for (const stream of this._list) {
      const user = [...this._host.remoteUsers()].find((u) => u.userId === stream.userId);
      const request = user?.videoRequests[stream.streamType];
      if (!this._host.playback.players(stream.userId)?.[stream.streamType] || !request) continue;
      const config: RemoteVideoConfig = {
        userId: stream.userId, streamType: stream.streamType, view: request.views,
        option: { fillMode: request.fillMode, mirror: request.mirror, canvasRender: request.canvasRender, poster: request.poster },
      };
      return { userId: stream.userId, streamType: stream.streamType, name: stream.name, config };
    }
    return undefined;
  }

  private async _switchTo(from: ResolutionConfig & { config: RemoteVideoConfig }, to: ResolutionConfig, onSwitched: SwitchPlaybackQualityOptions['onSwitched']): Promise<void> {
    this._host.log.info(`${FN}: ${from.userId}/${from.streamType} → ${to.userId}/${to.streamType}`);
    const views = Array.isArray(from.config.view) ? from.config.view : [];
    // The target renders into a hidden element of the same view until its first frame, then takes the view.
    const staging = document.createElement('div');
    staging.style.cssText = 'position:absolute;width:1px;height:1px;opacity:0;pointer-events:none';
    document.body.appendChild(staging);
    try {
      await this._host.startRemoteVideo({ ...from.config, userId: to.userId, streamType: to.streamType, view: staging });
      if (!await this._firstFrame(to)) {
        await this._host.stopRemoteVideo({ userId: to.userId, streamType: to.streamType }).catch(() => undefined); // best effort: the timeout below is what the caller hears
        throw operationFailed(undefined, `switch playback quality to ${to.userId} timed out`, FN);
      }
      // Shown: the old stream leaves the view, the new one moves in (no new subscription).
      await this._host.stopRemoteVideo({ userId: from.userId, streamType: from.streamType });
      await this._host.updateRemoteVideo({ userId: to.userId, streamType: to.streamType, view: views });
      if (from.streamType === 'main' && to.streamType === 'main') {
        await this._host.muteRemoteAudio(to.userId, false).catch(() => undefined); // the user left meanwhile: no audio to move
        await this._host.muteRemoteAudio(from.userId, true).catch(() => undefined); // likewise
      }
    } finally {
      staging.remove();
    }
    onSwitched?.({ userId: from.userId, streamType: from.streamType, name: from.name }, to);
  }

  /** Resolves true once the target's player shows a frame, false after the time-out. */
  private async _firstFrame(to: ResolutionConfig): Promise<boolean> {
    const deadline = Date.now() + SWITCH_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if ((this._host.playback.players(to.userId)?.[to.streamType]?.player.framesRendered ?? 0) > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }
}
