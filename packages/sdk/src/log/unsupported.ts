import { log } from './logger.js';

/**
 * Options of the original API that Conclave accepts but cannot honour in a browser (listed in the SDK
 * README): each logs one warning per page when an app sets it.
 */
export const UNSUPPORTED_OPTIONS = Object.freeze({
  'create.volumeType': 'TRTC.create({ volumeType }) selects a native (mobile webview) audio volume type; browsers have none: ignored',
  'create.userDefineRecordId': 'TRTC.create({ userDefineRecordId }) is ignored: pass userDefineRecordId to enterRoom()',
} as const);

const warned = new Set<string>();

/** Warns once that `option` is set but ignored. */
export function warnUnsupported(option: keyof typeof UNSUPPORTED_OPTIONS): void {
  if (warned.has(option)) return;
  warned.add(option);
  log.warn(UNSUPPORTED_OPTIONS[option]);
}
