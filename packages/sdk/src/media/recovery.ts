import { ERROR_CODE, EXTRA_CODE } from '../constants/error-code.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';

/** docs/behaviour.md §9: recapture after 5 s of mute (while the page is visible). */
export const MUTE_RECAPTURE_MS = 5000;
/** docs/behaviour.md §9: capture recovery interval 2 s. */
export const RECOVERY_INTERVAL_MS = 2000;
/** docs/behaviour.md §4: after 3 failures, another device is tried. */
export const RECOVERY_FAILURES_BEFORE_SWITCH = 3;

/** What recovery needs from its owner. */
export interface RecoveryHost {
  kind: 'camera' | 'microphone';
  /** The device in use (undefined: the default one). */
  deviceId(): string | undefined;
  /** Ids of the devices of this kind. */
  listDevices(): Promise<string[]>;
  /** Captures again, on the given device. */
  recapture(deviceId: string | undefined): Promise<MediaStreamTrack>;
  /** Puts the recaptured track in use (preview and uplink). */
  recovered(track: MediaStreamTrack, deviceId: string | undefined): Promise<void>;
  /** Recovery gave up: DEVICE_ERROR with 5308 (camera) or 5309 (microphone). */
  failed(error: RtcError): void;
}

/** The plan of devices to try: the current one RECOVERY_FAILURES_BEFORE_SWITCH times, then each other device once. */
export function recoveryPlan(current: string | undefined, devices: string[]): (string | undefined)[] {
  const plan: (string | undefined)[] = Array.from({ length: RECOVERY_FAILURES_BEFORE_SWITCH }, () => current);
  for (const id of devices) if (id && id !== current) plan.push(id);
  return plan;
}

/**
 * Local capture recovery (docs/behaviour.md §4): a track that ends, or stays muted for 5 s while the page is
 * visible, is captured again; after 3 failures another device is tried; when nothing works the
 * room emits error 5308 / 5309.
 */
export class CaptureRecovery {
  private readonly _host: RecoveryHost;
  private _track: MediaStreamTrack | undefined;
  private _timer: ReturnType<typeof setTimeout> | undefined;
  private _recovering = false;
  private _stopped = false;
  private readonly _onMute = () => this._armMuteTimer();
  private readonly _onUnmute = () => clearTimeout(this._timer);
  private readonly _onEnded = () => void this._recover('ended');

  constructor(host: RecoveryHost) {
    this._host = host;
  }

  /** Watches a (newly captured) track. */
  watch(track: MediaStreamTrack): void {
    this._unwatch();
    this._track = track;
    track.addEventListener('mute', this._onMute);
    track.addEventListener('unmute', this._onUnmute);
    track.addEventListener('ended', this._onEnded);
  }

  /** Stops watching (the owner stops the track itself). */
  stop(): void {
    this._stopped = true;
    this._unwatch();
  }

  private _unwatch(): void {
    clearTimeout(this._timer);
    const track = this._track;
    if (!track) return;
    track.removeEventListener('mute', this._onMute);
    track.removeEventListener('unmute', this._onUnmute);
    track.removeEventListener('ended', this._onEnded);
    this._track = undefined;
  }

  private _armMuteTimer(): void {
    clearTimeout(this._timer);
    this._timer = setTimeout(() => {
      const track = this._track;
      if (!track?.muted) return;
      if (typeof document !== 'undefined' && document.visibilityState !== 'visible') {
        document.addEventListener('visibilitychange', () => this._armMuteTimer(), { once: true });
        return;
      }
      void this._recover('muted');
    }, MUTE_RECAPTURE_MS);
  }

  private async _recover(why: string): Promise<void> {
    if (this._recovering || this._stopped) return;
    this._recovering = true;
    log.warn(`${this._host.kind} track ${why}: recapturing`);
    const old = this._track;
    this._unwatch();
    old?.stop();
    const devices = await this._host.listDevices().catch(() => []); // no list: the plan retries the same device
    const plan = recoveryPlan(this._host.deviceId(), devices);
    try {
      for (let i = 0; i < plan.length && !this._stopped; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, RECOVERY_INTERVAL_MS));
        try {
          const track = await this._host.recapture(plan[i]);
          if (this._stopped) {
            track.stop();
            return;
          }
          await this._host.recovered(track, plan[i]);
          this.watch(track);
          log.info(`${this._host.kind} recovered`);
          return;
        } catch (error) {
          log.warn(`${this._host.kind} recapture ${i + 1} failed`, error);
        }
      }
      if (!this._stopped) {
        const camera = this._host.kind === 'camera';
        this._host.failed(new RtcError({
          code: ERROR_CODE.DEVICE_ERROR,
          extraCode: camera ? EXTRA_CODE.CAMERA_RECOVER_FAILED : EXTRA_CODE.MICROPHONE_RECOVER_FAILED,
          message: `${this._host.kind} recovery failed`,
        }));
      }
    } finally {
      this._recovering = false;
    }
  }
}
