import { useSyncExternalStore } from 'react';
import type { VideoProfileName } from '@conclave/sdk';
import { InviteLink } from '../InviteLink';
import { PROFILES, type Mirror } from '../localMedia';
import type { RoomSession } from '../session';
import { SHORTCUTS } from '../controls/ControlBar';

const MIRRORS: readonly [Mirror, string][] = [['view', 'Mirror my view'], ['publish', 'Mirror what others see'], ['both', 'Mirror both'], ['none', 'No mirror']];

/** Camera profile, mirror, small stream, statistics on the tiles, publish states, invite link, shortcuts. */
export function SettingsPanel({ session, link, showStats, setShowStats }: {
  session: RoomSession; link: string; showStats: boolean; setShowStats: (on: boolean) => void;
}) {
  const media = session.localMedia;
  const s = useSyncExternalStore(media.subscribe, media.getSnapshot);
  return (
    <div className="settings">
      <h3>Video</h3>
      <label className="picker">
        <span>Camera profile</span>
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
      <label className="check">
        <input type="checkbox" data-testid="small-stream" checked={s.smallStream} onChange={(e) => media.setSmallStream(e.target.checked)}
          disabled={s.publish.video !== 'stopped'} />
        <span>Also send a small stream (for viewers with small tiles; set while the camera is off)</span>
      </label>
      <label className="check">
        <input type="checkbox" data-testid="toggle-stats" checked={showStats} onChange={(e) => setShowStats(e.target.checked)} />
        <span>Stats for nerds (resolution, frame rate, bitrate on each tile)</span>
      </label>
      <h3>Publishing</h3>
      <ul className="publish-state" data-testid="publish-state" aria-label="Publish state">
        {(['audio', 'video', 'screen'] as const).map((type) => (
          <li key={type} data-media={type} data-state={s.publish[type]}>
            <span className={`state-dot state-${s.publish[type] === 'started' ? 'connected' : s.publish[type] === 'starting' ? 'connecting' : 'disconnected'}`} aria-hidden="true" />
            {type}: {s.publish[type]}
          </li>
        ))}
      </ul>
      <h3>Invite</h3>
      <InviteLink link={link} />
      <h3>Keyboard shortcuts</h3>
      <dl className="shortcuts">
        <dt><kbd>{SHORTCUTS.mic}</kbd></dt><dd>Microphone on/off</dd>
        <dt><kbd>{SHORTCUTS.camera}</kbd></dt><dd>Camera on/off</dd>
        <dt><kbd>{SHORTCUTS.screen}</kbd></dt><dd>Share the screen</dd>
        <dt><kbd>{SHORTCUTS.chat}</kbd></dt><dd>Chat</dd>
        <dt><kbd>{SHORTCUTS.people}</kbd></dt><dd>Participants</dd>
        <dt><kbd>{SHORTCUTS.settings}</kbd></dt><dd>Settings</dd>
        <dt><kbd>Esc</kbd></dt><dd>Close the panel</dd>
      </dl>
    </div>
  );
}
