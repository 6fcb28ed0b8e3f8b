import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { joined } from '../support/clients.js';
import { freePort } from '../../src/lifecycle/free-port.js';
import { whenReady } from '../../../../tests/kit/child-output.js';
import { Store } from '../../src/store/store.js';

/*
 * Faults (issue 30): the server killed (SIGKILL) during a write leaves no corrupt store. A real server
 * process (src/cli.ts under tsx) takes log uploads and admin bans as fast as the test can send them, and is
 * killed at a random moment mid-stream; the test then opens the database itself: it must pass SQLite's
 * integrity check and hold every write the server acknowledged, whole. The next round starts the server on
 * the same database (recovering the crashed journal) and kills it again.
 */

const APP = { sdkAppId: 1400300001, secretKey: 'crash-test-secret-0123456789', adminKey: 'crash-test-admin-key-0123456789' };
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const ROUNDS = 3;
const CONCURRENCY = 8;

/** Starts the server CLI; resolves once it listens. */
async function startCli(configPath: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', CLI], {
    env: { ...process.env, CONCLAVE_CONFIG: configPath, PORT: String(port), HOST: '127.0.0.1', CONCLAVE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await whenReady(child, { ready: 'Conclave is running at', name: 'server', timeoutMs: 30_000 });
  return { child, url: `http://127.0.0.1:${port}` };
}

describe('Faults: the server killed during a write', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the server killed (SIGKILL) during a write: no corrupt store — bans, logs and queued callbacks intact', async () => {
    const dbPath = join(dir, 'conclave.db');
    const configPath = join(dir, 'config.json');
    // The callback receiver is a port nobody listens on: every callback stays queued.
    const callback = { url: `http://127.0.0.1:${await freePort()}/callbacks`, key: 'crashCallbackKey01' };
    writeFileSync(configPath, JSON.stringify({ apps: [{ ...APP, callback }], limits: { logUploadsPerMinute: 1_000_000 }, storage: { path: dbPath } }));
    /** Every write the server acknowledged, over all rounds: log text → round, ban user → until. */
    const ackedLogs = new Set<string>();
    const ackedBans = new Map<string, number>();
    const ackedEnters = new Set<string>();
    const acked = () => ackedLogs.size + ackedBans.size + ackedEnters.size;
    let lastCount = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const { child, url } = await startCli(configPath);
      const exited = new Promise((resolve) => child.once('exit', resolve));
      let stop = false;
      let n = 0;
      const writer = async (w: number) => {
        while (!stop) {
          const i = n++;
          try {
            if (i % 10 === 0) {
              const userId = `u${round}-${w}-${i}`;
              const until = Date.now() + 3_600_000;
              const res = await fetch(`${url}/admin/v1/apps/${APP.sdkAppId}/rooms/7/users/${userId}/ban`, {
                method: 'POST', headers: { authorization: `Bearer ${APP.adminKey}`, 'content-type': 'application/json' },
                body: JSON.stringify({ seconds: 3600, reason: `round ${round}` }),
              });
              if (res.ok && ((await res.json()) as { banned?: boolean }).banned) ackedBans.set(userId, until);
            } else if (i % 10 === 5) {
              // A join answered means its enter callback (103) was queued first.
              const userId = `c${round}-${w}-${i}`;
              const client = await joined({ url }, APP, userId, '8');
              ackedEnters.add(userId);
              client.close();
            } else {
              // A log big enough that its write spans several pages of the database.
              const log = `r${round} w${w} i${i} ${'x'.repeat(6000 + (i % 7) * 1000)}`;
              const res = await fetch(`${url}/v5/AVQualityReportSvc/C2S?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, {
                method: 'POST', headers: { 'content-type': 'text/plain' },
                body: JSON.stringify({ timestamp: Date.now(), sdkAppId: APP.sdkAppId, userId: `w${w}`, version: '5.10.1', log }),
              });
              if (res.ok && ((await res.json()) as { code?: number }).code === 0) ackedLogs.add(log);
            }
          } catch {
            // the server was killed under this request: it was never acknowledged
          }
        }
      };
      const writers = Array.from({ length: CONCURRENCY }, (_, w) => writer(w));
      // Kill at a random moment once writes flow (each round a different point of the stream).
      const target = lastCount + 40 + Math.floor(Math.random() * 120);
      const deadline = Date.now() + 30_000;
      while (acked() < target && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      child.kill('SIGKILL');
      await exited;
      stop = true;
      await Promise.all(writers);
      expect(acked(), `round ${round}: writes acknowledged before the kill`).toBeGreaterThan(lastCount);
      expect(ackedEnters.size, `round ${round}: joins acknowledged`).toBeGreaterThan(0);
      lastCount = acked();

      // Load the store as the next server start will: whole, and with every acknowledged write.
      const store = Store.open(dbPath);
      try {
        expect(store.integrityProblems(), `round ${round}: integrity`).toEqual([]);
        const logs = new Set(store.queryLogs({ sdkAppId: APP.sdkAppId, limit: 1_000_000 }).map((l) => l.log));
        const missing = [...ackedLogs].filter((log) => !logs.has(log));
        expect(missing.map((log) => log.slice(0, 20)), `round ${round}: acknowledged logs missing`).toEqual([]);
        const bans = new Map(store.loadBans(Date.now()).map((b) => [b.userId, b]));
        for (const [userId, until] of ackedBans) {
          expect(bans.get(userId), `round ${round}: ban of ${userId}`).toMatchObject({ roomRef: '7', reason: expect.stringMatching(/^round \d$/) });
          expect(Math.abs(bans.get(userId)!.until - until)).toBeLessThan(60_000);
        }
        const queued = store.callbacks.peek(APP.sdkAppId, 1_000_000).map((c) => JSON.parse(c.body) as { EventType: number; EventInfo: { UserId?: string } });
        const entered = new Set(queued.filter((c) => c.EventType === 103).map((c) => c.EventInfo.UserId));
        expect([...ackedEnters].filter((userId) => !entered.has(userId)), `round ${round}: enter callbacks of acknowledged joins missing`).toEqual([]);
      } finally {
        store.close();
      }
    }
  }, 120_000);
});
