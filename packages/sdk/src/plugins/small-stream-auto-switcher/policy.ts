import type { SwitcherSettings } from './options.js';

/** A downlink sample (the client's network-quality event, every 2 s). */
export interface DownlinkSample {
  rtt: number;
  /** percent */
  loss: number;
}

/** A switch the policy asks for. */
export interface SwitchAction {
  userId: string;
  small: boolean;
}

interface UserState {
  /** The main video is received as the small stream now (from the client's statistics). */
  receivingSmall: boolean;
  /** The switcher put it on the small stream (it only ever switches back what it switched). */
  switchedBySelf: boolean;
  autoSwitches: number;
  /** No switch of this user before this time (sleepTime after the last one). */
  quietUntil: number;
}

/**
 * The switching rule, free of timers and of the client (unit-tested with made-up samples). The network is
 * poor once RTT has stayed over `rttPoorLimit`, or loss over `lossPoorLimit`, for `poorDuration`; good once
 * both have stayed under their good limits for `goodDuration`. When poor, each remote main video received
 * big switches to small (at most `maxAutoSwitchToSmallCount` times per user); when good, each video the
 * switcher put on small goes back to big. After a switch, that user is left alone for `sleepTime`.
 */
export class SwitchPolicy {
  settings: SwitcherSettings;
  private readonly _users = new Map<string, UserState>();
  private _rttPoorSince: number | undefined;
  private _lossPoorSince: number | undefined;
  private _goodSince: number | undefined;

  constructor(settings: SwitcherSettings) {
    this.settings = settings;
  }

  /** Takes a downlink sample at time `now` (ms). */
  sample(sample: DownlinkSample, now: number): void {
    const s = this.settings;
    this._rttPoorSince = sample.rtt > s.rttPoorLimit ? (this._rttPoorSince ?? now) : undefined;
    this._lossPoorSince = sample.loss > s.lossPoorLimit ? (this._lossPoorSince ?? now) : undefined;
    this._goodSince = sample.rtt < s.rttGoodLimit && sample.loss < s.lossGoodLimit ? (this._goodSince ?? now) : undefined;
  }

  /**
   * Records the remote main videos received (from statistics: user id → labelled 'small'). A new one is
   * taken as labelled; a known one keeps the stream the switcher set (the label may lag a switch, and a shared
   * downlink labels both streams 'big').
   */
  observe(received: ReadonlyMap<string, boolean>): void {
    for (const [userId, small] of received) {
      // A video first seen on the small stream was put there by the app: never switched back by us.
      if (!this._users.has(userId)) this._users.set(userId, { receivingSmall: small, switchedBySelf: false, autoSwitches: 0, quietUntil: 0 });
    }
  }

  /** Forgets a user who left. */
  forget(userId: string): void {
    this._users.delete(userId);
  }

  /** True when RTT or loss has been poor for poorDuration. */
  poor(now: number): boolean {
    const d = this.settings.poorDuration;
    return (this._rttPoorSince !== undefined && now - this._rttPoorSince >= d) || (this._lossPoorSince !== undefined && now - this._lossPoorSince >= d);
  }

  /** True when both have been good for goodDuration. */
  good(now: number): boolean {
    return this._goodSince !== undefined && now - this._goodSince >= this.settings.goodDuration;
  }

  /** The switches due at `now`; the caller performs them (and they count as done). */
  decide(now: number): SwitchAction[] {
    const actions: SwitchAction[] = [];
    const poor = this.poor(now);
    const good = !poor && this.good(now);
    for (const [userId, user] of this._users) {
      if (now < user.quietUntil) continue;
      if (poor && !user.receivingSmall && user.autoSwitches < this.settings.maxAutoSwitchToSmallCount) {
        user.autoSwitches += 1;
        user.switchedBySelf = true;
        user.receivingSmall = true;
        user.quietUntil = now + this.settings.sleepTime;
        actions.push({ userId, small: true });
      } else if (good && user.switchedBySelf) {
        user.switchedBySelf = false;
        user.receivingSmall = false;
        user.quietUntil = now + this.settings.sleepTime;
        actions.push({ userId, small: false });
      }
    }
    return actions;
  }

  /** Starts over (stop / restart): no history, no users. */
  reset(): void {
    this._users.clear();
    this._rttPoorSince = undefined;
    this._lossPoorSince = undefined;
    this._goodSince = undefined;
  }
}
