import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, metricsText, startTestServer } from '../support/clients.js';
import { Store, type NewLog } from '../../src/store/store.js';

/*
 * Issue 38 item 10: uploaded logs (which need no credential) have a storage quota per app and in total; past
 * it the oldest uploads are dropped (docs/behaviour.md §10.1), never the server's own audit events.
 */

const entry = (sdkAppId: number, n: number, bytes: number, cmdType = 'jssdk_log'): NewLog => ({
  sdkAppId, roomRef: '1', userId: `u${n}`, cmdType, version: '5.10.1', clientTime: null, receivedAt: 1000 + n, log: `${String(n).padStart(4, '0')}`.padEnd(bytes, 'x'),
});
const ids = (store: Store, sdkAppId: number, cmdType = 'jssdk_log') => store.queryLogs({ sdkAppId, cmdType, limit: 100 }).map((l) => l.userId).reverse();

describe('log storage quota', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-log-quota-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('38.10 uploads past an app\'s quota drop that app\'s oldest uploads; past the total, the largest app\'s; audit events are kept; the count survives a restart', () => {
    const path = join(dir, 'quota.db');
    const quota = { perAppBytes: 3000, totalBytes: 5000 };
    let store = Store.open(path);
    try {
      store.insertLog(entry(1, 0, 500, 'server_event'));
      for (let n = 1; n <= 3; n++) expect(store.insertUploadedLog(entry(1, n, 1000), quota).dropped).toEqual({ app: 0, total: 0 });
      expect(store.logBytes()).toEqual({ total: 3000, byApp: { 1: 3000 } });
      // A fourth thousand bytes of app 1: its oldest upload goes, its audit event stays.
      expect(store.insertUploadedLog(entry(1, 4, 1000), quota).dropped).toEqual({ app: 1, total: 0 });
      expect(ids(store, 1)).toEqual(['u2', 'u3', 'u4']);
      expect(ids(store, 1, 'server_event')).toEqual(['u0']);
      // App 2 fills the rest of the total; past it, app 1 (the largest) loses its oldest, not app 2.
      expect(store.insertUploadedLog(entry(2, 5, 1500), quota).dropped).toEqual({ app: 0, total: 0 });
      expect(store.insertUploadedLog(entry(2, 6, 1000), quota).dropped).toEqual({ app: 0, total: 1 });
      expect(ids(store, 1)).toEqual(['u3', 'u4']);
      expect(ids(store, 2)).toEqual(['u5', 'u6']);
      expect(store.logBytes()).toEqual({ total: 4500, byApp: { 1: 2000, 2: 2500 } });
    } finally {
      store.close();
    }
    // Reopened (a restart): the stored bytes are counted again, so the quota still holds.
    store = Store.open(path);
    try {
      expect(store.logBytes()).toEqual({ total: 4500, byApp: { 1: 2000, 2: 2500 } });
      expect(store.purgeLogs(1004)).toBe(2); // u0 (the audit event) and u3 are older than that
      expect(store.logBytes()).toEqual({ total: 3500, byApp: { 1: 1000, 2: 2500 } });
    } finally {
      store.close();
    }
  });
});

describe('log uploads over the quota', () => {
  const APP = { sdkAppId: 1400330001, secretKey: 'log-quota-app-secret-0123456789ab', adminKey: 'log-quota-admin-key-0123456789' };
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ apps: [APP], limits: { logUploadBytes: 4096, logBytesPerApp: 8192, logBytesTotal: 65536 } });
  });
  afterAll(() => server.close());

  it('38.10 an address that uploads without end keeps the app at its quota: the oldest uploads are dropped and counted', async () => {
    const upload = (n: number) => httpJson(`${server.url}/v5/AVQualityReportSvc/C2S?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, {
      method: 'POST', body: JSON.stringify({ timestamp: Date.now(), sdkAppId: APP.sdkAppId, userId: `u${n}`, version: '5.10.1', log: 'y'.repeat(3000) }),
    });
    for (let n = 0; n < 6; n++) expect((await upload(n)).status, `upload ${n}`).toBe(200);
    const stored = await httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/logs?cmdType=jssdk_log`, { headers: { authorization: `Bearer ${APP.adminKey}` } });
    expect((stored.body.logs as { userId: string }[]).map((l) => l.userId)).toEqual(['u5', 'u4']);
    const metrics = await metricsText(server);
    expect(metrics).toMatch(/conclave_logs_dropped_total\{reason="app_quota"\} 4/);
    expect(metrics).toMatch(/conclave_log_bytes_stored 6000/);
  });
});
