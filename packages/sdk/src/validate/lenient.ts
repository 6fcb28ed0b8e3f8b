import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import { warnUnsupported } from '../log/unsupported.js';
import type {
  EnterRoomConfig, LocalAudioConfig, LocalVideoConfig, RemoteVideoConfig, ScreenShareConfig, TRTCOptions,
} from '../types.js';

/*
 * Leniency as the original's (trtc-sdk-v5 5.10.1): its rule engine skips `undefined`, type-checks
 * everything else (so `null` fails a typed field, '' passes a string one and 0 a number one), and never
 * looks at the fields it has no rule for, whose falsy values (null, '', 0) then mean "not set". The
 * functions below turn those into what they mean here (a copy; the app's object is left alone), so
 * the validators after them only see values the original would have checked. See the SDK README.
 */

/** null, '', 0 and NaN: "not set" for a field the original does not check. */
export function isUnset(value: unknown): boolean {
  return value === null || value === '' || value === 0 || (typeof value === 'number' && Number.isNaN(value));
}

/** A shallow copy without the listed fields whose value is unset (or, with `emptyOnly`, ''). */
function dropUnset<T extends object>(object: T, keys: readonly string[], emptyOnly = false): T {
  const copy = { ...object } as Record<string, unknown>;
  for (const key of keys) {
    if (key in copy && (emptyOnly ? copy[key] === '' : isUnset(copy[key]))) delete copy[key];
  }
  return copy as T;
}

/** A config object argument: undefined is {} unless required; anything but an object is INVALID_PARAMETER. */
export function configObject<T extends object>(config: T | undefined, name: string, functionName: string, required: boolean): T {
  if (config === undefined) {
    if (required) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, `${name} is required`, functionName);
    return {} as T;
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw invalidParameter(EXTRA_CODE.TYPE, `${name} must be an object`, functionName);
  return config;
}

/** An optional `option` object inside a config: must be an object when given (the original's type rule). */
function optionObject<O extends object>(option: O | undefined, functionName: string): O | undefined {
  if (option === undefined) return undefined;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) throw invalidParameter(EXTRA_CODE.TYPE, 'option must be an object', functionName);
  return option;
}

/** create(): enableSEI and assetsPath are not checked by the original (falsy: off / default). */
export function lenientCreateOptions(options: TRTCOptions): TRTCOptions {
  if (typeof options !== 'object' || options === null) return options;
  const copy = dropUnset(options, ['assetsPath', 'volumeType', 'userDefineRecordId']);
  if (isUnset(copy.enableSEI)) copy.enableSEI = false;
  if (copy.volumeType !== undefined) warnUnsupported('create.volumeType');
  if (copy.userDefineRecordId !== undefined) warnUnsupported('create.userDefineRecordId');
  return copy;
}

/** start/updateLocalVideo: profile, qosPreference, avoidCropping unchecked; '' is no cameraId, no small stream, no mute image. */
export function lenientLocalVideo(config: LocalVideoConfig | undefined, functionName: string, required: boolean): LocalVideoConfig {
  const copy = { ...configObject(config, 'config', functionName, required) };
  if (copy.mute === '') copy.mute = false;
  const option = optionObject(copy.option, functionName);
  if (option) {
    // cameraId and small are typed by the original (null fails), '' passes and means none.
    copy.option = dropUnset(dropUnset(option, ['profile', 'qosPreference', 'avoidCropping']), ['cameraId', 'small'], true);
  }
  return copy;
}

/** start/updateLocalAudio: startLocalAudio's mute is unchecked; '' is no microphoneId. */
export function lenientLocalAudio(config: LocalAudioConfig | undefined, functionName: string, required: boolean): LocalAudioConfig {
  const copy = { ...configObject(config, 'config', functionName, required) };
  if (functionName === 'startLocalAudio' && isUnset(copy.mute)) delete copy.mute;
  const option = optionObject(copy.option, functionName);
  if (option) copy.option = dropUnset(option, ['microphoneId'], true);
  return copy;
}

/** start/updateScreenShare: preferDisplaySurface, qosPreference, captureElement unchecked; '' is the default profile. */
export function lenientScreenShare(config: ScreenShareConfig | undefined, functionName: string, required: boolean): ScreenShareConfig {
  const copy = { ...configObject(config, 'config', functionName, required) };
  const option = optionObject(copy.option, functionName);
  if (option) {
    copy.option = dropUnset(dropUnset(option, ['preferDisplaySurface', 'qosPreference', 'captureElement']), ['profile'], true);
  }
  return copy;
}

/** start/updateRemoteVideo: the original checks only fillMode and mirror of `option`. */
export function lenientRemoteVideo(config: RemoteVideoConfig | undefined, functionName: string): RemoteVideoConfig | undefined {
  if (!config || typeof config !== 'object') return config;
  const option = optionObject(config.option, functionName);
  if (!option) return config;
  const read = dropUnset(option, ['small', 'receiveWhenViewVisible', 'canvasRender', 'poster', 'viewRoot']);
  return { ...config, option: read };
}

/** switchRole's option is unchecked: falsy privateMapKey / latencyLevel are not set. */
export function lenientSwitchRoleOption(option: { privateMapKey?: string; latencyLevel?: number } | null | undefined): { privateMapKey?: string; latencyLevel?: number } {
  if (typeof option !== 'object' || option === null) return {};
  return dropUnset(option, ['privateMapKey', 'latencyLevel']);
}

/**
 * enterRoom: '' or 0 is no roomId, '' no strRoomId / proxy / proxy URL / userDefineRecordId; unchecked
 * fields (privateMapKey, businessInfo, iceTransportPolicy…) falsy are not set; autoReceiveAudio /
 * autoReceiveVideo falsy are false (as the original's destructuring defaults make them).
 */
export function lenientEnterRoom(config: EnterRoomConfig | undefined): EnterRoomConfig | undefined {
  if (!config || typeof config !== 'object') return config;
  const copy = dropUnset(config, ['privateMapKey', 'businessInfo', 'jitterBufferDelay', 'preferHW']);
  const strings = dropUnset(copy, ['roomId', 'strRoomId', 'proxy', 'userDefineRecordId'], true);
  if (strings.roomId === 0) delete strings.roomId;
  // Not checked by the original; the rules of docs/behaviour.md §5.1 apply to what is given, null is not given.
  for (const key of ['userDefinePushArgs', 'pureAudioPushMode'] as const) {
    if (strings[key] === null) delete strings[key];
  }
  for (const key of ['autoReceiveAudio', 'autoReceiveVideo'] as const) {
    if (isUnset(strings[key])) strings[key] = false;
  }
  if (typeof strings.proxy === 'object' && strings.proxy !== null) {
    strings.proxy = dropUnset(dropUnset(strings.proxy, ['websocketProxy', 'loggerProxy', 'webtransportProxy'], true),
      ['scheduleProxy', 'unifiedProxy', 'iceTransportPolicy']);
  }
  return strings;
}
