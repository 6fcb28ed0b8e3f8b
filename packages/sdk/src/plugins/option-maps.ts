/**
 * The option types of startPlugin / updatePlugin / stopPlugin per plugin name, as trtc-sdk-v5 5.17's root
 * typings map them (PluginStartOptionsMap, PluginUpdateOptionsMap, PluginStopOptionsMap), plus the plugins of
 * 5.17 its map leaves out (FaceDetection, VoiceChanger) and 5.18's AudioPlayer (its map leaves it out too). Types only: re-exported from the package root
 * (src/index.ts), erased from every bundle.
 */
import type { AIDenoiserOptions, UpdateDenoiserOptions } from './ai-denoiser/index.js';
import type { AudioMixerOptions, StopAudioMixerOptions, UpdateAudioMixerOptions } from './audio-mixer/index.js';
import type { AudioPlayerOptions, AudioPlayerStopOptions, AudioPlayerUpdateOptions } from '../plugin-api/audio-player.js';
import type { CDNStreamingOptions } from './cdn-streaming/index.js';
import type { StartChorusOption, UpdateChorusOption } from './chorus/index.js';
import type { StartCrossRoomOption, StopCrossRoomOption, UpdateCrossRoomOption } from './cross-room/index.js';
import type { EncryptionOptions } from './custom-encryption/index.js';
import type { DeviceDetectorOptions } from './device-detector/index.js';
import type { StartLEBPlayerOption, UpdateLEBPlayerOption } from './lebplayer/index.js';
import type { StartRealtimeTranscriberOption, StopRealtimeTranscriberOption } from './realtime-transcriber/index.js';
import type { SmallStreamAutoSwitcherOptions } from './small-stream-auto-switcher/index.js';
import type { VoiceChangerStartOptions, VoiceChangerUpdateOptions } from './voice-changer/index.js';
import type { BasicBeautyOptions } from './video-effect/basic-beauty/index.js';
import type { BeautyOptions, UpdateBeautyOptions } from './video-effect/beauty/index.js';
import type { FaceDetectionOptions, UpdateFaceDetectionOptions } from './video-effect/face-detection/index.js';
import type { UpdateVideoMixerOptions, VideoMixerOptions, VideoMixerOptions511 } from './video-effect/video-mixer/index.js';
import type { UpdateVirtualBackgroundOptions, VirtualBackgroundOptions } from './video-effect/virtual-background/index.js';
import type { WatermarkOptions } from './video-effect/watermark/index.js';

/** A reference audio source of AudioProcessor (5.17). */
export type AudioSource = HTMLAudioElement | MediaStreamTrack | AudioNode;

/**
 * startPlugin('AudioProcessor') options (5.17). Accepted for typing; the plugin itself is refused (the
 * vendor's proprietary cloud model: ENV_NOT_SUPPORTED, docs/behaviour.md §5.6).
 */
export interface InitAudioProcessorOptions {
  assetsPath?: string;
  sdkAppId: number;
  userId: string;
  userSig: string;
  audioReference?: AudioSource[];
}

/** updatePlugin('AudioProcessor') options (5.17). */
export interface UpdateAudioProcessorOptions {
  audioReference?: AudioSource[];
}

/** updatePlugin('Debug') options (5.17): hides or shows the dialog. */
export interface UpdateDebugOptions {
  visible: boolean;
}

/** startPlugin options per plugin name. */
export type PluginStartOptionsMap = {
  AudioMixer: AudioMixerOptions;
  AIDenoiser: AIDenoiserOptions;
  CDNStreaming: CDNStreamingOptions;
  VirtualBackground: VirtualBackgroundOptions;
  Watermark: WatermarkOptions;
  VideoMixer: VideoMixerOptions;
  Beauty: BeautyOptions;
  BasicBeauty: BasicBeautyOptions;
  DeviceDetector: DeviceDetectorOptions;
  Debug: undefined;
  CrossRoom: StartCrossRoomOption;
  CustomEncryption: EncryptionOptions;
  SmallStreamAutoSwitcher: SmallStreamAutoSwitcherOptions;
  AudioProcessor: InitAudioProcessorOptions;
  Chorus: StartChorusOption;
  LEBPlayer: StartLEBPlayerOption;
  RealtimeTranscriber: StartRealtimeTranscriberOption;
  FaceDetection: FaceDetectionOptions;
  VoiceChanger: VoiceChangerStartOptions;
  AudioPlayer: AudioPlayerOptions;
};

/** updatePlugin options per plugin name (plugins without update are not listed). */
export type PluginUpdateOptionsMap = {
  AudioMixer: UpdateAudioMixerOptions;
  AIDenoiser: UpdateDenoiserOptions;
  CDNStreaming: CDNStreamingOptions;
  VirtualBackground: UpdateVirtualBackgroundOptions;
  Watermark: WatermarkOptions;
  /** 5.17's update shape, or 5.11's (its map gave the start options). */
  VideoMixer: UpdateVideoMixerOptions | VideoMixerOptions511;
  Beauty: UpdateBeautyOptions;
  BasicBeauty: BasicBeautyOptions;
  CrossRoom: UpdateCrossRoomOption;
  AudioProcessor: UpdateAudioProcessorOptions;
  Debug: UpdateDebugOptions;
  Chorus: UpdateChorusOption;
  LEBPlayer: UpdateLEBPlayerOption;
  FaceDetection: UpdateFaceDetectionOptions;
  VoiceChanger: VoiceChangerUpdateOptions;
  AudioPlayer: AudioPlayerUpdateOptions;
};

/** stopPlugin options per plugin name (undefined: stop takes none). */
export type PluginStopOptionsMap = {
  AudioMixer: StopAudioMixerOptions;
  AIDenoiser: undefined;
  CDNStreaming: CDNStreamingOptions;
  VirtualBackground: undefined;
  Watermark: undefined;
  VideoMixer: undefined;
  Beauty: undefined;
  BasicBeauty: undefined;
  DeviceDetector: undefined;
  Debug: undefined;
  CrossRoom: StopCrossRoomOption | undefined;
  SmallStreamAutoSwitcher: undefined;
  AudioProcessor: undefined;
  CustomEncryption: undefined;
  Chorus: undefined;
  LEBPlayer: undefined;
  RealtimeTranscriber: StopRealtimeTranscriberOption;
  FaceDetection: undefined;
  VoiceChanger: undefined;
  AudioPlayer: AudioPlayerStopOptions;
};
