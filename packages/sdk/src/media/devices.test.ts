import { describe, expect, it } from 'vitest';
import { isVirtualDevice, readDeviceListOption, withoutVirtualDevices } from './devices.js';

const camera = (label: string) => ({ kind: 'videoinput' as const, label });
const microphone = (label: string) => ({ kind: 'audioinput' as const, label });

describe('40 device lists: filterVirtualDevice (5.18)', () => {
  it('40 getCameraList/getMicrophoneList: a label with "virtual" is virtual, but a capture program\'s camera (OBS) is kept', () => {
    expect(isVirtualDevice(camera('Virtual Camera'))).toBe(true);
    expect(isVirtualDevice(camera('OBS Virtual Camera'))).toBe(false);
    expect(isVirtualDevice(camera('WebcastMate Virtual Camera'))).toBe(false);
    expect(isVirtualDevice(microphone('OBS Virtual Microphone'))).toBe(true);
    expect(isVirtualDevice(camera('FaceTime HD Camera'))).toBe(false);
    expect(withoutVirtualDevices([camera('Integrated'), camera('XSplit VirtualCam'), camera('OBS Virtual Camera')]).map((d) => d.label)).toEqual(['Integrated', 'OBS Virtual Camera']);
  });

  it('40 getMicrophoneList: when every device is virtual, the whole list is returned', () => {
    const all = [microphone('Virtual Audio Cable'), microphone('VB-Audio Virtual')];
    expect(withoutVirtualDevices(all)).toEqual(all);
  });

  it('40 getCameraList/getMicrophoneList: a boolean is requestPermission and never filters; an object defaults to asking and not filtering', () => {
    expect(readDeviceListOption(undefined)).toEqual({ requestPermission: true, filterVirtualDevice: false });
    expect(readDeviceListOption(false)).toEqual({ requestPermission: false, filterVirtualDevice: false });
    expect(readDeviceListOption({ filterVirtualDevice: true })).toEqual({ requestPermission: true, filterVirtualDevice: true });
    expect(readDeviceListOption({ requestPermission: false })).toEqual({ requestPermission: false, filterVirtualDevice: false });
  });
});
