import { afterEach, describe, expect, it, vi } from 'vitest';
import { _captureWithRetries, cameraConstraints, captureAttempts, captureError, microphoneConstraints } from './capture.js';
import { screenAudioConstraints, displayMediaOptions, validateScreenShareConfig } from './screen-share.js';
import { AUDIO_PROFILES, VIDEO_PROFILES } from './profiles.js';

const failure = (name: string, constraint?: string) => Object.assign(new Error(`${name} happened`), { name, constraint });
const fakeTrack = { kind: 'video', id: 't' } as unknown as MediaStreamTrack;
const stream = { getVideoTracks: () => [fakeTrack], getAudioTracks: () => [fakeTrack] } as unknown as MediaStream;

function stubDevices(devices: { kind: string; deviceId: string }[]) {
  vi.stubGlobal('navigator', { userAgent: 'node', mediaDevices: { getUserMedia: () => undefined, enumerateDevices: async () => devices } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('capture retries (docs/behaviour.md §8)', () => {
  it('retries with a lower frame rate and no exact demands, then device id only, then plain true', () => {
    const base = cameraConstraints(VIDEO_PROFILES['720p'], 'cam-1');
    expect(base).toEqual({ width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 15 }, deviceId: { exact: 'cam-1' } });
    const attempts = captureAttempts(base, 'cam-1');
    expect(attempts).toHaveLength(4);
    expect(attempts[1]).toEqual({ width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 10 }, deviceId: { ideal: 'cam-1' } });
    expect(attempts[2]).toEqual({ deviceId: 'cam-1' });
    expect(attempts[3]).toBe(true);
    expect(captureAttempts({ frameRate: { ideal: 10 }, width: { max: 640 } }, undefined)).toEqual([
      { frameRate: { ideal: 10 }, width: { max: 640 } }, { frameRate: { ideal: 5 }, width: { ideal: 640 } }, true, true,
    ]);
  });

  it('a not-readable camera is captured on a later attempt with looser constraints', async () => {
    stubDevices([{ kind: 'videoinput', deviceId: 'cam-1' }]);
    const gum = vi.fn().mockRejectedValueOnce(failure('NotReadableError')).mockRejectedValueOnce(failure('NotReadableError')).mockResolvedValue(stream);
    const track = await _captureWithRetries('camera', cameraConstraints(VIDEO_PROFILES['480p'], 'cam-1'), 'cam-1', 'startLocalVideo', gum);
    expect(track).toBe(fakeTrack);
    expect(gum).toHaveBeenCalledTimes(3);
    expect(gum.mock.calls[2][0]).toEqual({ video: { deviceId: 'cam-1' }, audio: false });
  });

  it('gives up after 3 retries with DEVICE_ERROR and the browser error name as extra code', async () => {
    stubDevices([{ kind: 'audioinput', deviceId: 'mic' }]);
    const gum = vi.fn().mockRejectedValue(failure('NotReadableError'));
    await expect(_captureWithRetries('microphone', microphoneConstraints(AUDIO_PROFILES.standard, {}), undefined, 'startLocalAudio', gum))
      .rejects.toMatchObject({ code: 5300, extraCode: 5303, functionName: 'startLocalAudio' });
    expect(gum).toHaveBeenCalledTimes(4);
  });

  it('does not retry a refusal (5302)', async () => {
    stubDevices([{ kind: 'videoinput', deviceId: '' }]);
    const gum = vi.fn().mockRejectedValue(failure('NotAllowedError'));
    await expect(_captureWithRetries('camera', {}, undefined, 'startLocalVideo', gum)).rejects.toMatchObject({ code: 5300, extraCode: 5302 });
    expect(gum).toHaveBeenCalledTimes(1);
  });

  it("an unknown device id, or no device at all, is 5301 'no camera detected' / 'no microphone detected'", async () => {
    stubDevices([{ kind: 'videoinput', deviceId: 'cam-1' }]);
    const gum = vi.fn().mockResolvedValue(stream);
    await expect(_captureWithRetries('camera', {}, 'cam-x', 'startLocalVideo', gum)).rejects.toMatchObject({ code: 5300, extraCode: 5301, message: expect.stringContaining('no camera detected') });
    expect(gum).not.toHaveBeenCalled();
    stubDevices([]);
    await expect(_captureWithRetries('microphone', {}, undefined, 'startLocalAudio', gum)).rejects.toMatchObject({ extraCode: 5301, message: expect.stringContaining('no microphone detected') });
    // Ids hidden before permission: the browser's over-constrained deviceId is not found too.
    stubDevices([{ kind: 'videoinput', deviceId: '' }]);
    const overconstrained = vi.fn().mockRejectedValue(failure('OverconstrainedError', 'deviceId'));
    await expect(_captureWithRetries('camera', {}, 'cam-x', 'startLocalVideo', overconstrained)).rejects.toMatchObject({ extraCode: 5301 });
    expect(overconstrained).toHaveBeenCalledTimes(1);
  });

  it('maps every capture failure to its extra code; a system-level refusal offers a settings handler on macOS', () => {
    const codes = ['NotFoundError', 'NotAllowedError', 'NotReadableError', 'OverconstrainedError', 'InvalidStateError', 'SecurityError', 'AbortError']
      .map((name) => captureError(failure(name), 'screen', 'f').extraCode);
    expect(codes).toEqual([5301, 5302, 5303, 5304, 5305, 5306, 5307]);
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Chrome/120' });
    expect(typeof captureError(failure('NotAllowedError'), 'camera', 'f').handler).toBe('function');
  });
});

describe('screen capture options', () => {
  it('screen audio: echo cancellation on, noise suppression and gain control off (docs/behaviour.md §9)', () => {
    expect(screenAudioConstraints({})).toEqual({ echoCancellation: true, noiseSuppression: false, autoGainControl: false });
    expect(screenAudioConstraints({ noiseSuppression: true })).toMatchObject({ noiseSuppression: true });
  });

  it('preferDisplaySurface maps to displaySurface / preferCurrentTab', () => {
    const profile = { width: 1920, height: 1080, frameRate: 5, bitrate: 1600 };
    expect(displayMediaOptions(profile, {}).video).toMatchObject({ displaySurface: 'monitor', frameRate: { ideal: 5 } });
    expect(displayMediaOptions(profile, { preferDisplaySurface: 'tab' }).video).toMatchObject({ displaySurface: 'browser' });
    expect(displayMediaOptions(profile, { preferDisplaySurface: 'current-tab' })).toMatchObject({ preferCurrentTab: true });
    expect(displayMediaOptions(profile, { systemAudio: true })).toMatchObject({ audio: { echoCancellation: true }, systemAudio: 'include' });
    expect(displayMediaOptions(profile, {}).audio).toBe(false);
  });

  it('selfBrowserSurface (5.13+) goes to getDisplayMedia, over the current-tab default', () => {
    const profile = { width: 1920, height: 1080, frameRate: 5, bitrate: 1600 };
    expect(displayMediaOptions(profile, {})).not.toHaveProperty('selfBrowserSurface');
    expect(displayMediaOptions(profile, { selfBrowserSurface: 'exclude' })).toMatchObject({ selfBrowserSurface: 'exclude' });
    expect(displayMediaOptions(profile, { preferDisplaySurface: 'current-tab', selfBrowserSurface: 'exclude' })).toMatchObject({ selfBrowserSurface: 'exclude' });
    expect(() => validateScreenShareConfig({ option: { selfBrowserSurface: 'maybe' as 'include' } }, 'f')).toThrow(expect.objectContaining({ code: 5000 }));
    expect(() => validateScreenShareConfig({ streamType: 'third' as 'main' }, 'f')).toThrow(expect.objectContaining({ code: 5000 }));
  });
});
