/** String constants of the API (TRTC.TYPE), with the original's values. */
export const TYPE = Object.freeze({
  SCENE_LIVE: 'live',
  SCENE_RTC: 'rtc',
  ROLE_ANCHOR: 'anchor',
  ROLE_AUDIENCE: 'audience',
  STREAM_TYPE_MAIN: 'main',
  STREAM_TYPE_SUB: 'sub',
  AUDIO_PROFILE_STANDARD: 'standard',
  AUDIO_PROFILE_STANDARD_STEREO: 'standard-stereo',
  AUDIO_PROFILE_HIGH: 'high',
  AUDIO_PROFILE_HIGH_STEREO: 'high-stereo',
  QOS_PREFERENCE_SMOOTH: 'smooth',
  QOS_PREFERENCE_CLEAR: 'clear',
  SPEAKER: 'Speakerphone',
  HEADSET: 'Headset earpiece',
} as const);
