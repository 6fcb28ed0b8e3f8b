import { useCallback, useEffect, useState } from 'react';
import type { AdminBan, AdminClient } from './api';
import { describeError, type Notice } from './notice';

/** Bans in force, each with a button that lifts it. */
export function BansPanel({ client, notify }: { client: AdminClient; notify: (n: Notice) => void }) {
  const [bans, setBans] = useState<AdminBan[] | null>(null);
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
        <h2>Bans</h2>
        <button type="button" className="admin-button admin-small" onClick={() => void load()}>Refresh</button>
      </div>
      {bans === null ? <p className="admin-muted">Loading…</p> : bans.length === 0 ? <p className="admin-muted" data-testid="admin-bans-empty">Nobody is banned.</p> : (
        <table className="admin-table">
          <thead><tr><th>User</th><th>Room</th><th>Until</th><th>Reason</th><th /></tr></thead>
          <tbody>
            {bans.map((ban) => (
              <tr key={`${ban.roomKey}/${ban.userId}`} data-testid={`admin-ban-row-${ban.userId}`}>
                <td><code>{ban.userId}</code></td>
                <td><code>{ban.roomKey}</code></td>
                <td>{new Date(ban.until).toLocaleString()}</td>
                <td>{ban.reason || '—'}</td>
                <td>
                  <button type="button" className="admin-button admin-small" data-testid={`admin-unban-${ban.userId}`} onClick={() => void (async () => {
                    try {
                      await client.unban(ban.roomKey, ban.userId);
                      notify({ kind: 'ok', text: `Ban of ${ban.userId} lifted` });
                    } catch (e) {
                      notify({ kind: 'error', text: describeError(e) });
                    }
                    await load();
                  })()}>Lift</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
