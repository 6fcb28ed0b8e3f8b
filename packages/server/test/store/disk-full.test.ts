import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HTTP_CODE, SCHEDULE_PATH } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joined, type WsClient } from '../support/clients.js';
import { startTestServer } from '../support/clients.js';

/*
 * Faults (issue 30): the disk full for logs. The server's database lives on a 640 KiB tmpfs the test mounts
 * (root is needed, as for the network-namespace fault tests: a failed mount fails the test, it never skips);
 * uploads fill it. The recordings' half is tests/e2e/src/faults-recording.e2e.ts.
 */

const APP = { sdkAppId: 1400320001, secretKey: 'disk-full-secret-0123456789', adminKey: 'disk-full-admin-key-0123456789' };

describe('Faults: the disk full for logs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-full-'));
  let server: RunningServer;
  const clients: WsClient[] = [];

  beforeAll(async () => {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=640k', 'tmpfs', dir], { stdio: 'pipe' });
    } catch (error) {
      throw new Error(`this test mounts a small tmpfs to fill, which needs root (uid ${process.getuid?.()}): ${(error as Error).message}`);
    }
    server = await startTestServer({ apps: [APP], storage: { path: join(dir, 'conclave.db') }, limits: { logUploadsPerMinute: 100_000, logUploadBytes: 256 * 1024 } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    try {
      execFileSync('umount', [dir], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const upload = (log: string) => httpJson(`${server.url}/v5/AVQualityReportSvc/C2S?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, {
    method: 'POST', headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ timestamp: Date.now(), sdkAppId: APP.sdkAppId, userId: 'filler', version: '5.10.1', log }),
  });

  it('the disk full for logs: the log upload answers STORAGE_FULL (HTTP 507), the server keeps serving rooms', async () => {
    const alice = await joined(server, APP, 'alice', '301');
    clients.push(alice);
    // Fill the disk: distinct text so nothing compresses the pages away.
    const filler = (i: number) => `${i} ${Array.from({ length: 2000 }, (_, k) => ((i * 7919 + k * 104729) % 1_000_003).toString(36)).join(' ')}`;
    let full: Awaited<ReturnType<typeof upload>> | undefined;
    let stored = 0;
    for (let i = 0; i < 200 && !full; i++) {
      const res = await upload(filler(i));
      if (res.status === 200) stored++;
      else full = res;
    }
    expect(stored).toBeGreaterThan(0);
    expect(full?.status).toBe(507);
    expect(full?.body).toEqual({ code: HTTP_CODE.STORAGE_FULL, message: expect.stringMatching(/disk holding the database .* is full: nothing was stored/) });
    // Again: the same clear answer, not a crash.
    expect((await upload(filler(1000))).body.code).toBe(HTTP_CODE.STORAGE_FULL);

    // The server keeps serving rooms: scheduling, a join and its push to the user inside, the health check.
    const form = new URLSearchParams({ sdkAppId: String(APP.sdkAppId), userId: 'bob', userSig: await genUserSig({ ...APP, userId: 'bob' }), groupId: '301', isStrGroupId: 'false', sdkVersion: '5.10.1' });
    expect((await httpJson(`${server.url}${SCHEDULE_PATH}`, { method: 'POST', body: form })).body.code).toBe(0);
    clients.push(await joined(server, APP, 'bob', '301'));
    expect((await alice.waitForPush('peer-join', (p) => (p.data as { userId: string }).userId === 'bob')).data).toMatchObject({ userId: 'bob' });
    expect((await alice.request('heartbeat', {})).code).toBe(0);
    expect((await httpJson(`${server.url}/healthz`)).status).toBe(200);
    // The logs stored before the disk filled are whole and readable.
    const logs = await httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/logs?limit=500`, { headers: { authorization: `Bearer ${APP.adminKey}` } });
    expect((logs.body.logs as unknown[]).length).toBe(stored);
  });
});
