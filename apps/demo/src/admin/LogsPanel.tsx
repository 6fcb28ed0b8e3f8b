import { useState, type FormEvent } from 'react';
import { localeOf, useLang, useT } from '../i18n';
import type { AdminClient, AdminLog, LogFilter } from './api';
import { describeError, type Notice } from './notice';

const CMD_TYPES = ['', 'jssdk_log', 'jssdk_event', 'jssdk_new_endreport', 'jssdk_key_metrics_report', 'server_event'];

/** Turns a datetime-local value into an ISO date (the API also takes ms). */
function toIso(local: string): string | undefined {
  if (!local) return undefined;
  const ms = Date.parse(local);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Stored logs of the app, filtered by room, user, kind and time, newest first, a page at a time. */
export function LogsPanel({ client, notify }: { client: AdminClient; notify: (n: Notice) => void }) {
  const [roomKey, setRoomKey] = useState('');
  const [userId, setUserId] = useState('');
  const [cmdType, setCmdType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [logs, setLogs] = useState<AdminLog[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const locale = localeOf(useLang());

  const filter = (): LogFilter => ({
    roomKey: roomKey.trim() || undefined, userId: userId.trim() || undefined, cmdType: cmdType || undefined,
    from: toIso(from), to: toIso(to), limit: 50,
  });

  const load = async (more: boolean) => {
    setBusy(true);
    try {
      const page = await client.logs({ ...filter(), before: more && next !== null ? next : undefined });
      setLogs(more && logs ? [...logs, ...page.logs] : page.logs);
      setNext(page.next);
    } catch (e) {
      notify({ kind: 'error', text: describeError(e) });
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void load(false);
  };

  return (
    <section className="admin-card" data-testid="admin-logs">
      <h2>{t('admin.logs')}</h2>
      <form className="admin-filters" onSubmit={submit}>
        <label>{t('admin.room')}<input value={roomKey} onChange={(e) => setRoomKey(e.target.value)} placeholder={t('admin.roomPlaceholder')} data-testid="admin-log-room" /></label>
        <label>{t('admin.user')}<input value={userId} onChange={(e) => setUserId(e.target.value)} data-testid="admin-log-user" /></label>
        <label>{t('admin.kind')}
          <select value={cmdType} onChange={(e) => setCmdType(e.target.value)} data-testid="admin-log-kind">
            {CMD_TYPES.map((type) => <option key={type} value={type}>{type || t('admin.any')}</option>)}
          </select>
        </label>
        <label>{t('admin.from')}<input type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} data-testid="admin-log-from" /></label>
        <label>{t('admin.to')}<input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} data-testid="admin-log-to" /></label>
        <button type="submit" className="admin-button admin-primary" disabled={busy} data-testid="admin-logs-load">{t('admin.search')}</button>
      </form>
      {logs === null ? <p className="admin-muted">{t('admin.logsHint')}</p> : logs.length === 0 ? <p className="admin-muted" data-testid="admin-logs-empty">{t('admin.noLogs')}</p> : (
        <>
          <ol className="admin-logs">
            {logs.map((log) => (
              <li key={log.id} data-testid="admin-log-row">
                <div className="admin-log-meta">
                  <span>{new Date(log.receivedAt).toLocaleString(locale)}</span>
                  <code>{log.cmdType}</code>
                  <span>{t('admin.logUser')} <code>{log.userId || '—'}</code></span>
                  <span>{t('admin.logRoom')} <code>{log.roomKey ?? '—'}</code></span>
                  <span className="admin-muted">{log.version}</span>
                </div>
                <pre>{log.log}</pre>
              </li>
            ))}
          </ol>
          {next !== null && <button type="button" className="admin-button" disabled={busy} onClick={() => void load(true)} data-testid="admin-logs-more">{t('admin.older')}</button>}
        </>
      )}
    </section>
  );
}
