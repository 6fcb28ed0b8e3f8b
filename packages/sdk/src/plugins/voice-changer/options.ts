/** Options of startPlugin('VoiceChanger') (the original's shape). */
export interface VoiceChangerStartOptions {
  sdkAppId: number;
  userId: string;
  userSig: string;
  /** The voice (VoiceChanger.VOICE_TYPE, 0–12); 0 is the natural voice. */
  voiceType: number;
  /** An extra pitch shift, −1…1 (the pitch ratio × (1 + pitch / 2)). */
  pitch?: number;
}

/** Options of updatePlugin('VoiceChanger'). */
export interface VoiceChangerUpdateOptions {
  voiceType: number;
  pitch?: number;
}
