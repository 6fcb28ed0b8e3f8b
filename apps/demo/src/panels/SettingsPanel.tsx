import { Fragment, useSyncExternalStore } from 'react';
import type { VideoProfileName } from '@conclave/sdk';
import { InviteLink } from '../InviteLink';
import { useT, type MessageKey } from '../i18n';
import { LanguagePicker } from '../LanguagePicker';
import { PROFILES, type Mirror } from '../localMedia';
import type { RoomSession } from '../session';
import { SHORTCUTS } from '../controls/ControlBar';
import { CdnSettings } from './CdnSettings';

const MIRRORS: readonly [Mirror, MessageKey][] = [['view', 'settings.mirrorView'], ['publish', 'settings.mirrorPublish'], ['both', 'settings.mirrorBoth'], ['none', 'settings.mirrorNone']];
const SHORTCUT_LIST: readonly [string, MessageKey][] = [
  [SHORTCUTS.mic, 'shortcut.mic'], [SHORTCUTS.camera, 'shortcut.camera'], [SHORTCUTS.screen, 'shortcut.screen'],
  [SHORTCUTS.chat, 'shortcut.chat'], [SHORTCUTS.people, 'shortcut.people'], [SHORTCUTS.settings, 'shortcut.settings'], ['Esc', 'shortcut.close'],
];

/** Language, camera profile, mirror, small stream, statistics on the tiles, publish states, CDN relay, invite link, shortcuts. */
export function SettingsPanel({ session, link, showStats, setShowStats }: {
  session: RoomSession; link: string; showStats: boolean; setShowStats: (on: boolean) => void;
}) {
  const media = session.localMedia;
  const s = useSyncExternalStore(media.subscribe, media.getSnapshot);
  const t = useT();
  return (
    <div className="settings">
      <LanguagePicker testId="settings-language" />
      <h3>{t('settings.video')}</h3>
      <label className="picker">
        <span>{t('settings.profile')}</span>
        <select data-testid="pick-profile" value={s.profile} onChange={(e) => void media.setProfile(e.target.value as VideoProfileName)}>
          {PROFILES.map((profile) => <option key={profile} value={profile}>{profile}</option>)}
        </select>
      </label>
      <label className="picker">
        <span>{t('settings.mirror')}</span>
        <select data-testid="pick-mirror" value={s.mirror} onChange={(e) => void media.setMirror(e.target.value as Mirror)}>
          {MIRRORS.map(([value, label]) => <option key={value} value={value}>{t(label)}</option>)}
        </select>
      </label>
      <label className="check">
        <input type="checkbox" data-testid="small-stream" checked={s.smallStream} onChange={(e) => media.setSmallStream(e.target.checked)} disabled={s.publish.video !== 'stopped'} />
        <span>{t('settings.small')}</span>
      </label>
      <label className="check">
        <input type="checkbox" data-testid="toggle-stats" checked={showStats} onChange={(e) => setShowStats(e.target.checked)} />
        <span>{t('settings.stats')}</span>
      </label>
      <h3>{t('settings.publishing')}</h3>
      <ul className="publish-state" data-testid="publish-state" aria-label={t('settings.publishState')}>
        {(['audio', 'video', 'screen'] as const).map((type) => (
          <li key={type} data-media={type} data-state={s.publish[type]}>
            <span className={`state-dot state-${s.publish[type] === 'started' ? 'connected' : s.publish[type] === 'starting' ? 'connecting' : 'disconnected'}`} aria-hidden="true" />
            {type}: {s.publish[type]}
          </li>
        ))}
      </ul>
      <CdnSettings session={session} />
      <h3>{t('settings.invite')}</h3>
      <InviteLink link={link} />
      <h3>{t('settings.shortcuts')}</h3>
      <dl className="shortcuts">
        {SHORTCUT_LIST.map(([key, label]) => (
          <Fragment key={key}>
            <dt><kbd>{key}</kbd></dt><dd>{t(label)}</dd>
          </Fragment>
        ))}
      </dl>
    </div>
  );
}
