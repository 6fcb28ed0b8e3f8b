import { useEffect, useSyncExternalStore } from 'react';
import { useT } from './i18n';
import type { LocalMediaControls } from './localMedia';

const KINDS = {
  camera: { label: 'device.camera', testId: 'pick-camera', list: 'cameras', value: 'cameraId' },
  microphone: { label: 'device.microphone', testId: 'pick-microphone', list: 'microphones', value: 'microphoneId' },
  speaker: { label: 'device.speaker', testId: 'pick-speaker', list: 'speakers', value: 'speakerId' },
} as const;

/** One device choice in the room; switching while publishing swaps the track without renegotiation. */
export function DevicePicker({ media, kind }: { media: LocalMediaControls; kind: keyof typeof KINDS }) {
  const snapshot = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const t = useT();
  const { testId, list, value } = KINDS[kind];
  const label = t(KINDS[kind].label);
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
        {current === '' && <option value="">{t('device.default')}</option>}
        {devices.map((device, index) => (
          <option key={device.deviceId || index} value={device.deviceId}>{device.label || `${label} ${index + 1}`}</option>
        ))}
      </select>
    </label>
  );
}
