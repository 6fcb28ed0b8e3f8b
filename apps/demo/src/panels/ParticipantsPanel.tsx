import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { Icon } from '../Icon';
import { useT } from '../i18n';
import type { RoomSession } from '../session';
import { isPublishing, tileKey } from '../stage/Stage';
import { HostTools } from './HostTools';
import { roomKey, useHost } from './useHost';

/**
 * Everyone in the room: me first, with role, microphone and camera state; pin or mute someone for me. In a live
 * room, raised hands and "Invite on stage" (for whoever is on stage); for a host (admin key), ask to mute, remove,
 * and record the room.
 */
export function ParticipantsPanel({ session, pinned, setPinned }: {
  session: RoomSession; pinned: string | null; setPinned: (key: string | null) => void;
}) {
  const { remoteUsers, camera, mic, role, handRaised } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const { hands } = useSyncExternalStore(session.control.subscribe, session.control.getSnapshot);
  const t = useT();
  const live = session.params.scene === 'live';
  const onStage = !live || (role === 'anchor' && !handRaised);
  const host = useHost(session.params.sdkAppId, session.params.room);
  const [key, setKey] = useState('');
  const [sendError, setSendError] = useState<string | null>(null);
  const submitKey = (event: FormEvent) => {
    event.preventDefault();
    host.setAdminKey(key);
  };
  const micLabel = (on: boolean) => (on ? t('people.micOn') : t('people.micOff'));
  const cameraLabel = (on: boolean) => (on ? t('people.cameraOn') : t('people.cameraOff'));
  return (
    <>
      <ul className="people" data-testid="participants">
        <li className="person" data-testid="participant" data-user-id={session.params.userId}>
          <span className="person-name">{session.params.userId} <span className="tile-tag">{t('people.you')}</span></span>
          {live && <span className="role-badge" data-testid="participant-role" data-role={role}>{handRaised ? t('room.handUp') : role === 'anchor' ? t('room.onStage') : t('room.audience')}</span>}
          <span className="person-state" role="img" aria-label={micLabel(mic === 'on')}><Icon name={mic === 'on' ? 'mic' : 'mic-off'} /></span>
          <span className="person-state" role="img" aria-label={cameraLabel(camera === 'on')}><Icon name={camera === 'on' ? 'camera' : 'camera-off'} /></span>
        </li>
        {remoteUsers.map((user) => {
          const key = tileKey.camera(user.userId);
          const watching = live && !isPublishing(user);
          const hand = hands.has(user.userId);
          return (
            <li key={user.userId} className="person" data-testid="participant" data-user-id={user.userId} data-hand={hand}>
              <span className="person-name">{user.userId}</span>
              {hand && <span className="hand-badge" data-testid="hand-raised" role="img" aria-label={t('people.handRaised')} title={t('people.handRaised')}>✋</span>}
              {live && <span className="role-badge" data-role={watching ? 'audience' : 'anchor'}>{watching ? t('room.watching') : t('room.onStage')}</span>}
              <span className="person-state" role="img" aria-label={micLabel(user.audioAvailable)}><Icon name={user.audioAvailable ? 'mic' : 'mic-off'} /></span>
              <span className="person-state" role="img" aria-label={cameraLabel(user.videoAvailable)}><Icon name={user.videoAvailable ? 'camera' : 'camera-off'} /></span>
              {watching && onStage && (
                <button type="button" className="icon-button" data-testid="invite-user" aria-label={t('people.invite', { userId: user.userId })}
                  title={t('people.inviteShort')} onClick={() => setSendError(session.control.invite(user.userId))}>
                  <Icon name="hand" />
                </button>
              )}
              <button type="button" className="icon-button" aria-pressed={user.audioMuted}
                aria-label={user.audioMuted ? t('people.unmuteFor', { userId: user.userId }) : t('people.muteFor', { userId: user.userId })}
                onClick={() => session.setRemoteAudioMuted(user.userId, !user.audioMuted)}>
                <Icon name={user.audioMuted ? 'volume-off' : 'volume'} />
              </button>
              <button type="button" className="icon-button" aria-pressed={pinned === key}
                aria-label={pinned === key ? t('people.unpin', { userId: user.userId }) : t('people.pin', { userId: user.userId })}
                onClick={() => setPinned(pinned === key ? null : key)}>
                <Icon name="pin" />
              </button>
              {host.client && user.audioAvailable && onStage && (
                <button type="button" className="icon-button" data-testid="ask-mute" aria-label={t('people.askMute', { userId: user.userId })}
                  title={t('people.askMuteTitle')} onClick={() => setSendError(session.control.askToMute(user.userId))}>
                  <Icon name="mic-off" />
                </button>
              )}
              {host.client && (
                <button type="button" className="icon-button" data-testid="kick-user" aria-label={t('people.kick', { userId: user.userId })}
                  title={t('people.kickTitle')} onClick={() => void host.kick(user.userId)}>
                  <Icon name="leave" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {sendError && <p className="chat-error" role="alert" data-testid="control-error">{sendError}</p>}
      <section className="host-tools" aria-label={t('host.tools')}>
        {host.client ? (
          <>
            <p className="hint" data-testid="host-status">{host.devMode ? t('host.dev') : t('host.key')}</p>
            <HostTools client={host.client} roomKey={roomKey(session.params.room)} />
          </>
        ) : (
          <form className="chat-form" onSubmit={submitKey}>
            <label className="visually-hidden" htmlFor="admin-key">{t('host.adminKey')}</label>
            <input id="admin-key" type="password" autoComplete="off" placeholder={t('host.adminKeyPlaceholder')} value={key}
              onChange={(event) => setKey(event.target.value)} />
            <button type="submit" className="button" disabled={key.trim() === ''}>{t('host.use')}</button>
          </form>
        )}
        {host.error && <p className="chat-error" role="alert" data-testid="host-error">{host.error}</p>}
      </section>
    </>
  );
}
