import { useCallback, useEffect, useState } from 'react';
import { localeOf, useLang, useT, type Translate } from '../i18n';
import type { AdminClient, AdminRoom, AdminUser } from './api';
import { describeError, type Notice } from './notice';

/** How often the open lists refresh themselves. */
const REFRESH_MS = 3000;

function roomName(room: AdminRoom): string {
  return room.strRoomId !== undefined ? `"${room.strRoomId}"` : String(room.roomId);
}

function streamsOf(user: AdminUser, t: Translate): string {
  const s = user.streams;
  const muted = (what: string, isMuted: boolean) => (isMuted ? t('admin.muted', { what }) : what);
  const parts = [
    s.audio && muted(t('admin.audio'), s.audioMuted),
    s.video && muted(t('admin.video'), s.videoMuted),
    s.small && t('admin.small'),
    s.aux && muted(t('admin.screen'), s.auxMuted),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(t('admin.listSep')) : '—';
}

function UserRow({ user, onKick, onBan }: { user: AdminUser; onKick: () => void; onBan: (seconds: number) => void }) {
  const [seconds, setSeconds] = useState('600');
  const t = useT();
  const locale = localeOf(useLang());
  return (
    <tr data-testid={`admin-user-${user.userId}`}>
      <td><code>{user.userId}</code>{!user.connected && <span className="admin-badge admin-warn">{t('admin.reconnecting')}</span>}</td>
      <td>{user.role === 'anchor' ? t('admin.anchor') : user.role === 'audience' ? t('admin.audience') : user.role}</td>
      <td data-testid={`admin-user-streams-${user.userId}`}>{streamsOf(user, t)}</td>
      <td>{user.subscriptions.length > 0 ? user.subscriptions.join(t('admin.listSep')) : '—'}</td>
      <td>{new Date(user.joinedAt).toLocaleTimeString(locale)}</td>
      <td className="admin-actions">
        <button type="button" className="admin-button admin-small" onClick={onKick} data-testid={`admin-kick-${user.userId}`}>{t('admin.kick')}</button>
        <input className="admin-seconds" value={seconds} onChange={(e) => setSeconds(e.target.value)} inputMode="numeric" aria-label={t('admin.banSeconds', { userId: user.userId })} data-testid={`admin-ban-seconds-${user.userId}`} />
        <button type="button" className="admin-button admin-small admin-danger" onClick={() => onBan(Number(seconds))} data-testid={`admin-ban-${user.userId}`}>{t('admin.ban')}</button>
      </td>
    </tr>
  );
}

/** Rooms of the app; a selected room shows its users with kick and ban, and can be dismissed. */
export function RoomsPanel({ client, notify, onChange }: { client: AdminClient; notify: (n: Notice) => void; onChange: () => void }) {
  const [rooms, setRooms] = useState<AdminRoom[] | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [confirmDismiss, setConfirmDismiss] = useState(false);
  const t = useT();
  const locale = localeOf(useLang());

  const load = useCallback(async () => {
    try {
      const list = await client.rooms();
      setRooms(list);
      if (selected !== null) {
        if (list.some((r) => r.roomKey === selected)) setUsers(await client.users(selected));
        else setUsers([]);
      }
    } catch (e) {
      notify({ kind: 'error', text: describeError(e) });
    }
  }, [client, notify, selected]);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  const act = async (run: () => Promise<string>) => {
    try {
      notify({ kind: 'ok', text: await run() });
    } catch (e) {
      notify({ kind: 'error', text: describeError(e) });
    }
    await load();
    onChange();
  };

  return (
    <section className="admin-grid">
      <div className="admin-card" data-testid="admin-rooms">
        <div className="admin-row admin-between">
          <h2>{t('admin.rooms')}</h2>
          <button type="button" className="admin-button admin-small" onClick={() => void load()} data-testid="admin-refresh">{t('admin.refresh')}</button>
        </div>
        {rooms === null ? <p className="admin-muted">{t('admin.loading')}</p> : rooms.length === 0 ? <p className="admin-muted" data-testid="admin-rooms-empty">{t('admin.noRooms')}</p> : (
          <ul className="admin-list">
            {rooms.map((room) => (
              <li key={room.roomKey}>
                <button type="button" className={`admin-room${room.roomKey === selected ? ' admin-room-selected' : ''}`} onClick={() => { setSelected(room.roomKey); setConfirmDismiss(false); setUsers(null); void client.users(room.roomKey).then(setUsers, (e: unknown) => notify({ kind: 'error', text: describeError(e) })); }} data-testid={`admin-room-${room.roomKey}`}>
                  <span className="admin-room-name">{roomName(room)}</span>
                  <span className="admin-muted">{t('admin.roomCounts', { users: room.users, anchors: room.anchors, audience: room.audience, streams: room.streams })}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="admin-card" data-testid="admin-users">
        {selected === null ? <p className="admin-muted">{t('admin.selectRoom')}</p> : (
          <>
            <div className="admin-row admin-between">
              <h2>{t('admin.room')} <code>{selected}</code></h2>
              {confirmDismiss ? (
                <span className="admin-row">
                  <button type="button" className="admin-button admin-small admin-danger" data-testid="admin-dismiss-confirm" onClick={() => { setConfirmDismiss(false); void act(async () => { const r = await client.dismiss(selected); return t('admin.dismissed', { room: selected, count: r.users.length }); }); }}>{t('admin.dismissAll')}</button>
                  <button type="button" className="admin-button admin-small" onClick={() => setConfirmDismiss(false)}>{t('admin.cancel')}</button>
                </span>
              ) : (
                <button type="button" className="admin-button admin-small admin-danger" onClick={() => setConfirmDismiss(true)} data-testid="admin-dismiss">{t('admin.dismiss')}</button>
              )}
            </div>
            {users === null ? <p className="admin-muted">{t('admin.loading')}</p> : users.length === 0 ? <p className="admin-muted">{t('admin.emptyRoom')}</p> : (
              <table className="admin-table">
                <thead><tr><th>{t('admin.user')}</th><th>{t('admin.role')}</th><th>{t('admin.publishing')}</th><th>{t('admin.receives')}</th><th>{t('admin.joined')}</th><th /></tr></thead>
                <tbody>
                  {users.map((user) => (
                    <UserRow
                      key={user.userId}
                      user={user}
                      onKick={() => void act(async () => { await client.kick(selected, user.userId); return t('admin.kicked', { userId: user.userId }); })}
                      onBan={(seconds) => void act(async () => {
                        if (!Number.isInteger(seconds) || seconds < 1) throw new Error(t('admin.badSeconds'));
                        const r = await client.ban(selected, user.userId, seconds);
                        return t('admin.bannedUntil', { userId: user.userId, until: new Date(r.until).toLocaleString(locale) });
                      })}
                    />
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </div>
    </section>
  );
}
