import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { AdminClient, devAdminCredentials, type AdminAppInfo } from './api';
import { BansPanel } from './BansPanel';
import { LogsPanel } from './LogsPanel';
import { describeError, type Notice } from './notice';
import { RoomsPanel } from './RoomsPanel';

function SignIn({ onConnected }: { onConnected: (client: AdminClient, info: AdminAppInfo) => void }) {
  const [server, setServer] = useState(window.location.origin);
  const [sdkAppId, setSdkAppId] = useState('');
  const [adminKey, setAdminKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [devAvailable, setDevAvailable] = useState(false);

  useEffect(() => {
    let active = true;
    devAdminCredentials(window.location.origin).then((dev) => {
      if (active) setDevAvailable(dev !== null);
    }, (error: unknown) => console.warn('dev admin credentials unavailable:', error));
    return () => {
      active = false;
    };
  }, []);

  const connect = async (credentials: { server: string; sdkAppId: number; adminKey: string }) => {
    setBusy(true);
    setError(null);
    try {
      const client = new AdminClient(credentials);
      onConnected(client, await client.app());
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const id = Number(sdkAppId);
    if (!Number.isSafeInteger(id) || id <= 0) {
      setError('sdkAppId must be a positive integer');
      return;
    }
    if (adminKey.trim() === '') {
      setError('the admin key is required');
      return;
    }
    void connect({ server, sdkAppId: id, adminKey: adminKey.trim() });
  };

  const useDev = async () => {
    const dev = await devAdminCredentials(server);
    if (!dev) {
      setError('this server does not run the dev app');
      return;
    }
    setSdkAppId(String(dev.sdkAppId));
    setAdminKey(dev.adminKey);
    await connect({ server, ...dev });
  };

  return (
    <form className="admin-card admin-signin" onSubmit={submit} data-testid="admin-signin">
      <h2>Sign in to an app</h2>
      <p className="admin-muted">The admin key of one app opens that app only. It is kept in this tab's memory, never stored.</p>
      <label>
        Server
        <input value={server} onChange={(e) => setServer(e.target.value)} data-testid="admin-server-url" autoComplete="url" />
      </label>
      <label>
        sdkAppId
        <input value={sdkAppId} onChange={(e) => setSdkAppId(e.target.value)} inputMode="numeric" data-testid="admin-app-id" placeholder="1400000001" />
      </label>
      <label>
        Admin key
        <input value={adminKey} onChange={(e) => setAdminKey(e.target.value)} type="password" autoComplete="off" data-testid="admin-key" />
      </label>
      <div className="admin-row">
        <button type="submit" className="admin-button admin-primary" disabled={busy} data-testid="admin-connect">{busy ? 'Connecting…' : 'Connect'}</button>
        {devAvailable && (
          <button type="button" className="admin-button" onClick={() => void useDev()} disabled={busy} data-testid="admin-use-dev">Use the dev app</button>
        )}
      </div>
      {error && <p className="admin-error" role="alert" data-testid="admin-error">{error}</p>}
    </form>
  );
}

/** The admin page: sign in with an app's admin key, then rooms and users (kick, ban, dismiss), bans and logs. */
export function AdminApp() {
  const [client, setClient] = useState<AdminClient | null>(null);
  const [info, setInfo] = useState<AdminAppInfo | null>(null);
  const [tab, setTab] = useState<'rooms' | 'bans' | 'logs'>('rooms');
  const [notice, setNotice] = useState<Notice>(null);

  const refreshInfo = useCallback(async () => {
    if (!client) return;
    try {
      setInfo(await client.app());
    } catch (e) {
      setNotice({ kind: 'error', text: describeError(e) });
    }
  }, [client]);

  return (
    <div className="admin-page">
      <header className="admin-header">
        <h1>Conclave admin</h1>
        {client && info && (
          <div className="admin-app-summary" data-testid="admin-app-summary">
            <strong>{info.name ?? `App ${info.sdkAppId}`}</strong>
            <span className="admin-muted">sdkAppId {info.sdkAppId}</span>
            <span className={`admin-badge admin-billing-${info.billing}`}>{info.billing}</span>
            {info.requirePrivateMapKey && <span className="admin-badge">privateMapKey required</span>}
            <span className="admin-muted" data-testid="admin-app-counts">{info.rooms} rooms · {info.users} users</span>
            <button type="button" className="admin-button admin-small" onClick={() => { setClient(null); setInfo(null); setNotice(null); }} data-testid="admin-sign-out">Sign out</button>
          </div>
        )}
      </header>
      {!client || !info ? (
        <SignIn onConnected={(c, i) => { setClient(c); setInfo(i); }} />
      ) : (
        <main>
          <nav className="admin-tabs" role="tablist">
            {(['rooms', 'bans', 'logs'] as const).map((t) => (
              <button key={t} type="button" role="tab" aria-selected={tab === t} className={`admin-tab${tab === t ? ' admin-tab-active' : ''}`} onClick={() => setTab(t)} data-testid={`admin-tab-${t}`}>
                {t === 'rooms' ? 'Rooms' : t === 'bans' ? 'Bans' : 'Logs'}
              </button>
            ))}
          </nav>
          {notice && (
            <p className={notice.kind === 'ok' ? 'admin-ok' : 'admin-error'} role="status" data-testid="admin-notice">{notice.text}</p>
          )}
          {tab === 'rooms' && <RoomsPanel client={client} notify={setNotice} onChange={() => void refreshInfo()} />}
          {tab === 'bans' && <BansPanel client={client} notify={setNotice} />}
          {tab === 'logs' && <LogsPanel client={client} notify={setNotice} />}
        </main>
      )}
    </div>
  );
}
