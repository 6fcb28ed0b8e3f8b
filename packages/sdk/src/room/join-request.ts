import { PROTOCOL_VERSION, ROLE_CODE, SCENE_CODE, SERVER_CODE, TERMINAL_TYPE } from '@conclave/protocol';
import { ERROR_CODE } from '../constants/error-code.js';
import { MESSAGE, serverError } from '../errors/catalogue.js';
import { RtcError } from '../errors/rtc-error.js';
import { ScheduleRefused } from '../schedule/schedule.js';
import { SignalChannelError, SignalReplyError } from '../signal/signal-channel.js';
import type { EnterRoomConfig } from '../types.js';
import { buildBusinessInfo, type RoomTarget } from '../validate/enter-room.js';

/** A join failure not worth retrying: the server refused (auth, parameters, room full…). */
export const isRefusal = (error: unknown) => error instanceof ScheduleRefused || error instanceof SignalReplyError || error instanceof RtcError;

/** enterRoom's error for a failed join (docs/behaviour.md §4.1, §8): a refusal keeps the server's code. */
export function joinError(error: unknown): RtcError {
  if (error instanceof RtcError) return error;
  if (error instanceof SignalReplyError && error.code === SERVER_CODE.PROTOCOL_UNSUPPORTED) {
    return serverError(error.code, `this SDK speaks protocol version ${PROTOCOL_VERSION}, which the server does not support (${error.message}); use the SDK the server serves`, 'enterRoom');
  }
  if (error instanceof ScheduleRefused || error instanceof SignalReplyError) {
    return serverError(error.code, error.message, 'enterRoom');
  }
  if (error instanceof SignalChannelError && error.reason === 'timeout') {
    return new RtcError({ code: ERROR_CODE.OPERATION_FAILED, message: MESSAGE.JOIN_TIMEOUT, functionName: 'enterRoom', originError: error });
  }
  return new RtcError({ code: ERROR_CODE.SERVER_ERROR, message: `join room failed: ${(error as Error)?.message ?? String(error)}`, functionName: 'enterRoom', originError: error });
}

/** How this user joins: its role and scene, the SDK version it announces, the session it resumes. */
export interface JoinAs {
  role: 'anchor' | 'audience';
  scene: 'rtc' | 'live';
  version: string;
  resumeToken?: string;
}

/** The fields of the join command (docs/behaviour.md §7.2). */
export function joinRequest(config: EnterRoomConfig, target: RoomTarget, { role, scene, version, resumeToken }: JoinAs) {
  return {
    sdkAppId: config.sdkAppId,
    userId: config.userId,
    userSig: config.userSig,
    roomId: target.roomId,
    useStringRoomId: target.isString,
    privateMapKey: config.privateMapKey,
    latencyLevel: config.latencyLevel,
    trtcRole: role === 'audience' ? ROLE_CODE.audience : ROLE_CODE.anchor,
    trtcScene: scene === 'live' ? SCENE_CODE.live : SCENE_CODE.rtc,
    businessInfo: buildBusinessInfo(config),
    version,
    protocolVersion: PROTOCOL_VERSION,
    ua: typeof navigator !== 'undefined' ? navigator.userAgent.slice(0, 512) : '',
    terminalType: TERMINAL_TYPE,
    ...(resumeToken ? { resumeToken } : {}),
    ...(config.userDefineRecordId ? { userDefineRecordId: config.userDefineRecordId } : {}),
  };
}
