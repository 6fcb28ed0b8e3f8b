/** Options of startPlugin('VoiceChanger') (the original's shape). */
export interface VoiceChangerStartOptions {
  sdkAppId: number;
  userId: string;
  userSig: string;
  /** The voice effect (VoiceChanger.VOICE_TYPE); 0 is the natural voice. */
  voiceType: number;
  /** An extra pitch shift. */
  pitch?: number;
}

/** Options of updatePlugin('VoiceChanger'). */
export interface VoiceChangerUpdateOptions {
  voiceType: number;
  pitch?: number;
}
