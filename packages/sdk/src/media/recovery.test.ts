import { describe, expect, it, vi } from 'vitest';
import { diffDevices } from './devices.js';
import { CaptureRecovery, MUTE_RECAPTURE_MS, RECOVERY_INTERVAL_MS, recoveryPlan } from './recovery.js';

const device = (kind: string, deviceId: string) => ({ kind, deviceId, groupId: '', label: deviceId, toJSON: () => ({}) }) as MediaDeviceInfo;

describe('capture recovery (docs/behaviour.md §4)', () => {
  it('tries the device in use 3 times, then each other device', () => {
    expect(recoveryPlan('a', ['a', 'b', 'c'])).toEqual(['a', 'a', 'a', 'b', 'c']);
    expect(recoveryPlan(undefined, ['a'])).toEqual([undefined, undefined, undefined, 'a']);
  });
});

describe('device-changed', () => {
  it('reports added and removed devices by kind', () => {
    const before = [device('videoinput', 'cam1'), device('audioinput', 'mic1'), device('audiooutput', 'spk1')];
    const after = [device('videoinput', 'cam1'), device('videoinput', 'cam2'), device('audiooutput', 'spk1')];
    expect(diffDevices(before, after).map((c) => `${c.type}:${c.action}:${c.device.deviceId}`)).toEqual(['camera:add:cam2', 'microphone:remove:mic1']);
    // Before permission, devices have no ids: nothing to compare.
    expect(diffDevices([device('videoinput', '')], [device('videoinput', '')])).toEqual([]);
  });
});

describe('CaptureRecovery', () => {
  /** A track stand-in: an EventTarget with muted / stop. */
  function fakeTrack() {
    const track = Object.assign(new EventTarget(), { muted: false, stopped: false, stop() { track.stopped = true; } });
    return track;
  }

  it('recaptures a track muted for 5 s, and one that ended', async () => {
    vi.useFakeTimers();
    try {
      const recovered: string[] = [];
      const host = {
        kind: 'camera' as const,
        deviceId: () => 'cam1',
        listDevices: async () => ['cam1', 'cam2'],
        recapture: vi.fn(async (id: string | undefined) => Object.assign(fakeTrack(), { id }) as unknown as MediaStreamTrack),
        recovered: async (_track: MediaStreamTrack, id: string | undefined) => {
          recovered.push(String(id));
        },
        failed: vi.fn(),
      };
      const recovery = new CaptureRecovery(host);
      const track = fakeTrack();
      recovery.watch(track as unknown as MediaStreamTrack);
      track.muted = true;
      track.dispatchEvent(new Event('mute'));
      await vi.advanceTimersByTimeAsync(MUTE_RECAPTURE_MS - 100);
      expect(host.recapture).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(200);
      expect(recovered).toEqual(['cam1']);
      expect(track.stopped).toBe(true);
      // A mute that ends in time does nothing.
      const second = host.recapture.mock.results[0].value as Promise<EventTarget & { muted: boolean }>;
      const current = await second;
      current.muted = true;
      current.dispatchEvent(new Event('mute'));
      await vi.advanceTimersByTimeAsync(1000);
      current.muted = false;
      current.dispatchEvent(new Event('unmute'));
      await vi.advanceTimersByTimeAsync(MUTE_RECAPTURE_MS);
      expect(host.recapture).toHaveBeenCalledTimes(1);
      current.dispatchEvent(new Event('ended'));
      await vi.advanceTimersByTimeAsync(10);
      expect(recovered).toEqual(['cam1', 'cam1']);
      recovery.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('after 3 failures tries the other devices, then reports 5308 / 5309', async () => {
    vi.useFakeTimers();
    try {
      const failed = vi.fn();
      const recapture = vi.fn(async () => {
        throw new Error('busy');
      });
      const recovery = new CaptureRecovery({
        kind: 'microphone', deviceId: () => 'mic1', listDevices: async () => ['mic1', 'mic2'], recapture, recovered: async () => undefined, failed,
      });
      const track = fakeTrack();
      recovery.watch(track as unknown as MediaStreamTrack);
      track.dispatchEvent(new Event('ended'));
      await vi.advanceTimersByTimeAsync(RECOVERY_INTERVAL_MS * 5);
      expect(recapture.mock.calls.map((c) => (c as unknown[])[0])).toEqual(['mic1', 'mic1', 'mic1', 'mic2']);
      expect(failed).toHaveBeenCalledWith(expect.objectContaining({ code: 5300, extraCode: 5309 }));
    } finally {
      vi.useRealTimers();
    }
  });
});
