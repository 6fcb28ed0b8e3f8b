import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useT } from '../i18n';
import { LanguagePicker } from '../LanguagePicker';
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
  const t = useT();

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
      setError(t('admin.badAppId'));
      return;
    }
    if (adminKey.trim() === '') {
      setError(t('admin.keyRequired'));
      return;
    }
    void connect({ server, sdkAppId: id, adminKey: adminKey.trim() });
  };

  const useDev = async () => {
    const dev = await devAdminCredentials(server);
    if (!dev) {
      setError(t('admin.noDev'));
      return;
    }
    setSdkAppId(String(dev.sdkAppId));
    setAdminKey(dev.adminKey);
    await connect({ server, ...dev });
  };

  return (
    <form className="admin-card admin-signin" onSubmit={submit} data-testid="admin-signin">
      <h2>{t('admin.signIn')}</h2>
      <p className="admin-muted">{t('admin.signInNote')}</p>
      <label>
        {t('admin.server')}
        <input value={server} onChange={(e) => setServer(e.target.value)} data-testid="admin-server-url" autoComplete="url" />
      </label>
      <label>
        {'sdkAppId'}
        <input value={sdkAppId} onChange={(e) => setSdkAppId(e.target.value)} inputMode="numeric" data-testid="admin-app-id" placeholder="1400000001" />
      </label>
      <label>
        {t('admin.adminKey')}
        <input value={adminKey} onChange={(e) => setAdminKey(e.target.value)} type="password" autoComplete="off" data-testid="admin-key" />
      </label>
      <div className="admin-row">
        <button type="submit" className="admin-button admin-primary" disabled={busy} data-testid="admin-connect">{busy ? t('admin.connecting') : t('admin.connect')}</button>
        {devAvailable && (
          <button type="button" className="admin-button" onClick={() => void useDev()} disabled={busy} data-testid="admin-use-dev">{t('admin.useDev')}</button>
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
  const t = useT();

  useEffect(() => {
    document.title = t('admin.title');
  }, [t]);

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
        <h1>{t('admin.title')}</h1>
        {client && info && (
          <div className="admin-app-summary" data-testid="admin-app-summary">
            <strong>{info.name ?? t('admin.app', { id: info.sdkAppId })}</strong>
            <span className="admin-muted">sdkAppId {info.sdkAppId}</span>
            <span className={`admin-badge admin-billing-${info.billing}`}>{t(`admin.billing.${info.billing}`)}</span>
            {info.requirePrivateMapKey && <span className="admin-badge">{t('admin.privateMapKey')}</span>}
            <span className="admin-muted" data-testid="admin-app-counts">{t('admin.counts', { rooms: info.rooms, users: info.users })}</span>
            <button type="button" className="admin-button admin-small" onClick={() => { setClient(null); setInfo(null); setNotice(null); }} data-testid="admin-sign-out">{t('admin.signOut')}</button>
          </div>
        )}
        <LanguagePicker testId="admin-language" />
      </header>
      {!client || !info ? (
        <SignIn onConnected={(c, i) => { setClient(c); setInfo(i); }} />
      ) : (
        <main>
          <nav className="admin-tabs" role="tablist">
            {(['rooms', 'bans', 'logs'] as const).map((name) => (
              <button key={name} type="button" role="tab" aria-selected={tab === name} className={`admin-tab${tab === name ? ' admin-tab-active' : ''}`} onClick={() => setTab(name)} data-testid={`admin-tab-${name}`}>
                {t(`admin.${name}`)}
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
