/**
 * Type compatibility of the plugins: an app's plugin imports and option objects written against trtc-sdk-v5's
 * plugin typings compile against ours. One block per plugin; a separate plugin (plugins/<path>) compares the
 * original's subpath module with ours, e.g.
 *   import type { WatermarkOptions as TheirWatermarkOptions } from 'trtc-sdk-v5/plugins/video-effect/watermark';
 *   import type { WatermarkOptions } from '../src/plugins/video-effect/watermark/index.js';
 *   export type CheckWatermark = Expect<Assignable<TheirWatermarkOptions, WatermarkOptions>>;
 * No runtime part.
 */
import type {
  AudioMixerOptions as TheirAudioMixerOptions, UpdateAudioMixerOptions as TheirUpdateAudioMixerOptions,
  StopAudioMixerOptions as TheirStopAudioMixerOptions, AIDenoiserOptions as TheirAIDenoiserOptions,
  PluginStartOptionsMap, PluginUpdateOptionsMap, PluginStopOptionsMap,
} from 'trtc-sdk-v5';
import type Ours from '../src/index.js';
import type { AudioMixerOptions, UpdateAudioMixerOptions, StopAudioMixerOptions, AIDenoiserOptions, TRTCPlugin } from '../src/index.js';
import type {
  PluginStartOptionsMap as OurStartMap, PluginUpdateOptionsMap as OurUpdateMap, PluginStopOptionsMap as OurStopMap,
} from '../src/index.js';
import type {
  PluginStartOptionsMap as Their17StartMap, PluginUpdateOptionsMap as Their17UpdateMap, PluginStopOptionsMap as Their17StopMap,
} from 'trtc-sdk-v5-517';
import type { AudioMixer } from '../src/plugins/audio-mixer/index.js';
import type { AIDenoiser } from '../src/plugins/ai-denoiser/index.js';
import type { Debug } from '../src/plugins/debug/index.js';

/** Compiles only when T is exactly `true`. */
type Expect<T extends true> = T;
/** True when A is assignable to B (no distribution). */
type Assignable<A, B> = [A] extends [B] ? true : false;

/** True when no key of A is missing from B (assignability alone lets B drop optional fields). */
type HasKeys<A, B> = [Exclude<keyof A, keyof B>] extends [never] ? true : { missing: Exclude<keyof A, keyof B> };

// Built-ins: the original's option types (root exports) fit ours, field for field.
export type CheckAudioMixerKeys = Expect<HasKeys<TheirAudioMixerOptions, AudioMixerOptions>>;
export type CheckAudioMixerUpdateKeys = Expect<HasKeys<TheirUpdateAudioMixerOptions, UpdateAudioMixerOptions>>;
export type CheckAIDenoiserKeys = Expect<HasKeys<TheirAIDenoiserOptions, AIDenoiserOptions>>;
export type CheckAudioMixerStart = Expect<Assignable<TheirAudioMixerOptions, AudioMixerOptions>>;
export type CheckAudioMixerUpdate = Expect<Assignable<TheirUpdateAudioMixerOptions, UpdateAudioMixerOptions>>;
export type CheckAudioMixerStop = Expect<Assignable<TheirStopAudioMixerOptions, StopAudioMixerOptions>>;
export type CheckAIDenoiserStart = Expect<Assignable<TheirAIDenoiserOptions, AIDenoiserOptions>>;
export type CheckMixerInMap = Expect<Assignable<PluginStartOptionsMap['AudioMixer'], AudioMixerOptions>>;
export type CheckMixerUpdateInMap = Expect<Assignable<PluginUpdateOptionsMap['AudioMixer'], UpdateAudioMixerOptions>>;
export type CheckMixerStopInMap = Expect<Assignable<PluginStopOptionsMap['AudioMixer'], StopAudioMixerOptions>>;
export type CheckDenoiserInMap = Expect<Assignable<PluginStartOptionsMap['AIDenoiser'], AIDenoiserOptions>>;

// startPlugin / updatePlugin / stopPlugin accept the original's (name, options) pairs for the built-ins.
type StartArgs = Parameters<Ours['startPlugin']>;
export type CheckStartMixer = Expect<Assignable<['AudioMixer', TheirAudioMixerOptions], StartArgs>>;
export type CheckStartDenoiser = Expect<Assignable<['AIDenoiser', TheirAIDenoiserOptions], StartArgs>>;
export type CheckStopDebug = Expect<Assignable<['Debug', undefined], Parameters<Ours['stopPlugin']>>>;

// Our plugin classes are plugins use() / create({plugins}) accept (an app may also register them explicitly).
export type CheckMixerClass = Expect<Assignable<typeof AudioMixer, TRTCPlugin>>;
export type CheckDenoiserClass = Expect<Assignable<typeof AIDenoiser, TRTCPlugin>>;
export type CheckDebugClass = Expect<Assignable<typeof Debug, TRTCPlugin>>;

/**
 * Every plugin name of the original's option maps (5.17.1 and 5.11.1) is in ours, and the original's options for
 * it are accepted by ours; our maps also name 5.17's FaceDetection and VoiceChanger.
 */
type MapFits<Theirs, Ours> = { [K in keyof Theirs]-?: K extends keyof Ours ? ([Theirs[K]] extends [Ours[K]] ? true : { mismatch: K }) : { missing: K } }[keyof Theirs];
export type CheckStartMap17 = Expect<MapFits<Their17StartMap, OurStartMap>>;
export type CheckUpdateMap17 = Expect<MapFits<Their17UpdateMap, OurUpdateMap>>;
export type CheckStopMap17 = Expect<MapFits<Their17StopMap, OurStopMap>>;
export type CheckStartMap11 = Expect<MapFits<PluginStartOptionsMap, OurStartMap>>;
export type CheckUpdateMap11 = Expect<MapFits<PluginUpdateOptionsMap, OurUpdateMap>>;
export type CheckStopMap11 = Expect<MapFits<PluginStopOptionsMap, OurStopMap>>;
export type CheckMapsBeyond = Expect<Assignable<['FaceDetection', 'VoiceChanger'], [keyof OurStartMap & keyof OurUpdateMap & keyof OurStopMap, keyof OurStartMap & keyof OurUpdateMap & keyof OurStopMap]>>;
