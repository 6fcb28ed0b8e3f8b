import { useEffect, useSyncExternalStore } from 'react';
import type { DeviceOption, LocalMediaControls } from './localMedia';

function Picker({ label, testId, devices, value, onChange }: {
  label: string; testId: string; devices: readonly DeviceOption[]; value: string; onChange: (id: string) => void;
}) {
  return (
    <label className="picker">
      <span>{label}</span>
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)} disabled={devices.length === 0}>
        {value === '' && <option value="">Default</option>}
        {devices.map((device, index) => (
          <option key={device.deviceId || index} value={device.deviceId}>{device.label || `${label} ${index + 1}`}</option>
        ))}
      </select>
    </label>
  );
}

/** Camera, microphone and speaker choice; switching while publishing swaps the track without renegotiation. */
export function DevicePickers({ media }: { media: LocalMediaControls }) {
  const snapshot = useSyncExternalStore(media.subscribe, media.getSnapshot);
  useEffect(() => {
    void media.refreshDevices();
  }, [media]);
  return (
    <div className="pickers" role="group" aria-label="Devices">
      <Picker label="Camera" testId="pick-camera" devices={snapshot.cameras} value={snapshot.cameraId} onChange={(id) => void media.setCamera(id)} />
      <Picker label="Microphone" testId="pick-microphone" devices={snapshot.microphones} value={snapshot.microphoneId} onChange={(id) => void media.setMicrophone(id)} />
      <Picker label="Speaker" testId="pick-speaker" devices={snapshot.speakers} value={snapshot.speakerId} onChange={(id) => void media.setSpeaker(id)} />
    </div>
  );
}
