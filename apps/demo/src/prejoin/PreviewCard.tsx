import { useEffect, useRef, useState } from 'react';
import { initials } from '../initials';
import { Icon } from '../Icon';
import type { DeviceChoice } from '../joinParams';
import type { DeviceOption } from '../localMedia';
import { useT } from '../i18n';
import { DeviceCheck } from './DeviceCheck';
import { usePreview } from './usePreview';

export interface PreviewCardProps {
  readonly name: string;
  readonly camera: boolean;
  readonly mic: boolean;
  readonly setCamera: (on: boolean) => void;
  readonly setMic: (on: boolean) => void;
  readonly devices: DeviceChoice;
  readonly setDevices: (devices: DeviceChoice) => void;
}

function Picker({ label, testId, devices, value, onChange }: {
  label: string; testId: string; devices: readonly DeviceOption[]; value: string; onChange: (id: string) => void;
}) {
  const t = useT();
  return (
    <label className="picker">
      <span>{label}</span>
      <select data-testid={testId} value={value} onChange={(event) => onChange(event.target.value)} disabled={devices.length === 0}>
        <option value="">{t('device.default')}</option>
        {devices.map((device, index) => (
          <option key={device.deviceId || index} value={device.deviceId}>{device.label || `${label} ${index + 1}`}</option>
        ))}
      </select>
    </label>
  );
}

/** A microphone level meter: ten segments, lit up to the level; announced as a meter. */
export function LevelMeter({ level, testId }: { level: number; testId: string }) {
  const t = useT();
  const lit = Math.round(level * 10);
  return (
    <span className="level-meter" data-testid={testId} data-level={level.toFixed(2)} role="meter" aria-label={t('preview.micLevel')}
      aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(level * 100)}>
      {Array.from({ length: 10 }, (_, index) => <span key={index} className={index < lit ? 'seg lit' : 'seg'} />)}
    </span>
  );
}

/** The pre-join camera preview with microphone meter, on/off toggles and the device pickers. */
export function PreviewCard({ name, camera, mic, setCamera, setMic, devices, setDevices }: PreviewCardProps) {
  const [level, setLevel] = useState(0);
  const preview = usePreview(camera, devices.cameraId, mic, devices.microphoneId, setLevel);
  const video = useRef<HTMLVideoElement>(null);
  const t = useT();

  useEffect(() => {
    if (video.current) video.current.srcObject = preview.stream;
  }, [preview.stream]);

  const errors = [preview.cameraError, preview.micError].filter((text): text is string => text !== null);
  return (
    <section className="preview-card" aria-label={t('preview.label')}>
      <div className="preview" data-testid="prejoin-preview" data-state={preview.stream ? 'playing' : camera ? (preview.cameraError ? 'error' : 'starting') : 'off'}>
        <video ref={video} data-testid="preview-video" autoPlay playsInline muted hidden={!preview.stream} />
        {!preview.stream && (
          <div className="preview-placeholder">
            <span className="avatar" aria-hidden="true">{initials(name)}</span>
            <span>{camera ? (preview.cameraError ? t('preview.cameraUnavailable') : t('preview.cameraStarting')) : t('preview.cameraOff')}</span>
          </div>
        )}
        <div className="preview-controls">
          <button type="button" className={`round-button${mic ? '' : ' is-off'}`} data-testid="join-mic" aria-pressed={mic}
            aria-label={t('preview.micToggle')} title={mic ? t('people.micOn') : t('people.micOff')} onClick={() => setMic(!mic)}>
            <Icon name={mic ? 'mic' : 'mic-off'} />
          </button>
          <button type="button" className={`round-button${camera ? '' : ' is-off'}`} data-testid="join-camera" aria-pressed={camera}
            aria-label={t('preview.cameraToggle')} title={camera ? t('people.cameraOn') : t('people.cameraOff')} onClick={() => setCamera(!camera)}>
            <Icon name={camera ? 'camera' : 'camera-off'} />
          </button>
        </div>
        {mic && <div className="preview-meter"><Icon name="mic" /><LevelMeter level={level} testId="prejoin-mic-level" /></div>}
      </div>
      {errors.length > 0 && (
        <div className="alert alert-error" role="alert" data-testid="preview-error">
          {errors.map((text) => <p key={text} className="error-line">{text}</p>)}
        </div>
      )}
      <div className="pickers">
        <Picker label={t('device.camera')} testId="prejoin-camera" devices={preview.devices.cameras} value={devices.cameraId}
          onChange={(cameraId) => setDevices({ ...devices, cameraId })} />
        <Picker label={t('device.microphone')} testId="prejoin-microphone" devices={preview.devices.microphones} value={devices.microphoneId}
          onChange={(microphoneId) => setDevices({ ...devices, microphoneId })} />
        <Picker label={t('device.speaker')} testId="prejoin-speaker" devices={preview.devices.speakers} value={devices.speakerId}
          onChange={(speakerId) => setDevices({ ...devices, speakerId })} />
      </div>
      <DeviceCheck />
    </section>
  );
}
