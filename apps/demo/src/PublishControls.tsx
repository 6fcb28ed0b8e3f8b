import { useSyncExternalStore, type ReactNode } from 'react';
import type { VideoProfileName } from '@conclave/sdk';
import { PROFILES, type LocalMediaControls, type Mirror } from './localMedia';

const MIRRORS: readonly [Mirror, string][] = [['view', 'Mirror my view'], ['publish', 'Mirror what others see'], ['both', 'Mirror both'], ['none', 'No mirror']];

/** Profile, mirror, small stream, mute buttons, screen share and the publish state of each stream. */
export function PublishControls({ media, disabled, children }: { media: LocalMediaControls; disabled: boolean; children?: ReactNode }) {
  const s = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const screenBusy = s.screen === 'starting' || s.screen === 'stopping';
  return (
    <div className="publish-controls" role="group" aria-label="Publishing">
      <div className="controls">
        <button type="button" className={`control${s.audioMuted ? ' control-off' : ''}`} data-testid="mute-mic" aria-pressed={s.audioMuted}
          disabled={disabled} onClick={() => void media.toggleAudioMute()}>
          <span>{s.audioMuted ? 'Unmute mic' : 'Mute mic'}</span>
        </button>
        <button type="button" className={`control${s.videoMuted ? ' control-off' : ''}`} data-testid="mute-camera" aria-pressed={s.videoMuted}
          disabled={disabled} onClick={() => void media.toggleVideoMute()}>
          <span>{s.videoMuted ? 'Unmute camera' : 'Mute camera'}</span>
        </button>
        <button type="button" className={`control${s.screen === 'on' ? '' : ' control-off'}`} data-testid="toggle-screen" data-state={s.screen}
          aria-pressed={s.screen === 'on'} aria-busy={screenBusy} disabled={disabled || screenBusy} onClick={() => void media.toggleScreen()}>
          <span>{s.screen === 'on' ? 'Stop sharing' : 'Share screen'}</span>
          <span className="control-state">{s.screen}</span>
        </button>
      </div>
      <ul className="publish-state" data-testid="publish-state" aria-label="Publish state">
        {(['audio', 'video', 'screen'] as const).map((type) => (
          <li key={type} data-media={type} data-state={s.publish[type]}>
            <span className={`state-dot state-${s.publish[type] === 'started' ? 'connected' : s.publish[type] === 'starting' ? 'connecting' : 'disconnected'}`} aria-hidden="true" />
            {type}: {s.publish[type]}
          </li>
        ))}
      </ul>
      {s.error && <p className="alert alert-error" data-testid="media-error">{s.error}</p>}
      <details className="media-settings">
        <summary>Devices and video settings</summary>
        <div className="pickers">
          <label className="picker">
            <span>Profile</span>
            <select data-testid="pick-profile" value={s.profile} onChange={(e) => void media.setProfile(e.target.value as VideoProfileName)}>
              {PROFILES.map((profile) => <option key={profile} value={profile}>{profile}</option>)}
            </select>
          </label>
          <label className="picker">
            <span>Mirror</span>
            <select data-testid="pick-mirror" value={s.mirror} onChange={(e) => void media.setMirror(e.target.value as Mirror)}>
              {MIRRORS.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
            </select>
          </label>
          <label className="check" title="Publish a 160×120 stream too, for viewers who want less (set before the camera starts)">
            <input type="checkbox" data-testid="small-stream" checked={s.smallStream} onChange={(e) => media.setSmallStream(e.target.checked)}
              disabled={s.publish.video !== 'stopped'} />
            <span>Small stream</span>
          </label>
        </div>
        {children}
      </details>
    </div>
  );
}
