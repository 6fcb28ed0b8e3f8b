import { useEffect, useSyncExternalStore } from 'react';
import type { LocalMediaControls } from './localMedia';

const KINDS = {
  camera: { label: 'Camera', testId: 'pick-camera', list: 'cameras', value: 'cameraId' },
  microphone: { label: 'Microphone', testId: 'pick-microphone', list: 'microphones', value: 'microphoneId' },
  speaker: { label: 'Speaker', testId: 'pick-speaker', list: 'speakers', value: 'speakerId' },
} as const;

/** One device choice in the room; switching while publishing swaps the track without renegotiation. */
export function DevicePicker({ media, kind }: { media: LocalMediaControls; kind: keyof typeof KINDS }) {
  const snapshot = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const { label, testId, list, value } = KINDS[kind];
  useEffect(() => {
    void media.refreshDevices();
  }, [media]);
  const devices = snapshot[list];
  const current = snapshot[value];
  const choose = (id: string) => {
    if (kind === 'camera') void media.setCamera(id);
    else if (kind === 'microphone') void media.setMicrophone(id);
    else void media.setSpeaker(id);
  };
  return (
    <label className="picker">
      <span>{label}</span>
      <select data-testid={testId} value={current} onChange={(event) => choose(event.target.value)} disabled={devices.length === 0}>
        {current === '' && <option value="">Default</option>}
        {devices.map((device, index) => (
          <option key={device.deviceId || index} value={device.deviceId}>{device.label || `${label} ${index + 1}`}</option>
        ))}
      </select>
    </label>
  );
}
