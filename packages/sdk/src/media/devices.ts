import { captureError } from './capture.js';

type Kind = 'videoinput' | 'audioinput' | 'audiooutput';
const LABEL: Record<Kind, string> = { videoinput: 'camera', audioinput: 'microphone', audiooutput: 'speaker' };

/**
 * Lists devices of a kind. With requestPermission (default) and no labels yet, asks for access first so
 * labels are filled in; an empty label falls back to kind plus index (docs/behaviour.md §3).
 */
export async function listDevices(kind: Kind, requestPermission = true, functionName: string): Promise<MediaDeviceInfo[]> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.enumerateDevices) return [];
  let devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === kind);
  // Speakers' labels come with microphone permission, so speakers ask for the microphone.
  if (requestPermission && devices.some((d) => !d.label)) {
    try {
      const stream = await navigator.mediaDevices.getUserMedia(kind === 'videoinput' ? { video: true } : { audio: true });
      for (const track of stream.getTracks()) track.stop();
    } catch (error) {
      throw captureError(error, kind === 'videoinput' ? 'camera' : 'microphone', functionName);
    }
    devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === kind);
  }
  return devices.map((device, index) => device.label ? device : ({
    deviceId: device.deviceId,
    groupId: device.groupId,
    kind: device.kind,
    label: `${LABEL[kind]}_${index}`,
    toJSON: () => ({ deviceId: device.deviceId, groupId: device.groupId, kind: device.kind, label: `${LABEL[kind]}_${index}` }),
  } as MediaDeviceInfo));
}

/** getCameraList / getMicrophoneList's option (5.18; a boolean is requestPermission, as before). */
export type DeviceListOption = boolean | { requestPermission?: boolean; filterVirtualDevice?: boolean };

/** Reads a device-list option as the original does: a boolean never filters; an object's fields default to true / false. */
export function readDeviceListOption(option: DeviceListOption | undefined): { requestPermission: boolean; filterVirtualDevice: boolean } {
  if (typeof option === 'boolean') return { requestPermission: option, filterVirtualDevice: false };
  return { requestPermission: option?.requestPermission ?? true, filterVirtualDevice: option?.filterVirtualDevice ?? false };
}

/** Capture programs whose cameras are real sources though their label says "virtual" (the original's list). */
const CAPTURE_PROGRAMS = ['obs', 'webcastmate'];

/** The original's virtual-device test: "virtual" in the label, except a camera of a capture program (OBS Virtual Camera). */
export function isVirtualDevice(device: Pick<MediaDeviceInfo, 'label' | 'kind'>): boolean {
  const label = device.label.toLowerCase();
  return label.includes('virtual') && !(device.kind === 'videoinput' && CAPTURE_PROGRAMS.some((name) => label.includes(name)));
}

/** A list without its virtual devices; the whole list when every device is virtual (as the original). */
export function withoutVirtualDevices<T extends Pick<MediaDeviceInfo, 'label' | 'kind'>>(devices: T[]): T[] {
  const real = devices.filter((device) => !isVirtualDevice(device));
  return real.length > 0 ? real : devices;
}

/** getCameraList / getMicrophoneList: the list of listDevices, without virtual devices when the option asks. */
export async function listInputs(kind: 'videoinput' | 'audioinput', option: DeviceListOption | undefined, functionName: string): Promise<MediaDeviceInfo[]> {
  const { requestPermission, filterVirtualDevice } = readDeviceListOption(option);
  const devices = await listDevices(kind, requestPermission, functionName);
  return filterVirtualDevice ? withoutVirtualDevices(devices) : devices;
}

/** Device ids for capture recovery: real devices before virtual ones (the original avoids a virtual device when recapturing). */
export async function recoveryCandidates(kind: 'videoinput' | 'audioinput'): Promise<string[]> {
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === kind);
  return [...devices.filter((d) => !isVirtualDevice(d)), ...devices.filter((d) => isVirtualDevice(d))].map((d) => d.deviceId);
}

/** docs/behaviour.md §9: the device list is polled every 10 s where the browser has no devicechange event. */
export const DEVICE_POLL_MS = 10_000;

/** A device-changed event, as the original's API defines it. */
export interface DeviceChange {
  type: 'camera' | 'microphone' | 'speaker';
  action: 'add' | 'remove' | 'active';
  device: MediaDeviceInfo;
}

const TYPE: Record<Kind, DeviceChange['type']> = { videoinput: 'camera', audioinput: 'microphone', audiooutput: 'speaker' };
const deviceKey = (d: MediaDeviceInfo) => `${d.kind}\u0000${d.deviceId}`;

/** The add / remove changes between two device lists (devices without ids, before permission, are skipped). */
export function diffDevices(before: readonly MediaDeviceInfo[], after: readonly MediaDeviceInfo[]): DeviceChange[] {
  const known = (list: readonly MediaDeviceInfo[]) => new Map(list.filter((d) => d.deviceId && d.kind in TYPE).map((d) => [deviceKey(d), d]));
  const was = known(before);
  const now = known(after);
  const changes: DeviceChange[] = [];
  for (const [key, device] of now) if (!was.has(key)) changes.push({ type: TYPE[device.kind as Kind], action: 'add', device });
  for (const [key, device] of was) if (!now.has(key)) changes.push({ type: TYPE[device.kind as Kind], action: 'remove', device });
  return changes;
}

/**
 * Watches the device list and reports device-changed: add / remove on the browser's devicechange
 * event (or every 10 s where there is none), and active when a capture starts on a device.
 */
export class DeviceWatcher {
  private readonly _emit: (change: DeviceChange) => void;
  private _devices: MediaDeviceInfo[] = [];
  private _timer: ReturnType<typeof setInterval> | undefined;
  private _started = false;
  private readonly _onChange = () => void this._refresh();

  constructor(emit: (change: DeviceChange) => void) {
    this._emit = emit;
  }

  /** Starts watching (once; does nothing outside a browser). */
  start(): void {
    const media = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
    if (this._started || !media?.enumerateDevices) return;
    this._started = true;
    media.enumerateDevices().then((list) => {
      this._devices = list;
    }, () => undefined); // no list yet (no permission): the devicechange below or the next call reads it
    if ('ondevicechange' in media) media.addEventListener('devicechange', this._onChange);
    else this._timer = setInterval(this._onChange, DEVICE_POLL_MS);
  }

  stop(): void {
    if (!this._started) return;
    this._started = false;
    clearInterval(this._timer);
    navigator.mediaDevices?.removeEventListener?.('devicechange', this._onChange);
  }

  /** Reports that a capture is now running on the device of `track`. */
  async active(kind: 'camera' | 'microphone', track: MediaStreamTrack): Promise<void> {
    const deviceId = track.getSettings?.().deviceId;
    if (!deviceId || typeof navigator === 'undefined') return;
    const list = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]); // no list: no 'active' event for this capture
    const device = list.find((d) => d.deviceId === deviceId && d.kind === (kind === 'camera' ? 'videoinput' : 'audioinput'));
    if (device) this._emit({ type: kind, action: 'active', device });
  }

  private async _refresh(): Promise<void> {
    const list = await navigator.mediaDevices.enumerateDevices().catch(() => undefined); // no list now: the next devicechange reads it
    if (!list) return;
    const changes = diffDevices(this._devices, list);
    this._devices = list;
    for (const change of changes) this._emit(change);
  }
}
