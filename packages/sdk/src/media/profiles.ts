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

/** Camera profiles (docs/behaviour.md §3), the single table. The _2 variants are the low-bitrate ones. */
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

/** Default camera profile: 480p (docs/behaviour.md §3 local video track profile 640x480/15/500 is the 480p_2 figure). */
export const DEFAULT_VIDEO_PROFILE = '480p';
export const DEFAULT_AUDIO_PROFILE = 'standard';

/** docs/behaviour.md §3: the default small stream, 160x120 at 15 fps and 100 kbit/s. */
export const DEFAULT_SMALL_PROFILE: VideoProfile = Object.freeze({ width: 160, height: 120, frameRate: 15, bitrate: 100 });

/** docs/behaviour.md §5: 2k/4k begins at this area (2560x1440). */
export const AREA_2K4K = 3_686_400;
/** docs/behaviour.md §5: at or below this area some browsers fall back to 240x180. */
export const AREA_TINY = 19_200;
/** docs/behaviour.md §5: above this area one iOS range resets to 1280x720. */
export const AREA_IOS_LIMIT = 921_600;
/** docs/behaviour.md §9: hardware encode is preferred from this area up. */
export const AREA_PREFER_HW = 921_600;

/** What the resolution rules need to know about the environment. */
export interface ResolutionEnv {
  /** The scheduling result's trtcAutoConf.enable2k4k. */
  enable2k4k: boolean;
  /** The user agent (for the browser-specific fallbacks). */
  userAgent?: string;
}

/** The profile after docs/behaviour.md §5's resolution rules, with the warnings to log. */
export interface ResolvedResolution {
  profile: VideoProfile;
  warnings: string[];
}

/** Browsers whose encoders mishandle tiny frames (docs/behaviour.md §5 'some browsers'): Safari and iOS WebKit. */
function isTinyAreaBrowser(ua: string): boolean {
  return /iPhone|iPad|iPod/.test(ua) || (/Safari\//.test(ua) && !/Chrome\/|Chromium\/|Edg\//.test(ua));
}

/** docs/behaviour.md §5 'one iOS version range': iOS 15.0–15.1 could not capture above 921,600 pixels. */
function isLimitedIos(ua: string): boolean {
  const match = /OS (\d+)_(\d+)/.exec(ua);
  return /iPhone|iPad|iPod/.test(ua) && !!match && Number(match[1]) === 15 && Number(match[2]) <= 1;
}

/**
 * Applies docs/behaviour.md §5's resolution rules to a camera profile: 2k/4k only when scheduling enables it
 * (else 1920x1080 with an upgrade warning); tiny areas fall back to 240x180 (180x240 portrait) with
 * at least 150 kbit/s on browsers that need it; the limited iOS range resets to 1280x720.
 */
export function applyResolutionRules(input: VideoProfile, env: ResolutionEnv): ResolvedResolution {
  const ua = env.userAgent ?? '';
  let profile = { ...input };
  const warnings: string[] = [];
  const area = profile.width * profile.height;
  const portrait = profile.height > profile.width;
  if (area >= AREA_2K4K && !env.enable2k4k) {
    warnings.push(`${profile.width}x${profile.height} needs 2k/4k to be enabled for this application (upgrade your package); using 1920x1080`);
    profile = { ...profile, width: portrait ? 1080 : 1920, height: portrait ? 1920 : 1080 };
  }
  if (area <= AREA_TINY && isTinyAreaBrowser(ua)) {
    warnings.push(`${profile.width}x${profile.height} is too small for this browser; using ${portrait ? '180x240' : '240x180'}`);
    profile = { ...profile, width: portrait ? 180 : 240, height: portrait ? 240 : 180, bitrate: Math.max(profile.bitrate, 150) };
  }
  if (profile.width * profile.height > AREA_IOS_LIMIT && isLimitedIos(ua)) {
    warnings.push(`${profile.width}x${profile.height} is not supported by this iOS version; using 1280x720`);
    profile = { ...profile, width: portrait ? 720 : 1280, height: portrait ? 1280 : 720 };
  }
  return { profile, warnings };
}

/** docs/behaviour.md §9: hardware encoding is preferred for 921,600 pixels (1280x720) or more. */
export function prefersHardwareEncode(profile: VideoProfile): boolean {
  return profile.width * profile.height >= AREA_PREFER_HW;
}

/** qosPreference → the sender's degradationPreference: smooth keeps the frame rate, clear the resolution. */
export function degradationPreferenceOf(qos: 'smooth' | 'clear' | undefined, fallback: RTCDegradationPreference = 'balanced'): RTCDegradationPreference {
  return qos === 'smooth' ? 'maintain-framerate' : qos === 'clear' ? 'maintain-resolution' : fallback;
}
