import { useCallback, useEffect, useState } from 'react';
import { localeOf, useLang, useT } from '../i18n';
import type { AdminBan, AdminClient } from './api';
import { describeError, type Notice } from './notice';

/** Bans in force, each with a button that lifts it. */
export function BansPanel({ client, notify }: { client: AdminClient; notify: (n: Notice) => void }) {
  const [bans, setBans] = useState<AdminBan[] | null>(null);
  const t = useT();
  const locale = localeOf(useLang());
  const load = useCallback(async () => {
    try {
      setBans(await client.bans());
    } catch (e) {
      notify({ kind: 'error', text: describeError(e) });
    }
  }, [client, notify]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="admin-card" data-testid="admin-bans">
      <div className="admin-row admin-between">
        <h2>{t('admin.bans')}</h2>
        <button type="button" className="admin-button admin-small" onClick={() => void load()}>{t('admin.refresh')}</button>
      </div>
      {bans === null ? <p className="admin-muted">{t('admin.loading')}</p> : bans.length === 0 ? <p className="admin-muted" data-testid="admin-bans-empty">{t('admin.noBans')}</p> : (
        <table className="admin-table">
          <thead><tr><th>{t('admin.user')}</th><th>{t('admin.room')}</th><th>{t('admin.until')}</th><th>{t('admin.reason')}</th><th /></tr></thead>
          <tbody>
            {bans.map((ban) => (
              <tr key={`${ban.roomKey}/${ban.userId}`} data-testid={`admin-ban-row-${ban.userId}`}>
                <td><code>{ban.userId}</code></td>
                <td><code>{ban.roomKey}</code></td>
                <td>{new Date(ban.until).toLocaleString(locale)}</td>
                <td>{ban.reason || '—'}</td>
                <td>
                  <button type="button" className="admin-button admin-small" data-testid={`admin-unban-${ban.userId}`} onClick={() => void (async () => {
                    try {
                      await client.unban(ban.roomKey, ban.userId);
                      notify({ kind: 'ok', text: t('admin.lifted', { userId: ban.userId }) });
                    } catch (e) {
                      notify({ kind: 'error', text: describeError(e) });
                    }
                    await load();
                  })()}>{t('admin.lift')}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
