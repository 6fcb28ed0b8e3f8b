/**
 * The voice types the original lists (VoiceChanger voiceType 0–12) and what Conclave's DSP does for each.
 * Pitch ratios follow the original's pitch offsets through its delay-line shifter (ratio = 1 + offset / 2);
 * the effect voices are Conclave's own renderings of the names (formants move with the pitch, as in a
 * delay-line shifter).
 */
export interface VoiceParams {
  /** Pitch ratio (1 = unchanged). */
  ratio: number;
  /** Pitch wobble: rate (Hz) and depth (fraction of the ratio). */
  vibratoRate: number;
  vibratoDepth: number;
  /** Soft-clipping drive (0 = none). */
  drive: number;
  /** Ring modulation: carrier (Hz) and wet share 0–1. */
  ringHz: number;
  ringMix: number;
  /** Amplitude modulation: rate (Hz) and depth 0–1. */
  tremoloRate: number;
  tremoloDepth: number;
  /** Echo: delay (ms), feedback 0–1 and wet share 0–1. */
  echoMs: number;
  echoFeedback: number;
  echoMix: number;
  /** One-pole filters (Hz; 0 = off). */
  lowpassHz: number;
  highpassHz: number;
}

const NONE: VoiceParams = {
  ratio: 1, vibratoRate: 0, vibratoDepth: 0, drive: 0, ringHz: 0, ringMix: 0,
  tremoloRate: 0, tremoloDepth: 0, echoMs: 0, echoFeedback: 0, echoMix: 0, lowpassHz: 0, highpassHz: 0,
};

/** The original's voiceType numbers, by name (VoiceChanger.VOICE_TYPE). */
export const VOICE_TYPE = Object.freeze({
  ORIGINAL: 0,
  NAUGHTY_KID: 1,
  LITTLE_GIRL: 2,
  MIDDLE_AGED_MAN: 3,
  HEAVY_METAL: 4,
  COLD: 5,
  FOREIGN_ACCENT: 6,
  TRAPPED_BEAST: 7,
  OTAKU: 8,
  ELECTRIC_CURRENT: 9,
  HEAVY_MACHINERY: 10,
  ETHEREAL: 11,
  MINIONS: 12,
} as const);

/** DSP settings per voiceType. */
export const VOICES: Readonly<Record<number, VoiceParams>> = Object.freeze({
  0: NONE,
  1: { ...NONE, ratio: 1.15 },
  2: { ...NONE, ratio: 1.55 },
  3: { ...NONE, ratio: 0.7 },
  4: { ...NONE, drive: 4, echoMs: 12, echoFeedback: 0.6, echoMix: 0.5 },
  5: { ...NONE, ratio: 0.875, lowpassHz: 1500, highpassHz: 250 },
  6: { ...NONE, vibratoRate: 5, vibratoDepth: 0.03 },
  7: { ...NONE, ratio: 0.6, drive: 3, tremoloRate: 18, tremoloDepth: 0.4 },
  8: { ...NONE, ratio: 0.8 },
  9: { ...NONE, ringHz: 55, ringMix: 0.7, drive: 2 },
  10: { ...NONE, ratio: 0.95, ringHz: 30, ringMix: 1, echoMs: 8, echoFeedback: 0.5, echoMix: 0.4 },
  11: { ...NONE, ratio: 1.1, echoMs: 140, echoFeedback: 0.5, echoMix: 0.45, highpassHz: 300 },
  12: { ...NONE, ratio: 1.9, drive: 1.5, lowpassHz: 5000 },
});

/** The params of a voice type with the app's extra `pitch` (−1…1: ratio × (1 + pitch / 2), as the original's offset). */
export function voiceParams(voiceType: number, pitch: number | undefined): VoiceParams {
  const base = VOICES[voiceType] ?? NONE;
  return pitch === undefined || pitch === 0 ? base : { ...base, ratio: base.ratio * (1 + pitch / 2) };
}
