/** The option shapes of the Beauty plugin (the original's). */

/** Credentials the original checks against its licence service. */
export interface AuthParam {
  sdkAppId: number;
  userId: string;
  userSig: string;
}

/** An entry of the vendor's sticker / filter catalogue, by id. */
export interface Effect {
  id: string;
  intensity?: number;
  filterIntensity?: number;
}

/** Options of startPlugin('Beauty'): each level 0–1. */
export interface BeautyOptions {
  sdkAppId: number;
  userId: string;
  userSig: string;
  whiten?: number;
  dermabrasion?: number;
  lift?: number;
  shave?: number;
  eye?: number;
  chin?: number;
  effect?: Effect[];
  onError?: () => unknown;
}

/** Options of updatePlugin('Beauty'). */
export interface UpdateBeautyOptions {
  whiten?: number;
  dermabrasion?: number;
  lift?: number;
  shave?: number;
  eye?: number;
  chin?: number;
  effect?: Effect[];
}
