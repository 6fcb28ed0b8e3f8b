import type { PluginContext } from '../../plugin-api/index.js';
import { DEFAULT_SETTINGS, resolveSettings, type SmallStreamAutoSwitcherOptions } from './options.js';
import { SwitchPolicy, type SwitchAction } from './policy.js';

/** How often the rule is applied (the client's statistics come every 2 s, as the original's check). */
const CHECK_INTERVAL_MS = 2000;

/** The part of the client's public API the switcher uses: its events and the switch an app would call. */
interface SwitcherClient {
  on(event: string, listener: (data: never) => void): unknown;
  off(event: string, listener: (data: never) => void): unknown;
  updateRemoteVideo(config: { userId: string; streamType: 'main'; option: { small: boolean } }): Promise<void>;
}

interface QualityEvent {
  downlinkRTT?: number;
  downlinkLoss?: number;
}

interface StatisticsEvent {
  remoteStatistics?: { userId?: string; video?: { videoType?: string }[] }[];
}

/**
 * The SmallStreamAutoSwitcher plugin (trtc-sdk-v5's plugins/small-stream-auto-switcher): watches the
 * downlink (the client's `network-quality` events: downlinkRTT, downlinkLoss) and, by the rule of
 * policy.ts, switches each remote main video to its small stream when the network has been poor for
 * `poorDuration`, and back to the big one after `goodDuration` of good network — through
 * `updateRemoteVideo({ option: { small } })`, the switch an app would call. Videos the app put on the small
 * stream before the switcher first saw them (statistics' videoType 'small') are never switched back.
 * Choices where the original is silent: the rule reads the network alone (not the original's frame-rate
 * heuristics); the switcher knows a video's stream from its own switches (the client's statistics label a
 * received main video 'big' whichever stream arrives on a shared downlink), so a switch the app makes later
 * is not seen; a remote without a small stream keeps sending big (the core ignores the preference), which
 * counts as a switch, so `maxAutoSwitchToSmallCount` bounds the tries.
 */
export class SmallStreamAutoSwitcher {
  static readonly Name = 'SmallStreamAutoSwitcher';
  private readonly _ctx: PluginContext;
  private readonly _policy = new SwitchPolicy({ ...DEFAULT_SETTINGS });
  private _timer: ReturnType<typeof setInterval> | undefined;
  private readonly _onQuality = (event: QualityEvent) => {
    this._policy.sample({ rtt: Number(event?.downlinkRTT) || 0, loss: Number(event?.downlinkLoss) || 0 }, Date.now());
  };
  private readonly _onStatistics = (event: StatisticsEvent) => {
    const received = new Map<string, boolean>();
    for (const remote of event?.remoteStatistics ?? []) {
      const types = (remote.video ?? []).map((v) => v.videoType);
      if (!remote.userId) continue;
      if (types.includes('small')) received.set(remote.userId, true);
      else if (types.includes('big')) received.set(remote.userId, false);
    }
    this._policy.observe(received);
  };
  private readonly _onExit = (event: { userId?: string }) => {
    if (event?.userId) this._policy.forget(event.userId);
  };

  constructor(context: PluginContext) {
    this._ctx = context;
  }

  private get _client(): SwitcherClient {
    return this._ctx.client as SwitcherClient;
  }

  /**
   * Starts watching with the given limits (the original's defaults for those not given); a second start
   * restarts with the new options. Rejects with INVALID_PARAMETER for options that are not non-negative numbers.
   */
  start(options?: SmallStreamAutoSwitcherOptions): Promise<void> {
    try {
      const settings = resolveSettings(options, DEFAULT_SETTINGS, 'startPlugin', this._ctx.errors);
      this._detach();
      this._policy.reset();
      this._policy.settings = settings;
      this._attach();
      this._ctx.log.info('SmallStreamAutoSwitcher: started', JSON.stringify(settings));
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Changes limits while running (those not given stay); the observed history is kept. */
  update(options?: SmallStreamAutoSwitcherOptions): Promise<void> {
    try {
      this._policy.settings = resolveSettings(options, this._policy.settings, 'updatePlugin', this._ctx.errors);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Stops watching; videos stay on the stream they are on. */
  stop(): Promise<void> {
    this._detach();
    this._policy.reset();
    return Promise.resolve();
  }

  destroy(): void {
    this._detach();
  }

  private _attach(): void {
    this._client.on('network-quality', this._onQuality);
    this._client.on('statistics', this._onStatistics);
    this._client.on('remote-user-exit', this._onExit);
    this._timer = setInterval(() => this._check(), CHECK_INTERVAL_MS);
  }

  private _detach(): void {
    if (this._timer === undefined) return;
    clearInterval(this._timer);
    this._timer = undefined;
    this._client.off('network-quality', this._onQuality);
    this._client.off('statistics', this._onStatistics);
    this._client.off('remote-user-exit', this._onExit);
  }

  private _check(): void {
    for (const action of this._policy.decide(Date.now())) void this._switch(action);
  }

  private async _switch({ userId, small }: SwitchAction): Promise<void> {
    this._ctx.log.info(`SmallStreamAutoSwitcher: switching ${userId} to the ${small ? 'small' : 'big'} stream`);
    try {
      await this._client.updateRemoteVideo({ userId, streamType: 'main', option: { small } });
    } catch (error) {
      // The video may have stopped meanwhile (the app stopped it): nothing to switch.
      this._ctx.log.warn(`SmallStreamAutoSwitcher: switching ${userId} failed:`, error);
    }
  }
}
