import { ERROR_CODE, EXTRA_CODE } from '../../constants/error-code.js';
import type { PluginErrorFactory } from '../../plugin-api/index.js';

/** Options of startPlugin / updatePlugin('SmallStreamAutoSwitcher') (the original's shape). */
export interface SmallStreamAutoSwitcherOptions {
  /** Downlink RTT (ms) above which the network is poor (default 200). */
  rttPoorLimit?: number;
  /** Downlink loss (percent) above which the network is poor (default 20). */
  lossPoorLimit?: number;
  /** How long (ms) RTT or loss must stay over its poor limit before big videos switch to small (default 10000). */
  poorDuration?: number;
  /** Downlink RTT (ms) below which the network is good (default 100). */
  rttGoodLimit?: number;
  /** Downlink loss (percent) below which the network is good (default 10). */
  lossGoodLimit?: number;
  /** How long (ms) both must stay under their good limits before switched videos go back to big (default 20000). */
  goodDuration?: number;
  /** After a switch of a remote video, how long (ms) that video is not switched again (default 30000). */
  sleepTime?: number;
  /** At most this many automatic switches to small per remote user (default 2). */
  maxAutoSwitchToSmallCount?: number;
}

/** Every option, resolved. */
export type SwitcherSettings = Required<SmallStreamAutoSwitcherOptions>;

/** The original's defaults. */
export const DEFAULT_SETTINGS: SwitcherSettings = Object.freeze({
  rttPoorLimit: 200,
  lossPoorLimit: 20,
  poorDuration: 10_000,
  rttGoodLimit: 100,
  lossGoodLimit: 10,
  goodDuration: 20_000,
  sleepTime: 30_000,
  maxAutoSwitchToSmallCount: 2,
});

/**
 * Checks the options (an object of non-negative finite numbers, or nothing) and lays them over `base`;
 * INVALID_PARAMETER otherwise.
 */
export function resolveSettings(value: unknown, base: SwitcherSettings, functionName: string, errors: PluginErrorFactory): SwitcherSettings {
  if (value === undefined || value === null) return { ...base };
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.TYPE, message: 'SmallStreamAutoSwitcherOptions must be an object', functionName });
  }
  const next = { ...base };
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SwitcherSettings)[]) {
    const given = (value as Record<string, unknown>)[key];
    if (given === undefined) continue;
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 0) {
      throw errors({ code: ERROR_CODE.INVALID_PARAMETER, extraCode: EXTRA_CODE.RANGE, message: `${key} must be a number ≥ 0`, functionName });
    }
    next[key] = given;
  }
  return next;
}
