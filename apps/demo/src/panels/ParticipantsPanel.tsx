import { useState, useSyncExternalStore, type FormEvent } from 'react';
import { Icon } from '../Icon';
import type { RoomSession } from '../session';
import { isPublishing, tileKey } from '../stage/Stage';
import { useHost } from './useHost';

/** Everyone in the room: me first, with role, microphone and camera state; pin or mute someone for me. */
export function ParticipantsPanel({ session, pinned, setPinned }: {
  session: RoomSession; pinned: string | null; setPinned: (key: string | null) => void;
}) {
  const { remoteUsers, camera, mic, role } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const live = session.params.scene === 'live';
  const host = useHost(session.params.sdkAppId, session.params.room);
  const [key, setKey] = useState('');
  const submitKey = (event: FormEvent) => {
    event.preventDefault();
    host.setAdminKey(key);
  };
  return (
    <>
      <ul className="people" data-testid="participants">
        <li className="person" data-testid="participant" data-user-id={session.params.userId}>
          <span className="person-name">{session.params.userId} <span className="tile-tag">You</span></span>
          {live && <span className="role-badge" data-testid="participant-role" data-role={role}>{role}</span>}
          <span className="person-state" role="img" aria-label={mic === 'on' ? 'Microphone on' : 'Microphone off'}><Icon name={mic === 'on' ? 'mic' : 'mic-off'} /></span>
          <span className="person-state" role="img" aria-label={camera === 'on' ? 'Camera on' : 'Camera off'}><Icon name={camera === 'on' ? 'camera' : 'camera-off'} /></span>
        </li>
        {remoteUsers.map((user) => {
          const key = tileKey.camera(user.userId);
          return (
            <li key={user.userId} className="person" data-testid="participant" data-user-id={user.userId}>
              <span className="person-name">{user.userId}</span>
              {live && <span className="role-badge" data-role={isPublishing(user) ? 'anchor' : 'audience'}>{isPublishing(user) ? 'on stage' : 'watching'}</span>}
              <span className="person-state" role="img" aria-label={user.audioAvailable ? 'Microphone on' : 'Microphone off'}><Icon name={user.audioAvailable ? 'mic' : 'mic-off'} /></span>
              <span className="person-state" role="img" aria-label={user.videoAvailable ? 'Camera on' : 'Camera off'}><Icon name={user.videoAvailable ? 'camera' : 'camera-off'} /></span>
              <button type="button" className="icon-button" aria-pressed={user.audioMuted} aria-label={user.audioMuted ? `Unmute ${user.userId}` : `Mute ${user.userId} for me`}
                onClick={() => session.setRemoteAudioMuted(user.userId, !user.audioMuted)}>
                <Icon name={user.audioMuted ? 'volume-off' : 'volume'} />
              </button>
              <button type="button" className="icon-button" aria-pressed={pinned === key} aria-label={pinned === key ? `Unpin ${user.userId}` : `Pin ${user.userId}`}
                onClick={() => setPinned(pinned === key ? null : key)}>
                <Icon name="pin" />
              </button>
              {host.client && (
                <button type="button" className="icon-button" data-testid="kick-user" aria-label={`Remove ${user.userId} from the room`}
                  title="Remove from the room" onClick={() => void host.kick(user.userId)}>
                  <Icon name="leave" />
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <section className="host-tools" aria-label="Host tools">
        {host.client ? (
          <p className="hint" data-testid="host-status">
            {host.devMode ? 'You hold the dev app’s admin key: you can remove people from the room.' : 'Admin key set: you can remove people from the room.'}
          </p>
        ) : (
          <form className="chat-form" onSubmit={submitKey}>
            <label className="visually-hidden" htmlFor="admin-key">Admin key</label>
            <input id="admin-key" type="password" autoComplete="off" placeholder="Admin key (host tools)" value={key}
              onChange={(event) => setKey(event.target.value)} />
            <button type="submit" className="button" disabled={key.trim() === ''}>Use</button>
          </form>
        )}
        {host.error && <p className="chat-error" role="alert" data-testid="host-error">{host.error}</p>}
      </section>
    </>
  );
}
