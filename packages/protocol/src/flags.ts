/**
 * Publish-state flag bits of a remote user (docs/behaviour.md §3 "Flag bits").
 * A user's `flag` is the OR of the bits of what it publishes and what it has muted.
 */
export const FLAG = Object.freeze({
  VIDEO: 1,
  SMALL: 2,
  AUX: 4,
  AUDIO: 8,
  VIDEO_MUTE: 16,
  AUX_MUTE: 32,
  AUDIO_MUTE: 64,
} as const);

/** Role codes on the wire (docs/behaviour.md §3). */
export const ROLE_CODE = Object.freeze({ anchor: 20, audience: 21 } as const);

/** Scene codes on the wire: trtcScene 1 (rtc) or 2 (live). */
export const SCENE_CODE = Object.freeze({ rtc: 1, live: 2 } as const);

/** Stream type codes (docs/behaviour.md §3): main 2, small 3, auxiliary 7. */
export const STREAM_TYPE_CODE = Object.freeze({ main: 2, small: 3, aux: 7 } as const);

/** Terminal type sent on join (docs/behaviour.md §9). */
export const TERMINAL_TYPE = 15;

/** Which media a user publishes, derived from its flag. */
export interface PublishState {
  hasAudio: boolean;
  hasVideo: boolean;
  hasSmall: boolean;
  hasAuxiliary: boolean;
  audioMuted: boolean;
  videoMuted: boolean;
  auxMuted: boolean;
}

/** Decodes a flag bitmask into named booleans. */
export function decodeFlag(flag: number): PublishState {
  return {
    hasAudio: (flag & FLAG.AUDIO) !== 0,
    hasVideo: (flag & FLAG.VIDEO) !== 0,
    hasSmall: (flag & FLAG.SMALL) !== 0,
    hasAuxiliary: (flag & FLAG.AUX) !== 0,
    audioMuted: (flag & FLAG.AUDIO_MUTE) !== 0,
    videoMuted: (flag & FLAG.VIDEO_MUTE) !== 0,
    auxMuted: (flag & FLAG.AUX_MUTE) !== 0,
  };
}

/** Encodes named publish booleans into a flag bitmask. */
export function encodeFlag(state: Partial<PublishState>): number {
  let flag = 0;
  if (state.hasAudio) flag |= FLAG.AUDIO;
  if (state.hasVideo) flag |= FLAG.VIDEO;
  if (state.hasSmall) flag |= FLAG.SMALL;
  if (state.hasAuxiliary) flag |= FLAG.AUX;
  if (state.audioMuted) flag |= FLAG.AUDIO_MUTE;
  if (state.videoMuted) flag |= FLAG.VIDEO_MUTE;
  if (state.auxMuted) flag |= FLAG.AUX_MUTE;
  return flag;
}
