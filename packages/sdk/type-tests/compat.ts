/**
 * Type compatibility with the original SDK (trtc-sdk-v5, its 5.11.1 typings, the 5.10.1 surface):
 * this file fails to compile when a method, option field, event or constant of the original is
 * missing from ours or has an incompatible type. It has no runtime part.
 */
import type Theirs from 'trtc-sdk-v5';
import type {
  EnterRoomConfig as TheirEnterRoomConfig, LocalVideoConfig as TheirLocalVideoConfig,
  LocalAudioConfig as TheirLocalAudioConfig, UpdateLocalAudioConfig as TheirUpdateLocalAudioConfig,
  ScreenShareConfig as TheirScreenShareConfig, UpdateScreenShareConfig as TheirUpdateScreenShareConfig,
  RemoteVideoConfig as TheirRemoteVideoConfig, StopRemoteVideoConfig as TheirStopRemoteVideoConfig,
  ProxyServer as TheirProxyServer, TRTCOptions as TheirTRTCOptions, TRTCEventTypes as TheirEventTypes,
  RtcError as TheirRtcError,
} from 'trtc-sdk-v5';
import type Ours from '../src/index.js';
import type {
  EnterRoomConfig, LocalVideoConfig, LocalAudioConfig, UpdateLocalAudioConfig, ScreenShareConfig,
  UpdateScreenShareConfig, RemoteVideoConfig, StopRemoteVideoConfig, ProxyServer, TRTCOptions, TRTCEventTypes,
  RtcError,
} from '../src/index.js';

import type { Assignable, DeepLit, Expect, HasKeys, Opt, Values } from './helpers.js';

// ---- instance methods of 5.10.1 (later additions excluded) ----
type Method510 =
  | 'use' | 'enterRoom' | 'exitRoom' | 'switchRole' | 'destroy'
  | 'startLocalAudio' | 'updateLocalAudio' | 'stopLocalAudio'
  | 'startLocalVideo' | 'updateLocalVideo' | 'stopLocalVideo'
  | 'startScreenShare' | 'updateScreenShare' | 'stopScreenShare'
  | 'startRemoteVideo' | 'updateRemoteVideo' | 'stopRemoteVideo'
  | 'muteRemoteAudio' | 'setRemoteAudioVolume'
  | 'startPlugin' | 'updatePlugin' | 'stopPlugin'
  | 'enableAudioVolumeEvaluation' | 'on' | 'off'
  | 'getAudioTrack' | 'getVideoTrack' | 'getVideoSnapshot' | 'sendSEIMessage' | 'sendCustomMessage';

type TheirMethod<M extends Method510> = Theirs[M] extends (...args: infer A) => infer R ? { args: DeepLit<A>; ret: R } : never;
type OurMethod<M extends Method510> = Ours[M] extends (...args: infer A) => infer R ? { args: A; ret: R } : never;

/** Every argument list the original accepts, ours accepts; what ours returns fits where theirs is used. */
type MethodCompatible<M extends Method510> =
  Assignable<TheirMethod<M>['args'], OurMethod<M>['args']> extends true
    ? Assignable<OurMethod<M>['ret'], TheirMethod<M>['ret']> extends true ? true : { returnIncompatible: M }
    : { argsIncompatible: M };

type AllMethods = { [M in Exclude<Method510, 'on' | 'off' | 'startPlugin' | 'updatePlugin' | 'stopPlugin' | 'use'>]: MethodCompatible<M> };
export type CheckMethods = Expect<Assignable<AllMethods, { [M in keyof AllMethods]: true }>>;

// Plugin calls: the original's overloads are generic over its plugin map; an app calls them with a name and options.
export type CheckStartPlugin = Expect<Assignable<[string, unknown], Parameters<Ours['startPlugin']>>>;
export type CheckUpdatePlugin = Expect<Assignable<[string, unknown], Parameters<Ours['updatePlugin']>>>;
export type CheckStopPlugin = Expect<Assignable<[string, unknown], Parameters<Ours['stopPlugin']>>>;
export type CheckPluginResult = Expect<Assignable<ReturnType<Ours['startPlugin']>, Promise<unknown>>>;
export type CheckUse = Expect<Assignable<ReturnType<Ours['use']>, void>>;

// ---- events: every event of theirs exists in ours, and a handler written for theirs fits ours ----
export type CheckEventNames = Expect<HasKeys<TheirEventTypes, TRTCEventTypes>>;
type HandlerFits = {
  [E in keyof TheirEventTypes & keyof TRTCEventTypes]: Assignable<(...args: DeepLit<TheirEventTypes[E]>) => void, TRTCEventTypes[E]>;
};
export type CheckHandlers = Expect<Assignable<HandlerFits, { [E in keyof HandlerFits]: true }>>;
export type CheckOnReturnsThis = Expect<Assignable<ReturnType<Ours['on']>, Ours>>;

// ---- option objects: every field exists, and their values are accepted ----
export type CheckEnterRoomKeys = Expect<HasKeys<TheirEnterRoomConfig, EnterRoomConfig>>;
export type CheckEnterRoom = Expect<Assignable<DeepLit<TheirEnterRoomConfig>, EnterRoomConfig>>;
export type CheckProxyKeys = Expect<HasKeys<TheirProxyServer, ProxyServer>>;
export type CheckOptionsKeys = Expect<HasKeys<TheirTRTCOptions, TRTCOptions>>;
export type CheckLocalVideoKeys = Expect<HasKeys<TheirLocalVideoConfig, LocalVideoConfig>>;
export type CheckLocalVideoOptionKeys = Expect<HasKeys<Opt<TheirLocalVideoConfig>, Opt<LocalVideoConfig>>>;
export type CheckLocalAudioKeys = Expect<HasKeys<TheirLocalAudioConfig, LocalAudioConfig>>;
export type CheckLocalAudioOptionKeys = Expect<HasKeys<Opt<TheirLocalAudioConfig>, Opt<LocalAudioConfig>>>;
export type CheckUpdateLocalAudioOptionKeys = Expect<HasKeys<Opt<TheirUpdateLocalAudioConfig>, Opt<UpdateLocalAudioConfig>>>;
export type CheckScreenShareKeys = Expect<HasKeys<TheirScreenShareConfig, ScreenShareConfig>>;
export type CheckScreenShareOptionKeys = Expect<HasKeys<Opt<TheirScreenShareConfig>, Opt<ScreenShareConfig>>>;
export type CheckUpdateScreenShareOptionKeys = Expect<HasKeys<Opt<TheirUpdateScreenShareConfig>, Opt<UpdateScreenShareConfig>>>;
export type CheckRemoteVideoKeys = Expect<HasKeys<TheirRemoteVideoConfig, RemoteVideoConfig>>;
export type CheckRemoteVideoOptionKeys = Expect<HasKeys<Opt<TheirRemoteVideoConfig>, Opt<RemoteVideoConfig>>>;
export type CheckStopRemoteVideoKeys = Expect<HasKeys<TheirStopRemoteVideoConfig, StopRemoteVideoConfig>>;

// ---- statics ----
type Static510 = 'create' | 'setLogLevel' | 'isSupported' | 'getCameraList' | 'getMicrophoneList' | 'getSpeakerList' |
  'setCurrentSpeaker' | 'EVENT' | 'ERROR_CODE' | 'TYPE' | 'frameWorkType';
export type CheckStatics = Expect<HasKeys<Pick<typeof Theirs, Static510>, typeof Ours>>;
type StaticFn = 'setLogLevel' | 'getCameraList' | 'getMicrophoneList' | 'getSpeakerList' | 'setCurrentSpeaker';
type StaticFits = {
  [S in StaticFn]: Assignable<Parameters<(typeof Theirs)[S]>, Parameters<(typeof Ours)[S]>> extends true
    ? Assignable<ReturnType<(typeof Ours)[S]>, ReturnType<(typeof Theirs)[S]>> : false;
};
export type CheckStaticFns = Expect<Assignable<StaticFits, { [S in StaticFn]: true }>>;
export type CheckCreate = Expect<Assignable<Parameters<typeof Theirs.create>, Parameters<typeof Ours.create>>>;
export type CheckIsSupported = Expect<Assignable<ReturnType<typeof Ours.isSupported>, ReturnType<typeof Theirs.isSupported>>>;
export type CheckFrameWorkType = Expect<Assignable<typeof Ours.frameWorkType, number>>;

// ---- constants: same keys, same values ----
export type CheckEventConstants = Expect<Assignable<Values<typeof Theirs.EVENT>, Pick<Values<typeof Ours.EVENT>, keyof typeof Theirs.EVENT>>>;
export type CheckTypeConstants = Expect<Assignable<Values<typeof Theirs.TYPE>, Pick<Values<typeof Ours.TYPE>, keyof typeof Theirs.TYPE>>>;
export type CheckErrorCodeKeys = Expect<HasKeys<typeof Theirs.ERROR_CODE, typeof Ours.ERROR_CODE>>;
export type CheckErrorCodeTypes = Expect<Assignable<typeof Ours.ERROR_CODE, typeof Theirs.ERROR_CODE>>;

// ---- RtcError: an app reads these fields ----
export type CheckRtcErrorFields = Expect<HasKeys<Pick<TheirRtcError, 'name' | 'code' | 'extraCode' | 'functionName' | 'message' | 'handler' | 'originError'>, RtcError>>;
export type CheckRtcErrorTypes = Expect<Assignable<Pick<RtcError, 'code' | 'extraCode' | 'functionName' | 'message'>, Pick<TheirRtcError, 'code' | 'extraCode' | 'functionName' | 'message'>>>;
