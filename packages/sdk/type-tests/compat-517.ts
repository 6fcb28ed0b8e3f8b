/**
 * Type compatibility with the newest original (trtc-sdk-v5 5.17.1's typings, installed as `trtc-sdk-v5-517`):
 * an app written against 5.17.1 compiles against ours. Fails to compile when a method, option field, event,
 * event field, static or constant of 5.17.1 is missing from ours or has an incompatible type.
 * No runtime part.
 */
import type Theirs from 'trtc-sdk-v5-517';
import type {
  EnterRoomConfig as TheirEnterRoomConfig, LocalVideoConfig as TheirLocalVideoConfig,
  LocalAudioConfig as TheirLocalAudioConfig, UpdateLocalAudioConfig as TheirUpdateLocalAudioConfig,
  ScreenShareConfig as TheirScreenShareConfig, UpdateScreenShareConfig as TheirUpdateScreenShareConfig,
  RemoteVideoConfig as TheirRemoteVideoConfig, StopRemoteVideoConfig as TheirStopRemoteVideoConfig,
  ProxyServer as TheirProxyServer, TRTCOptions as TheirTRTCOptions, TRTCEventTypes as TheirEventTypes,
  RtcError as TheirRtcError, ExperimentalAPIFunctionMap as TheirExperimentalMap, PermissionOption as TheirPermissionOption,
  TRTCStatistics as TheirStatistics,
} from 'trtc-sdk-v5-517';
import type Ours from '../src/index.js';
import type {
  EnterRoomConfig, LocalVideoConfig, LocalAudioConfig, UpdateLocalAudioConfig, ScreenShareConfig,
  UpdateScreenShareConfig, RemoteVideoConfig, StopRemoteVideoConfig, ProxyServer, TRTCOptions, TRTCEventTypes,
  RtcError, ExperimentalAPIFunctionMap, TRTCStatistics,
} from '../src/index.js';
import type { Assignable, DeepLit, Expect, HasKeys, Opt, Values } from './helpers.js';

// ---- instance methods: every method of 5.17.1's class ----
type Method517 = { [K in keyof Theirs]: Theirs[K] extends (...args: never[]) => unknown ? K : never }[keyof Theirs];
export type CheckMethodNames = Expect<HasKeys<Pick<Theirs, Method517>, Ours>>;

/** Methods whose argument lists are plain (no overloads generic over a map). */
type PlainMethod = Exclude<Method517, 'on' | 'off' | 'startPlugin' | 'updatePlugin' | 'stopPlugin' | 'use' | 'callExperimentalAPI'>;
type TheirMethod<M extends PlainMethod> = Theirs[M] extends (...args: infer A) => infer R ? { args: DeepLit<A>; ret: R } : never;
type OurMethod<M extends PlainMethod> = M extends keyof Ours ? Ours[M] extends (...args: infer A) => infer R ? { args: A; ret: R } : never : never;
type MethodCompatible<M extends PlainMethod> =
  Assignable<TheirMethod<M>['args'], OurMethod<M>['args']> extends true
    ? Assignable<OurMethod<M>['ret'], TheirMethod<M>['ret']> extends true ? true : { returnIncompatible: M }
    : { argsIncompatible: M };
type AllMethods = { [M in PlainMethod]: MethodCompatible<M> };
export type CheckMethods = Expect<Assignable<AllMethods, { [M in keyof AllMethods]: true }>>;

// callExperimentalAPI: every name of theirs with its options, and the options fit ours.
export type CheckExperimentalNames = Expect<HasKeys<TheirExperimentalMap, ExperimentalAPIFunctionMap>>;
type ExperimentalFits = { [N in keyof TheirExperimentalMap & keyof ExperimentalAPIFunctionMap]: Assignable<DeepLit<TheirExperimentalMap[N]>, ExperimentalAPIFunctionMap[N]> };
export type CheckExperimentalOptions = Expect<Assignable<ExperimentalFits, { [N in keyof ExperimentalFits]: true }>>;
export type CheckExperimentalCall = Expect<Assignable<['enableAudioFrameEvent', { enable: true; userId: '*'; sampleRate: 16000; channelCount: 2 }], Parameters<Ours['callExperimentalAPI']>>>;
export type CheckPreconnectCall = Expect<Assignable<['preconnect', { enable: false }], Parameters<Ours['callExperimentalAPI']>>>;
export type CheckExperimentalResult = Expect<Assignable<ReturnType<Ours['callExperimentalAPI']>, Promise<void>>>;

// ---- events: every event of theirs exists in ours, and a handler written for theirs fits ours ----
export type CheckEventNames = Expect<HasKeys<TheirEventTypes, TRTCEventTypes>>;
type HandlerFits = {
  [E in keyof TheirEventTypes & keyof TRTCEventTypes]: Assignable<(...args: DeepLit<TheirEventTypes[E]>) => void, TRTCEventTypes[E]>;
};
export type CheckHandlers = Expect<Assignable<HandlerFits, { [E in keyof HandlerFits]: true }>>;
/** The fields an app reads are there (a handler may ignore a field, so HandlerFits alone does not show it). */
type EventArg<E extends keyof TRTCEventTypes> = Parameters<TRTCEventTypes[E]>[0];
export type CheckExitReason = Expect<HasKeys<{ reason: 0 }, EventArg<'remote-user-exit'>>>;
export type CheckIsReconnecting = Expect<HasKeys<{ isReconnecting: true }, EventArg<'connection-state-changed'>>>;
export type CheckStatistics = Expect<Assignable<TRTCStatistics, DeepLit<TheirStatistics>>>;
export type CheckOff = Expect<Assignable<['*'], Parameters<Ours['off']>>>;

// ---- option objects: every field exists, and their values are accepted ----
export type CheckEnterRoomKeys = Expect<HasKeys<TheirEnterRoomConfig, EnterRoomConfig>>;
export type CheckEnterRoom = Expect<Assignable<DeepLit<TheirEnterRoomConfig>, EnterRoomConfig>>;
export type CheckProxyKeys = Expect<HasKeys<TheirProxyServer, ProxyServer>>;
export type CheckOptionsKeys = Expect<HasKeys<TheirTRTCOptions, TRTCOptions>>;
export type CheckLocalVideoKeys = Expect<HasKeys<TheirLocalVideoConfig, LocalVideoConfig>>;
export type CheckLocalVideoOptionKeys = Expect<HasKeys<Opt<TheirLocalVideoConfig>, Opt<LocalVideoConfig>>>;
export type CheckLocalVideo = Expect<Assignable<DeepLit<TheirLocalVideoConfig>, LocalVideoConfig>>;
export type CheckLocalAudioKeys = Expect<HasKeys<TheirLocalAudioConfig, LocalAudioConfig>>;
export type CheckLocalAudioOptionKeys = Expect<HasKeys<Opt<TheirLocalAudioConfig>, Opt<LocalAudioConfig>>>;
export type CheckLocalAudio = Expect<Assignable<DeepLit<TheirLocalAudioConfig>, LocalAudioConfig>>;
export type CheckUpdateLocalAudioOptionKeys = Expect<HasKeys<Opt<TheirUpdateLocalAudioConfig>, Opt<UpdateLocalAudioConfig>>>;
export type CheckUpdateLocalAudio = Expect<Assignable<DeepLit<TheirUpdateLocalAudioConfig>, UpdateLocalAudioConfig>>;
export type CheckScreenShareKeys = Expect<HasKeys<TheirScreenShareConfig, ScreenShareConfig>>;
export type CheckScreenShareOptionKeys = Expect<HasKeys<Opt<TheirScreenShareConfig>, Opt<ScreenShareConfig>>>;
export type CheckScreenShare = Expect<Assignable<DeepLit<TheirScreenShareConfig>, ScreenShareConfig>>;
export type CheckUpdateScreenShareOptionKeys = Expect<HasKeys<Opt<TheirUpdateScreenShareConfig>, Opt<UpdateScreenShareConfig>>>;
export type CheckUpdateScreenShare = Expect<Assignable<DeepLit<TheirUpdateScreenShareConfig>, UpdateScreenShareConfig>>;
export type CheckRemoteVideoKeys = Expect<HasKeys<TheirRemoteVideoConfig, RemoteVideoConfig>>;
export type CheckRemoteVideoOptionKeys = Expect<HasKeys<Opt<TheirRemoteVideoConfig>, Opt<RemoteVideoConfig>>>;
export type CheckRemoteVideo = Expect<Assignable<DeepLit<TheirRemoteVideoConfig>, RemoteVideoConfig>>;
export type CheckStopRemoteVideoKeys = Expect<HasKeys<TheirStopRemoteVideoConfig, StopRemoteVideoConfig>>;

// ---- statics ----
type StaticName = 'create' | 'setLogLevel' | 'isSupported' | 'getPermissions' | 'getCameraList' | 'getMicrophoneList' |
  'getSpeakerList' | 'setCurrentSpeaker' | 'EVENT' | 'ERROR_CODE' | 'TYPE' | 'frameWorkType';
export type CheckStatics = Expect<HasKeys<Pick<typeof Theirs, StaticName>, typeof Ours>>;
type StaticFn = 'setLogLevel' | 'getCameraList' | 'getMicrophoneList' | 'getSpeakerList' | 'setCurrentSpeaker';
type StaticFits = {
  [S in StaticFn]: Assignable<Parameters<(typeof Theirs)[S]>, Parameters<(typeof Ours)[S]>> extends true
    ? Assignable<ReturnType<(typeof Ours)[S]>, ReturnType<(typeof Theirs)[S]>> : false;
};
export type CheckStaticFns = Expect<Assignable<StaticFits, { [S in StaticFn]: true }>>;
export type CheckGetPermissions = Expect<Assignable<[DeepLit<TheirPermissionOption>], Parameters<typeof Ours.getPermissions>>>;
export type CheckGetPermissionsResult = Expect<Assignable<ReturnType<typeof Ours.getPermissions>, ReturnType<typeof Theirs.getPermissions>>>;
export type CheckCreate = Expect<Assignable<Parameters<typeof Theirs.create>, Parameters<typeof Ours.create>>>;
export type CheckIsSupported = Expect<Assignable<ReturnType<typeof Ours.isSupported>, ReturnType<typeof Theirs.isSupported>>>;

// ---- constants: same keys, same values ----
export type CheckEventConstants = Expect<Assignable<Values<typeof Theirs.EVENT>, Pick<Values<typeof Ours.EVENT>, keyof typeof Theirs.EVENT>>>;
export type CheckTypeConstants = Expect<Assignable<Values<typeof Theirs.TYPE>, Pick<Values<typeof Ours.TYPE>, keyof typeof Theirs.TYPE>>>;
export type CheckErrorCodeKeys = Expect<HasKeys<typeof Theirs.ERROR_CODE, typeof Ours.ERROR_CODE>>;
export type CheckErrorCodeTypes = Expect<Assignable<typeof Ours.ERROR_CODE, typeof Theirs.ERROR_CODE>>;

// ---- RtcError: an app reads these fields, `data` (5.12+) included ----
export type CheckRtcErrorFields = Expect<HasKeys<Pick<TheirRtcError, 'name' | 'code' | 'extraCode' | 'functionName' | 'message' | 'handler' | 'originError' | 'data'>, RtcError>>;
export type CheckRtcErrorTypes = Expect<Assignable<Pick<RtcError, 'code' | 'extraCode' | 'functionName' | 'message'>, Pick<TheirRtcError, 'code' | 'extraCode' | 'functionName' | 'message'>>>;
