/** The option shapes of the Beauty plugin (the original's), and their checks. */
import { EXTRA_CODE } from '../../../constants/error-code.js';
import { envNotSupported, invalidParameter } from '../../../errors/catalogue.js';
import { numberIn, requireObject } from '../pipeline/host.js';

/** Credentials the original checks against its licence service (accepted, not needed here). */
export interface AuthParam {
  sdkAppId: number;
  userId: string;
  userSig: string;
}

/** An entry of the vendor's sticker / filter catalogue, by id (refused here: see `effect`). */
export interface Effect {
  id: string;
  intensity?: number;
  filterIntensity?: number;
}

/** Options of startPlugin('Beauty'): each level 0–1 (default 0). */
export interface BeautyOptions {
  /** Accepted for compatibility with the original (which checks a licence with them); not needed here. */
  sdkAppId: number;
  userId: string;
  userSig: string;
  /** Brightening. */
  whiten?: number;
  /** Skin smoothing. */
  dermabrasion?: number;
  /** Face slimming: the cheeks pulled in. */
  lift?: number;
  /** V-shape: the jaw pulled in and up. */
  shave?: number;
  /** Larger eyes. */
  eye?: number;
  /** A longer chin. */
  chin?: number;
  /** The vendor's sticker catalogue: refused (ENV_NOT_SUPPORTED) when not empty. */
  effect?: Effect[];
  /** Called when the effect fails while running (the face model cannot load). */
  onError?: () => unknown;
}

/** Options of updatePlugin('Beauty'): the levels given change, the others stay. */
export interface UpdateBeautyOptions {
  whiten?: number;
  dermabrasion?: number;
  lift?: number;
  shave?: number;
  eye?: number;
  chin?: number;
  effect?: Effect[];
}

/** The levels in force. */
export interface BeautyLevels {
  whiten: number;
  dermabrasion: number;
  lift: number;
  shave: number;
  eye: number;
  chin: number;
}

const LEVELS = ['whiten', 'dermabrasion', 'lift', 'shave', 'eye', 'chin'] as const;

/** True when a face-shape level is above 0 (the face mesh is needed). */
export const needsLandmarks = (levels: BeautyLevels): boolean => levels.lift > 0 || levels.shave > 0 || levels.eye > 0 || levels.chin > 0;

/**
 * Checks start / update options (levels numbers 0–1; credentials of the right types when given; onError a
 * function) and merges the levels over `base` (missing ones 0 at start). INVALID_PARAMETER on bad input;
 * a non-empty `effect` is refused with ENV_NOT_SUPPORTED: its ids name stickers of the vendor's catalogue,
 * served by the vendor's cloud, which a self-hosted Conclave server does not have.
 */
export function resolveBeautyOptions(value: unknown, base: BeautyLevels | undefined, functionName: string): BeautyLevels {
  const options = requireObject(value, base ? 'UpdateBeautyOptions' : 'BeautyOptions', functionName);
  if (options.sdkAppId !== undefined && typeof options.sdkAppId !== 'number') throw invalidParameter(EXTRA_CODE.TYPE, 'sdkAppId must be a number', functionName);
  for (const key of ['userId', 'userSig'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, `${key} must be a string`, functionName);
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') throw invalidParameter(EXTRA_CODE.TYPE, 'onError must be a function', functionName);
  const effect = options.effect;
  if (effect !== undefined) {
    if (!Array.isArray(effect)) throw invalidParameter(EXTRA_CODE.TYPE, 'effect must be an array', functionName);
    for (const item of effect as unknown[]) {
      const entry = requireObject(item, 'effect[]', functionName);
      if (typeof entry.id !== 'string') throw invalidParameter(EXTRA_CODE.TYPE, 'effect[].id must be a string', functionName);
      numberIn(entry, 'intensity', 0, 1, functionName);
      numberIn(entry, 'filterIntensity', 0, 1, functionName);
    }
    if (effect.length > 0) {
      const ids = (effect as Effect[]).map((entry) => entry.id).join(', ');
      throw envNotSupported(EXTRA_CODE.PLUGIN, `Beauty effect ids (${ids}) name stickers of the vendor's catalogue, served by the vendor's paid cloud, which a self-hosted Conclave server does not have; the levels (whiten, dermabrasion, lift, shave, eye, chin) work`, functionName);
    }
  }
  const levels = {} as BeautyLevels;
  for (const key of LEVELS) levels[key] = numberIn(options, key, 0, 1, functionName) ?? base?.[key] ?? 0;
  return levels;
}
