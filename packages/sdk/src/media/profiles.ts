/** A video encoding profile: size, frame rate, bitrate in kbit/s. */
export interface VideoProfile {
  width: number;
  height: number;
  frameRate: number;
  bitrate: number;
}

/** An audio profile: sample rate, channels, bitrate in kbit/s. */
export interface AudioProfile {
  sampleRate: number;
  channelCount: number;
  bitrate: number;
}

/** Camera profiles (SPEC §3), the single table. The _2 variants are the low-bitrate ones. */
export const VIDEO_PROFILES: Readonly<Record<string, VideoProfile>> = Object.freeze({
  '120p': { width: 160, height: 120, frameRate: 15, bitrate: 200 },
  '120p_2': { width: 160, height: 120, frameRate: 15, bitrate: 100 },
  '180p': { width: 320, height: 180, frameRate: 15, bitrate: 350 },
  '180p_2': { width: 320, height: 180, frameRate: 15, bitrate: 150 },
  '240p': { width: 320, height: 240, frameRate: 15, bitrate: 400 },
  '240p_2': { width: 320, height: 240, frameRate: 15, bitrate: 200 },
  '360p': { width: 640, height: 360, frameRate: 15, bitrate: 800 },
  '360p_2': { width: 640, height: 360, frameRate: 15, bitrate: 400 },
  '480p': { width: 640, height: 480, frameRate: 15, bitrate: 900 },
  '480p_2': { width: 640, height: 480, frameRate: 15, bitrate: 500 },
  '720p': { width: 1280, height: 720, frameRate: 15, bitrate: 1500 },
  '720p_2': { width: 1280, height: 720, frameRate: 15, bitrate: 1000 },
  '1080p': { width: 1920, height: 1080, frameRate: 15, bitrate: 2000 },
  '1080p_2': { width: 1920, height: 1080, frameRate: 15, bitrate: 1200 },
  '1440p': { width: 2560, height: 1440, frameRate: 30, bitrate: 4860 },
  '1440p_2': { width: 2560, height: 1440, frameRate: 30, bitrate: 2500 },
  '4K': { width: 3840, height: 2160, frameRate: 30, bitrate: 9000 },
  '4K_2': { width: 3840, height: 2160, frameRate: 30, bitrate: 5000 },
});

/** Screen-share profiles: 5 fps, or 30 fps for the _2 variants. */
export const SCREEN_PROFILES: Readonly<Record<string, VideoProfile>> = Object.freeze({
  '480p': { width: 640, height: 480, frameRate: 5, bitrate: 900 },
  '480p_2': { width: 640, height: 480, frameRate: 30, bitrate: 1000 },
  '720p': { width: 1280, height: 720, frameRate: 5, bitrate: 1200 },
  '720p_2': { width: 1280, height: 720, frameRate: 30, bitrate: 3000 },
  '1080p': { width: 1920, height: 1080, frameRate: 5, bitrate: 1600 },
  '1080p_2': { width: 1920, height: 1080, frameRate: 30, bitrate: 4000 },
});

/** Microphone profiles. */
export const AUDIO_PROFILES: Readonly<Record<string, AudioProfile>> = Object.freeze({
  standard: { sampleRate: 48000, channelCount: 1, bitrate: 40 },
  'standard-stereo': { sampleRate: 48000, channelCount: 2, bitrate: 64 },
  high: { sampleRate: 48000, channelCount: 1, bitrate: 128 },
  'high-stereo': { sampleRate: 48000, channelCount: 2, bitrate: 192 },
});

/** Default camera profile: 480p (SPEC §3 local video track profile 640x480/15/500 is the 480p_2 figure). */
export const DEFAULT_VIDEO_PROFILE = '480p';
export const DEFAULT_AUDIO_PROFILE = 'standard';
