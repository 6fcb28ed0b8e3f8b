import type TRTC from '@conclave/sdk';
import { explainError } from './errors';
import { getLang, translate, type MessageKey } from './i18n';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/** The effects the demo offers: background blur and touch-up on the camera, noise suppression on the microphone. */
export type EffectName = 'blur' | 'beauty' | 'denoise';
export type EffectState = 'off' | 'starting' | 'on' | 'stopping';

export interface EffectsSnapshot {
  readonly blur: EffectState;
  readonly beauty: EffectState;
  readonly denoise: EffectState;
  /** The VoiceChanger's voiceType (0: my own voice) and whether a change is running. */
  readonly voice: number;
  readonly voiceBusy: boolean;
  /** The last failure, in words. */
  readonly error: string | null;
}

interface Credentials {
  readonly sdkAppId: number;
  readonly userId: string;
  readonly userSig: string;
}

/** The SDK's plugin name of each effect. */
const PLUGIN: Record<EffectName, string> = { blur: 'VirtualBackground', beauty: 'BasicBeauty', denoise: 'AIDenoiser' };

/**
 * Starts and stops the SDK's effect plugins. The video plugins are separate files: they are imported
 * (so downloaded) the first time they are used, then registered with `use()`; AIDenoiser is built in.
 */
export class EffectsControls {
  private readonly trtc: TRTCInstance;
  private readonly credentials: Credentials;
  private readonly listeners = new Set<() => void>();
  private readonly registered = new Set<EffectName>();
  private snapshot: EffectsSnapshot = { blur: 'off', beauty: 'off', denoise: 'off', voice: 0, voiceBusy: false, error: null };
  private voiceRegistered = false;

  constructor(trtc: TRTCInstance, credentials: Credentials) {
    this.trtc = trtc;
    this.credentials = credentials;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): EffectsSnapshot => this.snapshot;

  /** Turns an effect on or off; a failure (e.g. the camera is off: 5105) is kept in words in `error`. */
  async toggle(effect: EffectName): Promise<void> {
    const state = this.snapshot[effect];
    if (state === 'starting' || state === 'stopping') return;
    const starting = state === 'off';
    this.update({ [effect]: starting ? 'starting' : 'stopping', error: null });
    try {
      if (starting) {
        await this.register(effect);
        await this.trtc.startPlugin(PLUGIN[effect], this.options(effect));
      } else {
        await this.trtc.stopPlugin(PLUGIN[effect]);
      }
      this.update({ [effect]: starting ? 'on' : 'off' });
    } catch (error) {
      const device = effect === 'denoise' ? 'microphone' : 'camera';
      this.update({ [effect]: starting ? 'off' : 'on', error: `${translate(getLang(), LABEL_KEYS[effect])}: ${explainError(error, device)}` });
    }
  }

  /**
   * Changes the published voice with the VoiceChanger plugin (imported on first use): a voiceType other than 0
   * starts it (or updates the running one), 0 stops it. It runs in the microphone's audio graph, so the sent
   * track stays the same: no renegotiation. It needs the microphone on, and refuses while noise suppression runs.
   */
  async setVoice(voiceType: number): Promise<void> {
    const was = this.snapshot.voice;
    if (this.snapshot.voiceBusy || voiceType === was) return;
    this.update({ voice: voiceType, voiceBusy: true, error: null });
    try {
      if (voiceType === 0) {
        await this.trtc.stopPlugin('VoiceChanger');
      } else if (was !== 0) {
        await this.trtc.updatePlugin('VoiceChanger', { voiceType });
      } else {
        if (!this.voiceRegistered) {
          this.trtc.use((await import('@conclave/sdk/plugins/voice-changer')).VoiceChanger);
          this.voiceRegistered = true;
        }
        await this.trtc.startPlugin('VoiceChanger', { ...this.credentials, voiceType });
      }
      this.update({ voiceBusy: false });
    } catch (error) {
      this.update({ voice: was, voiceBusy: false, error: `${translate(getLang(), 'effects.voice')}: ${explainError(error, 'microphone')}` });
    }
  }

  private options(effect: EffectName): unknown {
    if (effect === 'beauty') return { beauty: 0.6, brightness: 0.5, ruddy: 0.3 };
    if (effect === 'blur') return { ...this.credentials, type: 'blur', blurLevel: 5 };
    return { ...this.credentials };
  }

  private async register(effect: EffectName): Promise<void> {
    if (effect === 'denoise' || this.registered.has(effect)) return;
    const plugin = effect === 'blur'
      ? (await import('@conclave/sdk/plugins/video-effect/virtual-background')).VirtualBackground
      : (await import('@conclave/sdk/plugins/video-effect/basic-beauty')).BasicBeauty;
    this.trtc.use(plugin);
    this.registered.add(effect);
  }

  private update(change: Partial<EffectsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}

/** Each effect's name in the message table. */
export const LABEL_KEYS: Record<EffectName, MessageKey> = { blur: 'effects.blur', beauty: 'effects.beauty', denoise: 'effects.denoise' };

/** The voice types the menu offers (VoiceChanger.VOICE_TYPE 0–12), named in the message table as `voice.<n>`. */
export const VOICE_TYPES: readonly number[] = Array.from({ length: 13 }, (_, n) => n);
