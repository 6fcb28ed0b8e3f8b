import { describe, expect, it } from 'vitest';
import {
  applyResolutionRules, AUDIO_PROFILES, DEFAULT_SMALL_PROFILE, degradationPreferenceOf, prefersHardwareEncode, SCREEN_PROFILES, VIDEO_PROFILES,
  type VideoProfile,
} from './profiles.js';
import { mirrorParts, resolveSmallProfile, resolveVideoProfile, validateLocalVideoConfig } from './local-video.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
const IOS_15_0 = 'Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X) AppleWebKit/605.1.15 Version/15.0 Mobile/15E148 Safari/604.1';

describe('profiles (docs/behaviour.md §3)', () => {
  it('has every camera profile with its _2 variant, the screen and audio profiles', () => {
    expect(VIDEO_PROFILES['360p']).toEqual({ width: 640, height: 360, frameRate: 15, bitrate: 800 });
    expect(VIDEO_PROFILES['720p']).toEqual({ width: 1280, height: 720, frameRate: 15, bitrate: 1500 });
    expect(VIDEO_PROFILES['1080p']).toEqual({ width: 1920, height: 1080, frameRate: 15, bitrate: 2000 });
    expect(VIDEO_PROFILES['4K']).toEqual({ width: 3840, height: 2160, frameRate: 30, bitrate: 9000 });
    for (const name of ['120p', '180p', '240p', '360p', '480p', '720p', '1080p', '1440p', '4K']) {
      const low = VIDEO_PROFILES[`${name}_2`];
      expect(low.width).toBe(VIDEO_PROFILES[name].width);
      expect(low.bitrate).toBeLessThan(VIDEO_PROFILES[name].bitrate);
    }
    expect(SCREEN_PROFILES['1080p'].frameRate).toBe(5);
    expect(SCREEN_PROFILES['1080p_2'].frameRate).toBe(30);
    expect(Object.fromEntries(Object.entries(AUDIO_PROFILES).map(([k, p]) => [k, [p.channelCount, p.bitrate]])))
      .toEqual({ standard: [1, 40], 'standard-stereo': [2, 64], high: [1, 128], 'high-stereo': [2, 192] });
    expect(DEFAULT_SMALL_PROFILE).toEqual({ width: 160, height: 120, frameRate: 15, bitrate: 100 });
  });

  it('resolves names and custom objects; refuses unknown names and bad numbers', () => {
    expect(resolveVideoProfile({ width: 800, height: 600, frameRate: 20, bitrate: 700 }, VIDEO_PROFILES, '480p', 'f')).toEqual({ width: 800, height: 600, frameRate: 20, bitrate: 700 });
    expect(resolveVideoProfile(undefined, VIDEO_PROFILES, '480p', 'f')).toEqual(VIDEO_PROFILES['480p']);
  });

  it('fills a profile object from the profile in use, as the original does (an unknown name keeps it)', () => {
    expect(resolveVideoProfile('999p' as '480p', VIDEO_PROFILES, '480p', 'f')).toEqual(VIDEO_PROFILES['480p']);
    expect(resolveVideoProfile({ width: 0, height: 1, frameRate: 1, bitrate: 1 }, VIDEO_PROFILES, '480p', 'f')).toEqual({ width: 640, height: 1, frameRate: 1, bitrate: 1 });
    expect(resolveVideoProfile({ frameRate: 30 } as VideoProfile, VIDEO_PROFILES, '480p', 'f', VIDEO_PROFILES['720p'])).toEqual({ ...VIDEO_PROFILES['720p'], frameRate: 30 });
    expect(() => resolveVideoProfile({ width: '640' } as unknown as VideoProfile, VIDEO_PROFILES, '480p', 'f')).toThrow(expect.objectContaining({ code: 5000, extraCode: 5002 }));
  });
});

describe('resolution rules (docs/behaviour.md §5)', () => {
  it('2k/4k only when scheduling enables it, else 1920x1080 with an upgrade warning', () => {
    const off = applyResolutionRules(VIDEO_PROFILES['4K'], { enable2k4k: false, userAgent: CHROME });
    expect(off.profile).toMatchObject({ width: 1920, height: 1080, frameRate: 30 });
    expect(off.warnings[0]).toMatch(/upgrade/);
    expect(applyResolutionRules(VIDEO_PROFILES['1440p'], { enable2k4k: false }).profile).toMatchObject({ width: 1920, height: 1080 });
    expect(applyResolutionRules(VIDEO_PROFILES['4K'], { enable2k4k: true, userAgent: CHROME })).toEqual({ profile: VIDEO_PROFILES['4K'], warnings: [] });
    // Portrait keeps its orientation.
    expect(applyResolutionRules({ width: 2160, height: 3840, frameRate: 30, bitrate: 9000 }, { enable2k4k: false }).profile).toMatchObject({ width: 1080, height: 1920 });
    expect(applyResolutionRules(VIDEO_PROFILES['1080p'], { enable2k4k: false, userAgent: CHROME })).toEqual({ profile: VIDEO_PROFILES['1080p'], warnings: [] });
  });

  it('tiny areas fall back to 240x180 (180x240 portrait) with at least 150 kbit/s where the browser needs it', () => {
    expect(applyResolutionRules(VIDEO_PROFILES['120p'], { enable2k4k: false, userAgent: SAFARI }).profile).toEqual({ width: 240, height: 180, frameRate: 15, bitrate: 200 });
    expect(applyResolutionRules(VIDEO_PROFILES['120p_2'], { enable2k4k: false, userAgent: SAFARI }).profile).toMatchObject({ width: 240, height: 180, bitrate: 150 });
    expect(applyResolutionRules({ width: 120, height: 160, frameRate: 15, bitrate: 100 }, { enable2k4k: false, userAgent: SAFARI }).profile).toMatchObject({ width: 180, height: 240 });
    expect(applyResolutionRules(VIDEO_PROFILES['120p'], { enable2k4k: false, userAgent: CHROME }).profile).toEqual(VIDEO_PROFILES['120p']);
  });

  it('the limited iOS range resets above 921,600 pixels to 1280x720', () => {
    expect(applyResolutionRules(VIDEO_PROFILES['1080p'], { enable2k4k: false, userAgent: IOS_15_0 }).profile).toMatchObject({ width: 1280, height: 720 });
    expect(applyResolutionRules(VIDEO_PROFILES['720p'], { enable2k4k: false, userAgent: IOS_15_0 }).profile).toMatchObject({ width: 1280, height: 720 });
  });

  it('prefers hardware encoding from 1280x720 up; qosPreference maps to degradationPreference', () => {
    expect(prefersHardwareEncode(VIDEO_PROFILES['720p'])).toBe(true);
    expect(prefersHardwareEncode(VIDEO_PROFILES['480p'])).toBe(false);
    expect(degradationPreferenceOf('smooth')).toBe('maintain-framerate');
    expect(degradationPreferenceOf('clear')).toBe('maintain-resolution');
    expect(degradationPreferenceOf(undefined)).toBe('balanced');
  });
});

describe('camera options', () => {
  it('small: true is SPEC\'s 120p default; a name or object is that profile; false is none', () => {
    expect(resolveSmallProfile(true, 'f')).toEqual(DEFAULT_SMALL_PROFILE);
    expect(resolveSmallProfile(false, 'f')).toBeUndefined();
    expect(resolveSmallProfile(undefined, 'f')).toBeUndefined();
    expect(resolveSmallProfile('180p', 'f')).toMatchObject({ width: 320, height: 180 });
    expect(resolveSmallProfile({ width: 256, height: 144, frameRate: 10, bitrate: 120 }, 'f')).toEqual({ width: 256, height: 144, frameRate: 10, bitrate: 120 });
    expect(() => resolveSmallProfile('nope' as '180p', 'f')).toThrow(expect.objectContaining({ code: 5000, extraCode: 5005 }));
  });

  it('mirror splits into the local view and what others receive', () => {
    expect(mirrorParts(true)).toEqual({ view: true, publish: false });
    expect(mirrorParts('view')).toEqual({ view: true, publish: false });
    expect(mirrorParts('publish')).toEqual({ view: false, publish: true });
    expect(mirrorParts('both')).toEqual({ view: true, publish: true });
    expect(mirrorParts(false)).toEqual({ view: false, publish: false });
  });

  it('validates option types', () => {
    expect(() => validateLocalVideoConfig({ option: { mirror: 'sideways' } }, 'f')).toThrow(expect.objectContaining({ extraCode: 5005 }));
    expect(() => validateLocalVideoConfig({ option: { qosPreference: 'fast' as 'clear' } }, 'f')).toThrow(expect.objectContaining({ extraCode: 5005 }));
    expect(() => validateLocalVideoConfig({ option: { useFrontCamera: 'yes' as unknown as boolean } }, 'f')).toThrow(expect.objectContaining({ extraCode: 5002 }));
    expect(() => validateLocalVideoConfig({ mute: 3 as unknown as boolean }, 'f')).toThrow(expect.objectContaining({ extraCode: 5002 }));
    expect(() => validateLocalVideoConfig({ mute: 'https://example.com/a.png', option: { profile: '720p_2', small: '120p', mirror: 'both' } }, 'f')).not.toThrow();
  });
});
