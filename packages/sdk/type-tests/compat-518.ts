/**
 * Type compatibility with what 5.18 (5.18.0–5.18.3) added. Its typings are published only in Tencent's repository
 * (github:Tencent-RTC/TRTC_Web, SDK/index.d.ts and SDK/plugins/audio-player/audio-player.esm.d.ts), not on npm, so
 * the shapes an app writes against them are stated here (`Their518…`), from those files; everything 5.18 kept from
 * 5.17.1 is compat-517.ts's. Fails to compile when code written against the 5.18 shapes would not compile against
 * ours. No runtime part.
 */
import type Ours from '../src/index.js';
import type {
  AudioPlayerContext as RootAudioPlayerContext, AudioPlayerOptions as RootAudioPlayerOptions, EnterRoomConfig,
  PluginStartOptionsMap, PluginStopOptionsMap, PluginUpdateOptionsMap, TRTCPlugin, UpdateScreenShareConfig,
} from '../src/index.js';
import type AudioPlayerDefault from '../src/plugins/audio-player/index.js';
import type {
  AudioPlayer, AudioPlayerContext, AudioPlayerOptions, AudioPlayerStopOptions, AudioPlayerUpdateOptions,
} from '../src/plugins/audio-player/index.js';
import type { AudioSourceType } from '../src/plugins/audio-player/index.js';
import type { Assignable, Expect, HasKeys, Opt } from './helpers.js';

// ---- the core ----

/** 5.18's getCameraList / getMicrophoneList argument. */
type Their518DeviceListOption = boolean | { requestPermission?: boolean; filterVirtualDevice?: boolean };
type Their518DeviceList = (option?: Their518DeviceListOption) => Promise<MediaDeviceInfo[]>;
export type CheckGetCameraList = Expect<Assignable<Parameters<Their518DeviceList>, Parameters<typeof Ours.getCameraList>>>;
export type CheckGetMicrophoneList = Expect<Assignable<Parameters<Their518DeviceList>, Parameters<typeof Ours.getMicrophoneList>>>;
export type CheckDeviceListsResult = Expect<Assignable<ReturnType<typeof Ours.getCameraList>, ReturnType<Their518DeviceList>>>;
export type CheckFilterCall = Expect<Assignable<[{ requestPermission: true; filterVirtualDevice: true }], Parameters<typeof Ours.getMicrophoneList>>>;

/** 5.18's screen profile names (its screenProfileMap) and profile object. */
type Their518ScreenProfile = '480p' | '480p_2' | '720p' | '720p_2' | '1080p' | '1080p_2' | { width: number; height: number; frameRate: number; bitrate: number };
/** 5.18's UpdateScreenShareConfig option: 5.17's plus `profile`. */
interface Their518UpdateScreenShareOption {
  fillMode?: 'contain' | 'cover' | 'fill';
  profile?: Their518ScreenProfile;
  qosPreference?: 'smooth' | 'clear';
  audioTrack?: MediaStreamTrack;
  videoTrack?: MediaStreamTrack;
}
export type CheckUpdateScreenShareOptionKeys = Expect<HasKeys<Their518UpdateScreenShareOption, Opt<UpdateScreenShareConfig>>>;
export type CheckUpdateScreenShareOption = Expect<Assignable<Their518UpdateScreenShareOption, Opt<UpdateScreenShareConfig>>>;
export type CheckUpdateScreenShareCall = Expect<Assignable<[{ option: { profile: '720p' } }], Parameters<Ours['updateScreenShare']>>>;

/** 5.18's QuickStartConfig (5021 is raised when remoteUserId is the local userId). */
interface Their518QuickStart { remoteUserId: string; small?: boolean; domain?: string }
export type CheckQuickStart = Expect<Assignable<Their518QuickStart, NonNullable<EnterRoomConfig['quickStart']>>>;

// ---- the AudioPlayer plugin (trtc-sdk-v5/plugins/audio-player) ----

/** 5.18's AudioSourceType values, which its typings declare as a string enum. */
type Their518SourceType = 'pcm' | 'url' | 'track';
type Their518Callbacks = {
  onInputError?: (errMsg: string, inputIndex: number) => void;
  onDurationChange?: (duration: number) => void;
  onTimeUpdate?: (currentTime: number, durationTime: number) => void;
  onEnded?: () => void;
};
type Their518Realtime = boolean | { maxDelay?: number; discardAll?: boolean };
interface Their518AudioPlayerOptions extends Their518Callbacks {
  id: string;
  sourceType: Their518SourceType;
  url?: string;
  track?: MediaStreamTrack;
  publish?: boolean;
  realtime?: Their518Realtime;
  loop?: boolean;
  volume?: number;
  playbackRate?: number;
}
interface Their518AudioPlayerUpdateOptions extends Their518Callbacks {
  id: string;
  publish?: boolean;
  realtime?: Their518Realtime;
  loop?: boolean;
  volume?: number;
  playbackRate?: number;
  seekFrom?: number;
  operation?: 'pause' | 'resume' | 'stop';
}
interface Their518AudioPlayerStopOptions { id: string }
/** 5.18's AudioPlayerContext, as an app uses what startPlugin resolves with. */
interface Their518AudioPlayerContext {
  readonly id: string;
  readonly sourceType: Their518SourceType;
  readonly currentTime: number;
  readonly duration: number;
  readonly isStop: boolean;
  readonly isPause: boolean;
  readonly isPlayEnd: boolean;
  volume: number;
  loop: boolean;
  playbackRate: number;
  publish: boolean;
  input(pcmData: Float32Array | Int16Array, sampleRate: number): void;
  clearInput(): void;
  start(): Promise<void>;
  pause(): void;
  resume(): void;
  stop(): void;
  seek(time: number): void;
}

export type CheckPlayerOptionKeys = Expect<HasKeys<Their518AudioPlayerOptions, AudioPlayerOptions>>;
export type CheckPlayerOptions = Expect<Assignable<Their518AudioPlayerOptions, AudioPlayerOptions>>;
export type CheckPlayerUpdateKeys = Expect<HasKeys<Their518AudioPlayerUpdateOptions, AudioPlayerUpdateOptions>>;
export type CheckPlayerUpdate = Expect<Assignable<Their518AudioPlayerUpdateOptions, AudioPlayerUpdateOptions>>;
export type CheckPlayerStop = Expect<Assignable<Their518AudioPlayerStopOptions, AudioPlayerStopOptions>>;
export type CheckPlayerStopAll = Expect<Assignable<{ id: '*' }, AudioPlayerStopOptions>>;
// Our enum's members are the strings theirs has, so code using either enum fits.
export type CheckSourceTypeEnum = Expect<Assignable<AudioSourceType, Their518SourceType>>;
export type CheckSourceTypeOption = Expect<Assignable<AudioSourceType.PCM, AudioPlayerOptions['sourceType']>>;
// The player: every member of theirs, usable where an app typed it as theirs, and ours assignable both ways.
export type CheckPlayerKeys = Expect<HasKeys<Their518AudioPlayerContext, AudioPlayerContext>>;
export type CheckPlayerFits = Expect<Assignable<AudioPlayerContext, Their518AudioPlayerContext>>;
export type CheckPlayerRootType = Expect<Assignable<RootAudioPlayerContext, AudioPlayerContext>>;
export type CheckRootOptions = Expect<Assignable<Their518AudioPlayerOptions, RootAudioPlayerOptions>>;
// startPlugin / updatePlugin('AudioPlayer', …) resolve with the player (the original's Promise<any> lets apps call its methods).
type StartPlayer = (name: 'AudioPlayer', options: Their518AudioPlayerOptions) => Promise<Their518AudioPlayerContext>;
type UpdatePlayer = (name: 'AudioPlayer', options: Their518AudioPlayerUpdateOptions) => Promise<Their518AudioPlayerContext | undefined>;
export type CheckStartResolvesPlayer = Expect<Assignable<Ours['startPlugin'], StartPlayer>>;
export type CheckUpdateResolvesPlayer = Expect<Assignable<Ours['updatePlugin'], UpdatePlayer>>;
// Other plugins keep the untyped overload.
export type CheckOtherPlugins = Expect<Assignable<['Watermark', { imageUrl: string }], Parameters<Ours['startPlugin']>>>;
// The option maps name it; the class is a plugin TRTC.create({ plugins }) takes, one class for both exports.
export type CheckStartMap = Expect<Assignable<Their518AudioPlayerOptions, PluginStartOptionsMap['AudioPlayer']>>;
export type CheckUpdateMap = Expect<Assignable<Their518AudioPlayerUpdateOptions, PluginUpdateOptionsMap['AudioPlayer']>>;
export type CheckStopMap = Expect<Assignable<Their518AudioPlayerStopOptions, PluginStopOptionsMap['AudioPlayer']>>;
export type CheckPluginClass = Expect<Assignable<typeof AudioPlayer, TRTCPlugin>>;
export type CheckDefaultExport = Expect<Assignable<typeof AudioPlayerDefault, typeof AudioPlayer>>;
export type CheckName = Expect<Assignable<typeof AudioPlayer.Name, string>>;
