/**
 * @conclave/sdk: the browser SDK. Its default export is the TRTC class, source-compatible with
 * the trtc-sdk-v5 API: `import TRTC from '@conclave/sdk'`.
 */
import { TRTC } from './trtc.js';

export default TRTC;
export { TRTC };
export { RtcError } from './errors/rtc-error.js';
export { EVENT } from './constants/event.js';
export { TYPE } from './constants/type.js';
export { ERROR_CODE } from './constants/error-code.js';
export type {
  TRTCOptions, EnterRoomConfig, SwitchRoomConfig, ProxyServer, TurnServer, LocalVideoConfig, LocalAudioConfig, UpdateLocalAudioConfig,
  ScreenShareConfig, UpdateScreenShareConfig, RemoteVideoConfig, StopRemoteVideoConfig, TRTCEventTypes, ConnectionState,
  View, VideoProfileName, TRTCPlugin, PluginWithAssets, PluginCore, PluginInstance, TrackQuery, SEIMessageOptions,
  CustomMessageData, CustomMessage, NetworkQuality, TRTCStatistics, StreamStatistic, VideoFreezeStatistic, SupportResult,
  RemoteStreamStatistic, PermissionOption, PermissionResult, RealtimeTranscriberMessageEvent, RealtimeTranscriberStateEvent,
} from './types.js';
export type {
  ExperimentalAPIFunctionMap, EnableAudioFrameEventOptions, RemotePlayerOptions, RequestPictureInPictureOptions,
  RequestFullScreenOptions, PlaybackQualityStream, ResolutionConfig, SwitchPlaybackQualityOptions, PreconnectParams,
} from './experimental/types.js';
export type { ScopedLogger, ScopedLoggerOptions } from './log/logger-manager.js';
export type { VideoProfile, AudioProfile } from './media/profiles.js';
// The built-in plugins' option types, exported from the package root as the original's index.d.ts does.
export type { AudioMixerOptions, UpdateAudioMixerOptions, StopAudioMixerOptions } from './plugins/audio-mixer/options.js';
export type { AIDenoiserOptions } from './plugins/ai-denoiser/ai-denoiser.js';
// The option types per plugin name of startPlugin / updatePlugin / stopPlugin, as the original's root exports them.
export type {
  PluginStartOptionsMap, PluginUpdateOptionsMap, PluginStopOptionsMap, InitAudioProcessorOptions, UpdateAudioProcessorOptions, UpdateDebugOptions, AudioSource,
} from './plugins/option-maps.js';
export type { PluginContext, AudioPluginContext } from './plugin-api/index.js';
export type { AudioPlayerContext, AudioPlayerOptions, AudioPlayerUpdateOptions, AudioPlayerStopOptions } from './plugin-api/audio-player.js';
