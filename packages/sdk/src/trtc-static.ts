import { EXTRA_CODE, ERROR_CODE } from './constants/error-code.js';
import { EVENT } from './constants/event.js';
import { TYPE } from './constants/type.js';
import { apiCall } from './errors/api-call.js';
import { envNotSupported } from './errors/catalogue.js';
import { setLevel, type LogLevel } from './log/logger.js';
import { loggerManager } from './log/logger-manager.js';
import { getPermissions } from './media/permissions.js';
import { listDevices, listInputs, type DeviceListOption } from './media/devices.js';
import { checkSupport } from './media/support.js';
import { setDefaultSpeaker } from './playback/audio-player.js';
import type { PermissionOption, PermissionResult, SupportResult } from './types.js';
import { validateLogLevel, validateRequiredString } from './validate/client.js';

/** The static part of the TRTC API: constants, logging, support check, devices, speaker. */
export class TRTCStatic {
  /** Event names (frozen). */
  static readonly EVENT = EVENT;
  /** Constant strings (frozen). */
  static readonly TYPE = TYPE;
  /** Error codes (frozen). */
  static readonly ERROR_CODE = ERROR_CODE;
  /** Framework type reported to the server. */
  static frameWorkType = 30;
  /**
   * The log manager libraries built on the original reach for (undocumented there): `createLogger({ id, … })`
   * returns a logger with info / warn / error / debug / log / update whose lines join the SDK's log.
   */
  // Quoted: the bundles mangle `_name` properties, quoted names stay (esbuild's mangleQuoted is off).
  // eslint-disable-next-line @typescript-eslint/naming-convention -- the original's name, read by libraries
  static readonly '_loggerManager' = loggerManager;

  /**
   * Sets the console log level: TRACE 0, DEBUG 1, INFO 2 (default), WARN 3, ERROR 4, NONE 5.
   * @param enableUploadLog whether logs are uploaded to the server (default true).
   * @throws RtcError INVALID_PARAMETER for a level outside 0..5.
   */
  static setLogLevel(level: LogLevel, enableUploadLog: boolean = true): void {
    validateLogLevel(level, enableUploadLog);
    setLevel(level, enableUploadLog === true);
  }

  /** Tells whether this browser can use Conclave, with a flag per capability. Never rejects. */
  static isSupported(): Promise<SupportResult> {
    return checkSupport();
  }

  /**
   * The camera and microphone permission states ('granted' | 'denied' | 'prompt', null where the browser cannot
   * tell). With `request` (default true) asks for the `types` given first (default both). From then on each
   * client emits `permission-state-change` when one of them changes. Never rejects.
   */
  static getPermissions(option: PermissionOption = {}): Promise<PermissionResult> {
    return getPermissions(option);
  }

  /**
   * Lists cameras. `true` / `{ requestPermission: true }` (the default) asks for camera access first when labels are
   * hidden; `{ filterVirtualDevice: true }` (5.18) leaves out virtual cameras but capture programs' (OBS), unless
   * every camera is virtual. @throws RtcError DEVICE_ERROR when access is refused.
   */
  static getCameraList(option: DeviceListOption = true): Promise<MediaDeviceInfo[]> {
    return apiCall('getCameraList', () => listInputs('videoinput', option, 'getCameraList'));
  }

  /** Lists microphones (see getCameraList; a filtered list keeps every microphone when all are virtual). @throws RtcError DEVICE_ERROR when access is refused. */
  static getMicrophoneList(option: DeviceListOption = true): Promise<MediaDeviceInfo[]> {
    return apiCall('getMicrophoneList', () => listInputs('audioinput', option, 'getMicrophoneList'));
  }

  /** Lists speakers (audio outputs). @throws RtcError DEVICE_ERROR when access is refused. */
  static getSpeakerList(requestPermission = true): Promise<MediaDeviceInfo[]> {
    return apiCall('getSpeakerList', () => listDevices('audiooutput', requestPermission, 'getSpeakerList'));
  }

  /**
   * Plays remote audio of every client on this speaker (setSinkId where the browser has it).
   * @throws RtcError INVALID_PARAMETER for a missing id; ENV_NOT_SUPPORTED when the browser cannot choose outputs.
   */
  static setCurrentSpeaker(speakerId: string): Promise<void> {
    return apiCall('setCurrentSpeaker', async () => {
      validateRequiredString(speakerId, 'speakerId', 'setCurrentSpeaker');
      if (typeof HTMLMediaElement === 'undefined' || !('setSinkId' in HTMLMediaElement.prototype)) {
        throw envNotSupported(EXTRA_CODE.WEBRTC, 'this browser cannot choose the audio output device', 'setCurrentSpeaker');
      }
      await setDefaultSpeaker(speakerId);
    });
  }
}
