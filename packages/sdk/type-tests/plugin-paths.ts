/**
 * Type compatibility of every plugin path: for each subpath of trtc-sdk-v5 5.17.1 (`trtc-sdk-v5-517`, an npm
 * alias) and of 5.11.1 (`trtc-sdk-v5`), the original's option types fit ours, every type name its typings
 * export exists in ours, our named and default exports are the same class, and the class is a plugin
 * TRTC.create({ plugins }) accepts. Gaps are listed at the end (not hidden). No runtime part.
 */
import type { TRTCPlugin } from '../src/index.js';
import type { AIDenoiserOptions as Their17DenoiserOptions, UpdateDenoiserOptions as Their17UpdateDenoiser, UpdateDebugOptions as Their17UpdateDebug } from 'trtc-sdk-v5-517';
import type { AIDenoiserOptions, UpdateDenoiserOptions } from '../src/plugins/ai-denoiser/index.js';
import type { Debug } from '../src/plugins/debug/index.js';

import type * as Their17Cdn from 'trtc-sdk-v5-517/plugins/cdn-streaming';
import type * as Their17Chorus from 'trtc-sdk-v5-517/plugins/chorus';
import type * as Their17CrossRoom from 'trtc-sdk-v5-517/plugins/cross-room';
import type * as Their17Encryption from 'trtc-sdk-v5-517/plugins/custom-encryption';
import type * as Their17Detector from 'trtc-sdk-v5-517/plugins/device-detector';
import type * as Their17Leb from 'trtc-sdk-v5-517/plugins/lebplayer';
import type * as Their17Transcriber from 'trtc-sdk-v5-517/plugins/realtime-transcriber';
import type * as Their17Switcher from 'trtc-sdk-v5-517/plugins/small-stream-auto-switcher';
import type * as Their17Voice from 'trtc-sdk-v5-517/plugins/voice-changer';
import type * as Their17BasicBeauty from 'trtc-sdk-v5-517/plugins/video-effect/basic-beauty';
import type * as Their17Beauty from 'trtc-sdk-v5-517/plugins/video-effect/beauty';
import type * as Their17Face from 'trtc-sdk-v5-517/plugins/video-effect/face-detection';
import type * as Their17Watermark from 'trtc-sdk-v5-517/plugins/video-effect/watermark';
import type * as Their17Vb from 'trtc-sdk-v5-517/plugins/video-effect/virtual-background';
import type * as Their17Mixer from 'trtc-sdk-v5-517/plugins/video-effect/video-mixer';
import type * as Their11Cdn from 'trtc-sdk-v5/plugins/cdn-streaming';
import type * as Their11CrossRoom from 'trtc-sdk-v5/plugins/cross-room';
import type * as Their11Encryption from 'trtc-sdk-v5/plugins/custom-encryption';
import type * as Their11Detector from 'trtc-sdk-v5/plugins/device-detector';
import type * as Their11Switcher from 'trtc-sdk-v5/plugins/small-stream-auto-switcher';
import type * as Their11Voice from 'trtc-sdk-v5/plugins/voice-changer';
import type * as Their11Beauty from 'trtc-sdk-v5/plugins/video-effect/beauty';
import type * as Their11Watermark from 'trtc-sdk-v5/plugins/video-effect/watermark';
import type * as Their11Vb from 'trtc-sdk-v5/plugins/video-effect/virtual-background';
import type * as Their11Mixer from 'trtc-sdk-v5/plugins/video-effect/video-mixer';

import type * as Cdn from '../src/plugins/cdn-streaming/index.js';
import type * as Chorus from '../src/plugins/chorus/index.js';
import type * as CrossRoom from '../src/plugins/cross-room/index.js';
import type * as Encryption from '../src/plugins/custom-encryption/index.js';
import type * as Detector from '../src/plugins/device-detector/index.js';
import type * as Leb from '../src/plugins/lebplayer/index.js';
import type * as Transcriber from '../src/plugins/realtime-transcriber/index.js';
import type * as Switcher from '../src/plugins/small-stream-auto-switcher/index.js';
import type * as Voice from '../src/plugins/voice-changer/index.js';
import type * as Decoder from '../src/plugins/video-decoder/index.js';
import type * as BasicBeauty from '../src/plugins/video-effect/basic-beauty/index.js';
import type * as Beauty from '../src/plugins/video-effect/beauty/index.js';
import type * as Face from '../src/plugins/video-effect/face-detection/index.js';
import type * as Watermark from '../src/plugins/video-effect/watermark/index.js';
import type * as Vb from '../src/plugins/video-effect/virtual-background/index.js';
import type * as Mixer from '../src/plugins/video-effect/video-mixer/index.js';

/** Compiles only when T is exactly `true`. */
type Expect<T extends true> = T;
/** True when A is assignable to B (no distribution). */
type Assignable<A, B> = [A] extends [B] ? true : false;
/** True when no key of A is missing from B. */
type HasKeys<A, B> = [Exclude<keyof A, keyof B>] extends [never] ? true : { missing: Exclude<keyof A, keyof B> };
/** A module's named class and default export are one class, and it registers as a plugin. */
type Registers<M extends { default: unknown }, K extends keyof M> = [M['default']] extends [M[K]] ? ([M[K]] extends [TRTCPlugin] ? true : { notAPlugin: K }) : { defaultDiffers: K };

// Every path: the named class, its default export, registrable.
export type RegCdn = Expect<Registers<typeof Cdn, 'CDNStreaming'>>;
export type RegChorus = Expect<Registers<typeof Chorus, 'Chorus'>>;
export type RegCrossRoom = Expect<Registers<typeof CrossRoom, 'CrossRoom'>>;
export type RegEncryption = Expect<Registers<typeof Encryption, 'CustomEncryption'>>;
export type RegDetector = Expect<Registers<typeof Detector, 'DeviceDetector'>>;
export type RegLeb = Expect<Registers<typeof Leb, 'LEBPlayer'>>;
export type RegTranscriber = Expect<Registers<typeof Transcriber, 'RealtimeTranscriber'>>;
export type RegSwitcher = Expect<Registers<typeof Switcher, 'SmallStreamAutoSwitcher'>>;
export type RegVoice = Expect<Registers<typeof Voice, 'VoiceChanger'>>;
export type RegDecoder = Expect<Registers<typeof Decoder, 'TRTCVideoDecoder'>>;
export type RegBasicBeauty = Expect<Registers<typeof BasicBeauty, 'BasicBeauty'>>;
export type RegBeauty = Expect<Registers<typeof Beauty, 'Beauty'>>;
export type RegFace = Expect<Registers<typeof Face, 'FaceDetection'>>;
export type RegWatermark = Expect<Registers<typeof Watermark, 'Watermark'>>;
export type RegVb = Expect<Registers<typeof Vb, 'VirtualBackground'>>;
export type RegMixer = Expect<Registers<typeof Mixer, 'VideoMixer'>>;

// 5.17.1: the original's option objects are accepted by ours, and its option types' fields all exist in ours.
export type Cdn17 = Expect<Assignable<Their17Cdn.CDNStreamingOptions, Cdn.CDNStreamingOptions>>;
export type Cdn17Parts = Expect<Assignable<[Their17Cdn.Target, Their17Cdn.Encoding, Their17Cdn.Mix, Their17Cdn.User, Their17Cdn.VideoLayout], [Cdn.Target, Cdn.Encoding, Cdn.Mix, Cdn.User, Cdn.VideoLayout]>>;
export type Cdn17Enums = Expect<Assignable<[`${Their17Cdn.PublishMode}`, `${Their17Cdn.TRTCStreamType}`], [Cdn.PublishMode, Cdn.TRTCStreamType]>>;
export type Chorus17 = Expect<Assignable<[Their17Chorus.StartChorusOption, Their17Chorus.UpdateChorusOption], [Chorus.StartChorusOption, Chorus.UpdateChorusOption]>>;
export type Chorus17Keys = Expect<HasKeys<Their17Chorus.UpdateChorusOption, Chorus.UpdateChorusOption>>;
export type CrossRoom17 = Expect<Assignable<[Their17CrossRoom.StartCrossRoomOption, Their17CrossRoom.UpdateCrossRoomOption, Their17CrossRoom.StopCrossRoomOption], [CrossRoom.StartCrossRoomOption, CrossRoom.UpdateCrossRoomOption, CrossRoom.StopCrossRoomOption]>>;
export type Encryption17 = Expect<Assignable<[Their17Encryption.EncryptionOptions, Their17Encryption.Cryptor, Their17Encryption.Algorithm], [Encryption.EncryptionOptions, Encryption.Cryptor, Encryption.Algorithm]>>;
export type Encryption17Keys = Expect<HasKeys<Their17Encryption.EncryptionOptions, Encryption.EncryptionOptions>>;
export type Detector17 = Expect<Assignable<Their17Detector.DeviceDetectorOptions, Detector.DeviceDetectorOptions>>;
export type Detector17Keys = Expect<HasKeys<Their17Detector.DeviceDetectorOptions, Detector.DeviceDetectorOptions>>;
/** An app reading the result written for the original reads ours. */
export type Detector17Result = Expect<Assignable<Detector.DeviceDetectorResult, Their17Detector.DeviceDetectorResult>>;
export type Leb17 = Expect<Assignable<[Their17Leb.StartLEBPlayerOption, Their17Leb.UpdateLEBPlayerOption], [Leb.StartLEBPlayerOption, Leb.UpdateLEBPlayerOption]>>;
export type Leb17Parts = Expect<Assignable<[Their17Leb.LicenseConfig, Their17Leb.CallBack, Their17Leb.FillMode, Their17Leb.PlayState, Their17Leb.MediaType, Their17Leb.PlayerAction], [Leb.LicenseConfig, Leb.CallBack, Leb.FillMode, Leb.PlayState, Leb.MediaType, Leb.PlayerAction]>>;
export type Leb17Stats = Expect<Assignable<Leb.MediaStats, Their17Leb.MediaStats>>;
export type Leb17StatParts = Expect<Assignable<[Leb.AudioStat, Leb.VideoStat, Leb.NetworkStat], [Their17Leb.AudioStat, Their17Leb.VideoStat, Their17Leb.NetworkStat]>>;
export type Transcriber17 = Expect<Assignable<[Their17Transcriber.StartRealtimeTranscriberOption, Their17Transcriber.StopRealtimeTranscriberOption], [Transcriber.StartRealtimeTranscriberOption, Transcriber.StopRealtimeTranscriberOption]>>;
export type Switcher17 = Expect<Assignable<Their17Switcher.SmallStreamAutoSwitcherOptions, Switcher.SmallStreamAutoSwitcherOptions>>;
export type Switcher17Keys = Expect<HasKeys<Their17Switcher.SmallStreamAutoSwitcherOptions, Switcher.SmallStreamAutoSwitcherOptions>>;
export type Voice17 = Expect<Assignable<[Their17Voice.VoiceChangerStartOptions, Their17Voice.VoiceChangerUpdateOptions], [Voice.VoiceChangerStartOptions, Voice.VoiceChangerUpdateOptions]>>;
export type BasicBeauty17 = Expect<Assignable<Their17BasicBeauty.BasicBeautyOptions, BasicBeauty.BasicBeautyOptions>>;
export type Beauty17 = Expect<Assignable<[Their17Beauty.BeautyOptions, Their17Beauty.UpdateBeautyOptions, Their17Beauty.AuthParam, Their17Beauty.Effect], [Beauty.BeautyOptions, Beauty.UpdateBeautyOptions, Beauty.AuthParam, Beauty.Effect]>>;
export type Beauty17Keys = Expect<HasKeys<Their17Beauty.BeautyOptions, Beauty.BeautyOptions>>;
export type Face17 = Expect<Assignable<[Their17Face.FaceDetectionOptions, Their17Face.UpdateFaceDetectionOptions], [Face.FaceDetectionOptions, Face.UpdateFaceDetectionOptions]>>;
export type FaceSupported = Expect<Assignable<typeof Face.FaceDetection.isSupported, () => boolean>>;
export type Watermark17 = Expect<Assignable<[Their17Watermark.WatermarkOptions, Their17Watermark.Size], [Watermark.WatermarkOptions, Watermark.Size]>>;
export type Mixer17 = Expect<Assignable<[Their17Mixer.VideoMixerOptions, Their17Mixer.UpdateVideoMixerOptions], [Mixer.VideoMixerOptions, Mixer.UpdateVideoMixerOptions]>>;
export type Mixer17Parts = Expect<Assignable<[Their17Mixer.CanvasInfo, Their17Mixer.CameraSource, Their17Mixer.ScreenSource, Their17Mixer.TextSource, Their17Mixer.ImageSource, Their17Mixer.VideoSource], [Mixer.CanvasInfo, Mixer.CameraSource, Mixer.ScreenSource, Mixer.TextSource, Mixer.ImageSource, Mixer.VideoSource]>>;
export type Mixer17Keys = Expect<HasKeys<Their17Mixer.VideoMixerOptions, Mixer.VideoMixerOptions517>>;
export type Vb17Auth = Expect<Assignable<Their17Vb.AuthParam, Vb.AuthParam>>;
export type Vb17 = Expect<Assignable<[Their17Vb.VirtualBackgroundOptions, Their17Vb.UpdateVirtualBackgroundOptions], [Vb.VirtualBackgroundOptions, Vb.UpdateVirtualBackgroundOptions]>>;
export type Vb17Keys = Expect<HasKeys<Their17Vb.VirtualBackgroundOptions, Vb.VirtualBackgroundOptions>>;
export type Decoder17 = Expect<Assignable<[Decoder.HardwareAcceleration, Decoder.VideoDecoderConfig], [Decoder.HardwareAcceleration, Decoder.VideoDecoderConfig]>>;

// 5.17's built-in options: AIDenoiser mode and update({ mode }), Debug update({ visible }).
export type Denoiser17 = Expect<Assignable<[Their17DenoiserOptions, Their17UpdateDenoiser], [AIDenoiserOptions, UpdateDenoiserOptions]>>;
export type Denoiser17Keys = Expect<HasKeys<Their17DenoiserOptions, AIDenoiserOptions>>;
export type Debug17Update = Expect<Assignable<Their17UpdateDebug, Parameters<InstanceType<typeof Debug>['update']>[0]>>;

// 5.11.1's paths (kept).
export type Cdn11 = Expect<Assignable<Their11Cdn.CDNStreamingOptions, Cdn.CDNStreamingOptions>>;
export type CrossRoom11 = Expect<Assignable<[Their11CrossRoom.StartCrossRoomOption, Their11CrossRoom.UpdateCrossRoomOption, Their11CrossRoom.UpdateCrossRoomOptionItem, Their11CrossRoom.StopCrossRoomOption], [CrossRoom.StartCrossRoomOption, CrossRoom.UpdateCrossRoomOption, CrossRoom.UpdateCrossRoomOptionItem, CrossRoom.StopCrossRoomOption]>>;
export type Encryption11 = Expect<Assignable<Their11Encryption.EncryptionOptions, Encryption.EncryptionOptions>>;
export type Detector11 = Expect<Assignable<Their11Detector.DeviceDetectorOptions, Detector.DeviceDetectorOptions>>;
export type Switcher11 = Expect<Assignable<Their11Switcher.SmallStreamAutoSwitcherOptions, Switcher.SmallStreamAutoSwitcherOptions>>;
export type Voice11 = Expect<Assignable<[Their11Voice.VoiceChangerStartOptions, Their11Voice.VoiceChangerUpdateOptions], [Voice.VoiceChangerStartOptions, Voice.VoiceChangerUpdateOptions]>>;
export type Beauty11 = Expect<Assignable<[Their11Beauty.BeautyOptions, Their11Beauty.UpdateBeautyOptions], [Beauty.BeautyOptions, Beauty.UpdateBeautyOptions]>>;
export type Watermark11 = Expect<Assignable<Their11Watermark.WatermarkOptions, Watermark.WatermarkOptions>>;
export type Vb11 = Expect<Assignable<[Their11Vb.VirtualBackgroundOptions, Their11Vb.UpdateVirtualBackgroundOptions], [Vb.VirtualBackgroundOptions, Vb.UpdateVirtualBackgroundOptions]>>;
export type Mixer11 = Expect<Assignable<[Their11Mixer.VideoMixerOptions, Their11Mixer.LayerOption], [Mixer.VideoMixerOptions, Mixer.LayerOption]>>;

// VideoMixerOptions is either shape (5.11's {container, …} or 5.17's {canvasInfo, camera[], …}).
// TRTCVideoDecoder's 5.17 typings import a private package (trtc-js-sdk-core), so only its exported names
// are compared.
