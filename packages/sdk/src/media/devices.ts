import { deviceError } from '../errors/catalogue.js';

type Kind = 'videoinput' | 'audioinput' | 'audiooutput';
const LABEL: Record<Kind, string> = { videoinput: 'camera', audioinput: 'microphone', audiooutput: 'speaker' };

/**
 * Lists devices of a kind. With requestPermission (default) and no labels yet, asks for access first so
 * labels are filled in; an empty label falls back to kind plus index (SPEC §3).
 */
export async function listDevices(kind: Kind, requestPermission = true, functionName: string): Promise<MediaDeviceInfo[]> {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices?.enumerateDevices) return [];
  let devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === kind);
  if (requestPermission && kind !== 'audiooutput' && devices.some((d) => !d.label)) {
    try {
      const stream = await navigator.mediaDevices.getUserMedia(kind === 'videoinput' ? { video: true } : { audio: true });
      for (const track of stream.getTracks()) track.stop();
    } catch (error) {
      throw deviceError(error, kind === 'videoinput' ? 'camera' : 'microphone', functionName);
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
