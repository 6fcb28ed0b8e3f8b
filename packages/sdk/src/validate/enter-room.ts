import { LIMITS } from '@conclave/protocol';
import { EXTRA_CODE } from '../constants/error-code.js';
import { invalidParameter } from '../errors/catalogue.js';
import type { EnterRoomConfig } from '../types.js';

const FN = 'enterRoom';
/** strRoomId characters (docs/behaviour.md §5.1): letters, digits, space and a set of punctuation. */
const STR_ROOM_ID = /^[a-zA-Z0-9 !#$%&()+\-:;<=.>?@[\]^_{}|~,]{1,64}$/;

/** The room an enterRoom config names: the integer roomId wins when both are given. */
export interface RoomTarget {
  roomId: string;
  isString: boolean;
}

/** The record-id charset: letters, digits, hyphen, underscore. */
const RECORD_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks streamId: non-empty string, at most 64 bytes, letters, digits, hyphen, underscore (docs/behaviour.md §5). */
export function validateStreamId(streamId: unknown, functionName: string): string {
  if (typeof streamId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'streamId must be a string', functionName);
  if (streamId === '') throw invalidParameter(EXTRA_CODE.EMPTY, 'streamId cannot be empty', functionName);
  if (new TextEncoder().encode(streamId).length > 64 || !/^[a-zA-Z0-9_-]+$/.test(streamId)) {
    throw invalidParameter(EXTRA_CODE.STREAM_ID, 'streamId must be at most 64 bytes of letters, digits, hyphen and underscore', functionName);
  }
  return streamId;
}

/** Checks the optional fields of enterRoom beyond the room and identity (docs/behaviour.md §5). */
function validateExtras(config: EnterRoomConfig): void {
  const { playoutDelay, userDefineRecordId, userDefinePushArgs, pureAudioPushMode, proxy } = config;
  if (playoutDelay !== undefined) {
    if (typeof playoutDelay !== 'object' || playoutDelay === null) throw invalidParameter(EXTRA_CODE.TYPE, 'playoutDelay must be an object {min, max}', FN);
    const { min, max } = playoutDelay;
    // Each bound is optional (the original checks only what is given).
    if (min !== undefined && (typeof min !== 'number' || min < 0 || min > 1000)) throw invalidParameter(EXTRA_CODE.RANGE, 'playoutDelay.min must be a number between 0 and 1000', FN);
    if (max !== undefined && (typeof max !== 'number' || max < 0 || max > 10000)) throw invalidParameter(EXTRA_CODE.RANGE, 'playoutDelay.max must be a number between 0 and 10000', FN);
    if (min !== undefined && max !== undefined && min > max) throw invalidParameter(EXTRA_CODE.RANGE, 'playoutDelay.min cannot exceed playoutDelay.max', FN);
  }
  if (userDefineRecordId !== undefined && (typeof userDefineRecordId !== 'string' || !RECORD_ID.test(userDefineRecordId))) {
    throw invalidParameter(EXTRA_CODE.RANGE, 'userDefineRecordId must be 1 to 64 letters, digits, hyphens or underscores', FN);
  }
  if (userDefinePushArgs !== undefined && (typeof userDefinePushArgs !== 'string' || userDefinePushArgs === '' || userDefinePushArgs.length > 256)) {
    throw invalidParameter(EXTRA_CODE.RANGE, 'userDefinePushArgs must be a non-empty string of at most 256 characters', FN);
  }
  if (pureAudioPushMode !== undefined && pureAudioPushMode !== 1 && pureAudioPushMode !== 2) {
    throw invalidParameter(EXTRA_CODE.RANGE, 'invalid pure audio: pureAudioPushMode must be 1 or 2', FN);
  }
  if (proxy !== undefined) resolveProxy(proxy);
  if (config.businessInfo !== undefined) buildBusinessInfo(config);
  for (const flag of ['autoReceiveAudio', 'autoReceiveVideo', 'enableAutoPlayDialog'] as const) {
    if (config[flag] !== undefined && typeof config[flag] !== 'boolean') throw invalidParameter(EXTRA_CODE.TYPE, `${flag} must be a boolean`, FN);
  }
  if (config.quickStart !== undefined && (typeof config.quickStart !== 'object' || config.quickStart === null || typeof config.quickStart.remoteUserId !== 'string')) {
    throw invalidParameter(EXTRA_CODE.TYPE, 'quickStart must be { remoteUserId, small?, domain? }', FN);
  }
  if (config.privateMapKey !== undefined && typeof config.privateMapKey !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'privateMapKey must be a string', FN);
  if (config.latencyLevel !== undefined && (typeof config.latencyLevel !== 'number' || !Number.isFinite(config.latencyLevel))) throw invalidParameter(EXTRA_CODE.TYPE, 'latencyLevel must be a number', FN);
}

/** Where scheduling and signalling go, as the proxy option says. */
export interface ResolvedProxy {
  /** Base URL of the Conclave server for scheduling. */
  scheduleBase?: string;
  /** Signalling WebSocket URL. */
  websocketUrl?: string;
  turnServers: { url: string; username?: string; credential?: string }[];
  iceTransportPolicy?: RTCIceTransportPolicy;
  loggerBase?: string;
}

const isWs = (url: string) => /^wss?:\/\/[^\s/]+/.test(url);
const isHttp = (url: string) => /^https?:\/\/[^\s/]+/.test(url);

/**
 * Reads the proxy option (docs/behaviour.md §5). A string starting with ws:// or wss:// is the signalling proxy;
 * a string starting with http(s):// — the original's WebTransport proxy — is taken as the Conclave
 * server to use, since Conclave has no WebTransport. Each URL must name a host.
 */
export function resolveProxy(proxy: EnterRoomConfig['proxy']): ResolvedProxy {
  if (proxy === undefined) return { turnServers: [] };
  if (typeof proxy === 'string') {
    if (isWs(proxy)) return { websocketUrl: proxy, turnServers: [] };
    if (isHttp(proxy)) return { scheduleBase: proxy, turnServers: [] };
    throw invalidParameter(EXTRA_CODE.RANGE, 'proxy must start with ws://, wss://, http:// or https:// followed by a host', FN);
  }
  if (typeof proxy !== 'object' || proxy === null) throw invalidParameter(EXTRA_CODE.TYPE, 'proxy must be a string or an object', FN);
  const result: ResolvedProxy = { turnServers: [] };
  if (proxy.websocketProxy !== undefined) {
    if (typeof proxy.websocketProxy !== 'string' || !isWs(proxy.websocketProxy)) {
      throw invalidParameter(EXTRA_CODE.RANGE, 'proxy.websocketProxy must start with ws:// or wss:// followed by a host', FN);
    }
    result.websocketUrl = proxy.websocketProxy;
  }
  for (const key of ['scheduleProxy', 'unifiedProxy', 'webtransportProxy', 'loggerProxy'] as const) {
    const value = proxy[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !isHttp(value)) throw invalidParameter(EXTRA_CODE.RANGE, `proxy.${key} must start with http:// or https:// followed by a host`, FN);
  }
  result.scheduleBase = proxy.scheduleProxy ?? proxy.unifiedProxy ?? proxy.webtransportProxy;
  result.loggerBase = proxy.loggerProxy;
  if (proxy.turnServer !== undefined) {
    const list = Array.isArray(proxy.turnServer) ? proxy.turnServer : [proxy.turnServer];
    for (const turn of list) {
      if (!turn || typeof turn.url !== 'string' || !/^turns?:/.test(turn.url)) {
        throw invalidParameter(EXTRA_CODE.RANGE, 'proxy.turnServer.url must start with turn: or turns:', FN);
      }
      if (turn.credentialType !== undefined && turn.credentialType !== 'password') {
        throw invalidParameter(EXTRA_CODE.RANGE, "proxy.turnServer.credentialType must be 'password'", FN);
      }
      result.turnServers.push({ url: turn.url, username: turn.username, credential: turn.credential });
    }
  }
  if (proxy.iceTransportPolicy !== undefined) {
    if (proxy.iceTransportPolicy !== 'all' && proxy.iceTransportPolicy !== 'relay') {
      throw invalidParameter(EXTRA_CODE.RANGE, "proxy.iceTransportPolicy must be 'all' or 'relay'", FN);
    }
    result.iceTransportPolicy = proxy.iceTransportPolicy;
  }
  return result;
}

/**
 * The business info sent on join (docs/behaviour.md §5): the app's JSON (when a string, it must parse to an object)
 * with the library's own values merged in under Str_uc_params.
 */
export function buildBusinessInfo(config: EnterRoomConfig): string | undefined {
  let info: Record<string, unknown> = {};
  if (config.businessInfo !== undefined) {
    if (typeof config.businessInfo !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'businessInfo must be a JSON string', FN);
    try {
      const parsed: unknown = JSON.parse(config.businessInfo);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      info = parsed as Record<string, unknown>;
    } catch {
      throw invalidParameter(EXTRA_CODE.TYPE, 'businessInfo must be a JSON object string', FN);
    }
  }
  const own: Record<string, unknown> = {};
  if (config.userDefineRecordId !== undefined) own.userdefine_record_id = config.userDefineRecordId;
  if (config.userDefinePushArgs !== undefined) own.userdefine_push_args = config.userDefinePushArgs;
  if (config.pureAudioPushMode !== undefined) own.pure_audio_push_mod = config.pureAudioPushMode;
  if (Object.keys(own).length > 0) {
    const existing = typeof info.Str_uc_params === 'object' && info.Str_uc_params !== null ? info.Str_uc_params as Record<string, unknown> : {};
    info.Str_uc_params = { ...existing, ...own };
  }
  return Object.keys(info).length > 0 || config.businessInfo !== undefined ? JSON.stringify(info) : undefined;
}

/** Checks enterRoom's options (docs/behaviour.md §5); throws INVALID_PARAMETER with SPEC's wording. */
export function validateEnterRoom(config: EnterRoomConfig | undefined): RoomTarget {
  if (!config || typeof config !== 'object') throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'the enterRoom config is required', FN);
  const { sdkAppId, userId, userSig, roomId, strRoomId, scene, role } = config;
  if (sdkAppId === undefined || sdkAppId === null) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'sdkAppId is required', FN);
  if (typeof sdkAppId !== 'number' || !Number.isFinite(sdkAppId)) throw invalidParameter(EXTRA_CODE.TYPE, 'sdkAppId must be a number', FN);
  if (sdkAppId === 0) throw invalidParameter(EXTRA_CODE.EMPTY, 'sdkAppId cannot be 0', FN);
  if (userId === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userId is required', FN);
  if (typeof userId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'userId must be a string', FN);
  if (userId.trim() === '') throw invalidParameter(EXTRA_CODE.EMPTY, 'userId cannot be empty or all spaces', FN);
  if (userSig === undefined) throw invalidParameter(EXTRA_CODE.PARAMETER_REQUIRED, 'userSig is required', FN);
  if (typeof userSig !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'userSig must be a string', FN);
  if (userSig.trim() === '') throw invalidParameter(EXTRA_CODE.EMPTY, 'userSig cannot be empty', FN);
  if (scene !== undefined && scene !== 'rtc' && scene !== 'live') throw invalidParameter(EXTRA_CODE.RANGE, "scene must be 'rtc' or 'live'", FN);
  if (role !== undefined && role !== 'anchor' && role !== 'audience') throw invalidParameter(EXTRA_CODE.RANGE, "role must be 'anchor' or 'audience'", FN);
  validateExtras(config);
  const target = validateRoomTarget(roomId, strRoomId, FN);
  // 5.18, after the room checks as in the original's rule.
  if (config.quickStart && config.quickStart.remoteUserId === userId) {
    throw invalidParameter(EXTRA_CODE.REMOTE_USER_ID_SAME_AS_LOCAL, `'quickStart.remoteUserId' cannot be the same as the local userId '${userId}'.`, FN);
  }
  return target;
}

/**
 * enterRoom's quickStart as the original keeps it: dropped for an anchor of an rtc room (a scene given other than
 * live, and a role other than audience). Conclave never subscribes early, so what is kept changes nothing else.
 */
export function quickStartOf(config: Pick<EnterRoomConfig, 'quickStart' | 'scene' | 'role'>): EnterRoomConfig['quickStart'] {
  if (!config.quickStart || (config.scene && config.scene !== 'live' && config.role !== 'audience')) return undefined;
  return config.quickStart;
}

/** roomId (preferred) or strRoomId, checked as enterRoom checks them (docs/behaviour.md §5). */
export function validateRoomTarget(roomId: unknown, strRoomId: unknown, fn: string): RoomTarget {
  if (strRoomId !== undefined && typeof strRoomId !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'strRoomId must be a string', fn);
  if (roomId !== undefined) {
    if (typeof roomId === 'string') {
      throw invalidParameter(EXTRA_CODE.ROOM_ID_INTEGER_STRING,
        'roomId must be a number; use parseInt(roomId) to convert it, or use strRoomId for a string room id', fn);
    }
    if (typeof roomId !== 'number' || !Number.isInteger(roomId) || roomId < LIMITS.MIN_ROOM_ID || roomId > LIMITS.MAX_ROOM_ID) {
      throw invalidParameter(EXTRA_CODE.ROOM_ID_INTEGER, 'roomId must be an integer between [1, 4294967294]', fn);
    }
    return { roomId: String(roomId), isString: false };
  }
  if (strRoomId !== undefined) {
    if (typeof strRoomId !== 'string' || !STR_ROOM_ID.test(strRoomId)) {
      throw invalidParameter(EXTRA_CODE.ROOM_ID_STRING,
        'strRoomId must be 1 to 64 characters of letters, digits, space and !#$%&()+-:;<=.>?@[]^_{}|~,', fn);
    }
    return { roomId: strRoomId, isString: true };
  }
  throw invalidParameter(EXTRA_CODE.ROOM_ID_REQUIED, 'roomId or strRoomId is required', fn);
}
