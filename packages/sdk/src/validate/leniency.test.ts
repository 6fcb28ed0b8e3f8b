// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { RtcError } from '../errors/rtc-error.js';
import type { EnterRoomConfig } from '../types.js';
import {
  validateCreateOptions, validateLogLevel, validateRemoteVideoConfig, validateStopRemoteVideo, validateSwitchRole, validateUserIdArg,
} from './client.js';
import { validateEnterRoom } from './enter-room.js';
import { lenientCreateOptions, lenientEnterRoom } from './lenient.js';
import { prepareLocalAudio, prepareLocalVideo, prepareScreenShare } from './local-media.js';
import { validateSEI, validateVolume, validateVolumeInterval } from './messages.js';

/**
 * Leniency per option, against what trtc-sdk-v5 5.10.1 does (its rule table `PT` and the methods
 * behind it, read in node_modules/trtc-sdk-v5/trtc.esm.js): its rule engine skips undefined, type-checks
 * everything else (null fails a typed field, '' passes a string one, 0 a number one), and ignores the
 * fields it has no rule for. 'ok' = accepted, 'bad' = INVALID_PARAMETER (5000).
 */
type Outcome = 'ok' | 'bad';
type Row = [option: string, call: (value: unknown) => unknown, outcomes: { undefined: Outcome; null: Outcome; empty: Outcome; zero: Outcome }];

const VALUES = { undefined, null: null, empty: '', zero: 0 } as const;

function outcome(call: () => unknown): Outcome {
  try {
    call();
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(RtcError);
    expect((error as RtcError).code).toBe(5000);
    return 'bad';
  }
}

const ok = 'ok';
const bad = 'bad';
const all = (o: Outcome) => ({ undefined: o, null: o, empty: o, zero: o });
/** A typed string field: undefined and '' pass, null and 0 fail the type. */
const str = { undefined: ok, null: bad, empty: ok, zero: bad } as const;
/** A typed number field (0 allowed). */
const num = { undefined: ok, null: bad, empty: bad, zero: ok } as const;
/** A typed boolean field, or an enum of strings: only undefined is absent. */
const typed = { undefined: ok, null: bad, empty: bad, zero: bad } as const;
/** A field the original has no rule for: falsy means not set. */
const unchecked = all(ok);

const enter = (patch: Record<string, unknown>) => () => {
  const config = lenientEnterRoom({ sdkAppId: 1400000001, userId: 'alice', userSig: 'sig', roomId: 8888, ...patch } as EnterRoomConfig);
  return validateEnterRoom(config);
};
const video = (fn: string, phase: 'start' | 'update', patch: Record<string, unknown>, option?: Record<string, unknown>) => () =>
  prepareLocalVideo({ ...patch, ...(option ? { option } : {}) }, fn, phase);
const audio = (fn: string, phase: 'start' | 'update', patch: Record<string, unknown>, option?: Record<string, unknown>) => () =>
  prepareLocalAudio({ ...patch, ...(option ? { option } : {}) }, fn, phase);
const screen = (fn: string, phase: 'start' | 'update', patch: Record<string, unknown>, option?: Record<string, unknown>) => () =>
  prepareScreenShare({ ...patch, ...(option ? { option } : {}) }, fn, phase);
const remote = (fn: string, patch: Record<string, unknown>, option?: Record<string, unknown>) => () =>
  validateRemoteVideoConfig({ userId: 'bob', streamType: 'main', ...patch, ...(option ? { option } : {}) } as never, fn);

const ROWS: Row[] = [
  ['create options.enableSEI (unchecked)', (v) => validateCreateOptions(lenientCreateOptions({ enableSEI: v as boolean })), unchecked],
  ['create options.assetsPath (unchecked)', (v) => validateCreateOptions(lenientCreateOptions({ assetsPath: v as string })), unchecked],
  ['create options.plugins (array)', (v) => validateCreateOptions(lenientCreateOptions({ plugins: v as [] })), typed],
  ['setLogLevel enableUploadLog (falsy: off)', (v) => validateLogLevel(2, v as boolean), unchecked],

  ['enterRoom sdkAppId (required number, not 0)', (v) => enter({ sdkAppId: v })(), all(bad)],
  ['enterRoom userId (required, not empty)', (v) => enter({ userId: v })(), all(bad)],
  ['enterRoom userSig (required, not empty)', (v) => enter({ userSig: v })(), all(bad)],
  ['enterRoom roomId with strRoomId (falsy: use strRoomId)', (v) => enter({ roomId: v, strRoomId: 'abc' })(), { undefined: ok, null: bad, empty: ok, zero: ok }],
  ['enterRoom strRoomId with roomId', (v) => enter({ strRoomId: v })(), str],
  ['enterRoom scene', (v) => enter({ scene: v })(), typed],
  ['enterRoom role', (v) => enter({ role: v })(), typed],
  ['enterRoom proxy (object or string; \'\' is none)', (v) => enter({ proxy: v })(), str],
  ['enterRoom proxy.websocketProxy', (v) => enter({ proxy: { websocketProxy: v } })(), str],
  ['enterRoom proxy.loggerProxy', (v) => enter({ proxy: { loggerProxy: v } })(), str],
  ['enterRoom proxy.webtransportProxy', (v) => enter({ proxy: { webtransportProxy: v } })(), str],
  ['enterRoom proxy.scheduleProxy (unchecked)', (v) => enter({ proxy: { scheduleProxy: v } })(), unchecked],
  ['enterRoom proxy.iceTransportPolicy (unchecked)', (v) => enter({ proxy: { iceTransportPolicy: v } })(), unchecked],
  ['enterRoom proxy.turnServer', (v) => enter({ proxy: { turnServer: v } })(), typed],
  ['enterRoom enableAutoPlayDialog', (v) => enter({ enableAutoPlayDialog: v })(), typed],
  ['enterRoom autoReceiveAudio (unchecked; falsy: off)', (v) => enter({ autoReceiveAudio: v })(), unchecked],
  ['enterRoom autoReceiveVideo (unchecked; falsy: off)', (v) => enter({ autoReceiveVideo: v })(), unchecked],
  ['enterRoom userDefineRecordId', (v) => enter({ userDefineRecordId: v })(), str],
  ['enterRoom latencyLevel', (v) => enter({ latencyLevel: v })(), num],
  ['enterRoom playoutDelay', (v) => enter({ playoutDelay: v })(), typed],
  ['enterRoom playoutDelay.min', (v) => enter({ playoutDelay: { min: v, max: 100 } })(), num],
  ['enterRoom privateMapKey (unchecked)', (v) => enter({ privateMapKey: v })(), unchecked],
  ['enterRoom businessInfo (unchecked)', (v) => enter({ businessInfo: v })(), unchecked],
  ['enterRoom jitterBufferDelay (unchecked)', (v) => enter({ jitterBufferDelay: v })(), unchecked],
  ['enterRoom preferHW (unchecked)', (v) => enter({ preferHW: v })(), unchecked],

  ['startLocalVideo config (object)', (v) => prepareLocalVideo(v as never, 'startLocalVideo', 'start'), typed],
  ['updateLocalVideo config (required object)', (v) => prepareLocalVideo(v as never, 'updateLocalVideo', 'update'), all(bad)],
  ['startLocalVideo view (id, element, null, array)', (v) => video('startLocalVideo', 'start', { view: v })(), { undefined: ok, null: ok, empty: bad, zero: bad }],
  ['startLocalVideo publish', (v) => video('startLocalVideo', 'start', { publish: v })(), typed],
  ['startLocalVideo mute (boolean or image URL; \'\' is off)', (v) => video('startLocalVideo', 'start', { mute: v })(), str],
  ['startLocalVideo option', (v) => video('startLocalVideo', 'start', { option: v })(), typed],
  ['startLocalVideo option.cameraId', (v) => video('startLocalVideo', 'start', {}, { cameraId: v })(), str],
  ['startLocalVideo option.useFrontCamera', (v) => video('startLocalVideo', 'start', {}, { useFrontCamera: v })(), typed],
  ['startLocalVideo option.fillMode', (v) => video('startLocalVideo', 'start', {}, { fillMode: v })(), typed],
  ['startLocalVideo option.mirror', (v) => video('startLocalVideo', 'start', {}, { mirror: v })(), typed],
  ['startLocalVideo option.small (\'\' is none)', (v) => video('startLocalVideo', 'start', {}, { small: v })(), str],
  ['startLocalVideo option.videoTrack', (v) => video('startLocalVideo', 'start', {}, { videoTrack: v })(), typed],
  ['startLocalVideo option.profile (unchecked: default)', (v) => video('startLocalVideo', 'start', {}, { profile: v })(), unchecked],
  ['startLocalVideo option.qosPreference (unchecked)', (v) => video('startLocalVideo', 'start', {}, { qosPreference: v })(), unchecked],
  ['startLocalVideo option.avoidCropping (unchecked)', (v) => video('startLocalVideo', 'start', {}, { avoidCropping: v })(), unchecked],
  ['updateLocalVideo option.profile (unchecked)', (v) => video('updateLocalVideo', 'update', {}, { profile: v })(), unchecked],

  ['startLocalAudio config (object)', (v) => prepareLocalAudio(v as never, 'startLocalAudio', 'start'), typed],
  ['updateLocalAudio config (required object)', (v) => prepareLocalAudio(v as never, 'updateLocalAudio', 'update'), all(bad)],
  ['startLocalAudio publish', (v) => audio('startLocalAudio', 'start', { publish: v })(), typed],
  ['startLocalAudio mute (unchecked on start)', (v) => audio('startLocalAudio', 'start', { mute: v })(), unchecked],
  ['updateLocalAudio mute', (v) => audio('updateLocalAudio', 'update', { mute: v })(), typed],
  ['startLocalAudio option.microphoneId', (v) => audio('startLocalAudio', 'start', {}, { microphoneId: v })(), str],
  ['startLocalAudio option.captureVolume', (v) => audio('startLocalAudio', 'start', {}, { captureVolume: v })(), num],
  ['startLocalAudio option.earMonitorVolume', (v) => audio('startLocalAudio', 'start', {}, { earMonitorVolume: v })(), num],
  ['startLocalAudio option.profile', (v) => audio('startLocalAudio', 'start', {}, { profile: v })(), typed],
  ['startLocalAudio option.echoCancellation', (v) => audio('startLocalAudio', 'start', {}, { echoCancellation: v })(), typed],
  ['startLocalAudio option.audioTrack', (v) => audio('startLocalAudio', 'start', {}, { audioTrack: v })(), typed],

  ['startScreenShare config (object)', (v) => prepareScreenShare(v as never, 'startScreenShare', 'start'), typed],
  ['updateScreenShare config (required object)', (v) => prepareScreenShare(v as never, 'updateScreenShare', 'update'), all(bad)],
  ['startScreenShare view', (v) => screen('startScreenShare', 'start', { view: v })(), { undefined: ok, null: ok, empty: bad, zero: bad }],
  ['startScreenShare publish', (v) => screen('startScreenShare', 'start', { publish: v })(), typed],
  ['startScreenShare option.systemAudio', (v) => screen('startScreenShare', 'start', {}, { systemAudio: v })(), typed],
  ['startScreenShare option.fillMode', (v) => screen('startScreenShare', 'start', {}, { fillMode: v })(), typed],
  ['startScreenShare option.profile (\'\' is the default)', (v) => screen('startScreenShare', 'start', {}, { profile: v })(), str],
  ['startScreenShare option.preferDisplaySurface (unchecked)', (v) => screen('startScreenShare', 'start', {}, { preferDisplaySurface: v })(), unchecked],
  ['startScreenShare option.qosPreference (unchecked)', (v) => screen('startScreenShare', 'start', {}, { qosPreference: v })(), unchecked],
  ['startScreenShare option.captureElement (unchecked)', (v) => screen('startScreenShare', 'start', {}, { captureElement: v })(), unchecked],

  ['startRemoteVideo view', (v) => remote('startRemoteVideo', { view: v })(), { undefined: ok, null: ok, empty: bad, zero: bad }],
  ['startRemoteVideo streamType (required)', (v) => remote('startRemoteVideo', { streamType: v })(), all(bad)],
  ['startRemoteVideo option', (v) => remote('startRemoteVideo', { option: v })(), typed],
  ['startRemoteVideo option.fillMode', (v) => remote('startRemoteVideo', {}, { fillMode: v })(), typed],
  ['startRemoteVideo option.mirror', (v) => remote('startRemoteVideo', {}, { mirror: v })(), typed],
  ['startRemoteVideo option.small (unchecked)', (v) => remote('startRemoteVideo', {}, { small: v })(), unchecked],
  ['startRemoteVideo option.receiveWhenViewVisible (unchecked)', (v) => remote('startRemoteVideo', {}, { receiveWhenViewVisible: v })(), unchecked],
  ['startRemoteVideo option.viewRoot (unchecked)', (v) => remote('startRemoteVideo', {}, { viewRoot: v })(), unchecked],
  ['startRemoteVideo option.poster (unchecked)', (v) => remote('startRemoteVideo', {}, { poster: v })(), unchecked],
  ['startRemoteVideo option.canvasRender (unchecked)', (v) => remote('startRemoteVideo', {}, { canvasRender: v })(), unchecked],
  ['updateRemoteVideo option.small (unchecked)', (v) => remote('updateRemoteVideo', {}, { small: v })(), unchecked],
  ['stopRemoteVideo userId (\'\' names nobody)', (v) => validateStopRemoteVideo({ userId: v as string, streamType: 'main' }), { undefined: bad, null: bad, empty: ok, zero: bad }],
  ['stopRemoteVideo streamType with a userId', (v) => validateStopRemoteVideo({ userId: 'bob', streamType: v as 'main' }), all(bad)],
  ['stopRemoteVideo streamType with *', (v) => validateStopRemoteVideo({ userId: '*', streamType: v as 'main' }), typed],
  ['muteRemoteAudio / setRemoteAudioVolume userId', (v) => validateUserIdArg(v, 'muteRemoteAudio'), { undefined: bad, null: bad, empty: ok, zero: bad }],
  ['setRemoteAudioVolume volume (min 0)', (v) => validateVolume(v, 'setRemoteAudioVolume'), { undefined: bad, null: bad, empty: bad, zero: ok }],
  ['enableAudioVolumeEvaluation interval (0: off)', (v) => validateVolumeInterval(v), num],
  ['switchRole option (unchecked)', (v) => validateSwitchRole('anchor', v as never), unchecked],
  ['switchRole option.privateMapKey (unchecked)', (v) => validateSwitchRole('anchor', { privateMapKey: v as string }), unchecked],
  ['switchRole option.latencyLevel (unchecked)', (v) => validateSwitchRole('anchor', { latencyLevel: v as number }), unchecked],
  ['sendSEIMessage options', (v) => validateSEI(new ArrayBuffer(4), v as never), typed],
  ['sendSEIMessage options.seiPayloadType', (v) => validateSEI(new ArrayBuffer(4), { seiPayloadType: v }), typed],
  ['sendSEIMessage options.toSubStream', (v) => validateSEI(new ArrayBuffer(4), { toSubStream: v }), typed],
];

describe('lenient where the original is lenient: undefined, null, \'\' and 0 per option', () => {
  it.each(ROWS)('%s', (_option, call, expected) => {
    const got = Object.fromEntries(Object.entries(VALUES).map(([name, value]) => [name, outcome(() => call(value))]));
    expect(got).toEqual(expected);
  });
});

describe('what the lenient values mean', () => {
  it('enterRoom: roomId 0 or \'\' uses strRoomId; null/0 autoReceive* are off; \'\' proxy and userDefineRecordId are none', () => {
    const config = lenientEnterRoom({ sdkAppId: 1, userId: 'a', userSig: 's', roomId: 0, strRoomId: 'abc', autoReceiveAudio: null, autoReceiveVideo: 0, proxy: '', userDefineRecordId: '' } as unknown as EnterRoomConfig)!;
    expect(validateEnterRoom(config)).toEqual({ roomId: 'abc', isString: true });
    expect(config).toMatchObject({ autoReceiveAudio: false, autoReceiveVideo: false });
    expect(config).not.toHaveProperty('proxy');
    expect(config).not.toHaveProperty('userDefineRecordId');
  });

  it('local media: unset fields are dropped so the defaults apply; the app\'s object is not changed', () => {
    const given = { mute: '', option: { profile: null, cameraId: '', small: '', qosPreference: 0 } };
    expect(prepareLocalVideo(given as never, 'startLocalVideo', 'start')).toEqual({ mute: false, option: {} });
    expect(given.option.profile).toBeNull();
    expect(prepareLocalAudio({ option: { microphoneId: '' } }, 'startLocalAudio', 'start')).toEqual({ option: {} });
  });

  it('create: a falsy enableSEI is off', () => {
    expect(lenientCreateOptions({ enableSEI: null as unknown as boolean })).toEqual({ enableSEI: false });
  });
});
