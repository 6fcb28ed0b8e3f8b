import { ERROR_CODE, EXTRA_CODE } from '../constants/error-code.js';
import { RtcError } from '../errors/rtc-error.js';
import { log } from '../log/logger.js';

/** SPEC §9: recapture after 5 s of mute (while the page is visible). */
export const MUTE_RECAPTURE_MS = 5000;
/** SPEC §9: capture recovery interval 2 s. */
export const RECOVERY_INTERVAL_MS = 2000;
/** SPEC §4: after 3 failures, another device is tried. */
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
 * Local capture recovery (SPEC §4): a track that ends, or stays muted for 5 s while the page is
 * visible, is captured again; after 3 failures another device is tried; when nothing works the
 * room emits error 5308 / 5309.
 */
export class CaptureRecovery {
  readonly #host: RecoveryHost;
  #track: MediaStreamTrack | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #recovering = false;
  #stopped = false;
  readonly #onMute = () => this.#armMuteTimer();
  readonly #onUnmute = () => clearTimeout(this.#timer);
  readonly #onEnded = () => void this.#recover('ended');

  constructor(host: RecoveryHost) {
    this.#host = host;
  }

  /** Watches a (newly captured) track. */
  watch(track: MediaStreamTrack): void {
    this.#unwatch();
    this.#track = track;
    track.addEventListener('mute', this.#onMute);
    track.addEventListener('unmute', this.#onUnmute);
    track.addEventListener('ended', this.#onEnded);
  }

  /** Stops watching (the owner stops the track itself). */
  stop(): void {
    this.#stopped = true;
    this.#unwatch();
  }

  #unwatch(): void {
    clearTimeout(this.#timer);
    const track = this.#track;
    if (!track) return;
    track.removeEventListener('mute', this.#onMute);
    track.removeEventListener('unmute', this.#onUnmute);
    track.removeEventListener('ended', this.#onEnded);
    this.#track = undefined;
  }

  #armMuteTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const track = this.#track;
      if (!track?.muted) return;
      if (typeof document !== 'undefined' && document.visibilityState !== 'visible') {
        document.addEventListener('visibilitychange', () => this.#armMuteTimer(), { once: true });
        return;
      }
      void this.#recover('muted');
    }, MUTE_RECAPTURE_MS);
  }

  async #recover(why: string): Promise<void> {
    if (this.#recovering || this.#stopped) return;
    this.#recovering = true;
    log.warn(`${this.#host.kind} track ${why}: recapturing`);
    const old = this.#track;
    this.#unwatch();
    old?.stop();
    const devices = await this.#host.listDevices().catch(() => []);
    const plan = recoveryPlan(this.#host.deviceId(), devices);
    try {
      for (let i = 0; i < plan.length && !this.#stopped; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, RECOVERY_INTERVAL_MS));
        try {
          const track = await this.#host.recapture(plan[i]);
          if (this.#stopped) {
            track.stop();
            return;
          }
          await this.#host.recovered(track, plan[i]);
          this.watch(track);
          log.info(`${this.#host.kind} recovered`);
          return;
        } catch (error) {
          log.warn(`${this.#host.kind} recapture ${i + 1} failed`, error);
        }
      }
      if (!this.#stopped) {
        const camera = this.#host.kind === 'camera';
        this.#host.failed(new RtcError({
          code: ERROR_CODE.DEVICE_ERROR,
          extraCode: camera ? EXTRA_CODE.CAMERA_RECOVER_FAILED : EXTRA_CODE.MICROPHONE_RECOVER_FAILED,
          message: `${this.#host.kind} recovery failed`,
        }));
      }
    } finally {
      this.#recovering = false;
    }
  }
}
