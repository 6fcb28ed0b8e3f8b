/**
 * Must show 5 (issue 17): a server started with a self-signed certificate (CONCLAVE_TLS_CERT/KEY) serves a
 * page over https that schedules, joins over wss on the same port and decodes media.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import type { Page } from 'playwright-core';
import { genUserSig } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

/** A page served by the server itself: loads the SDK from /sdk/trtc.js on the same https origin. */
const PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body><script src="/sdk/trtc.js"></script></body></html>`;

describe('TLS: https and wss on one port', () => {
  let dir: string;
  let server: TestServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    dir = mkdtempSync(joinPath(tmpdir(), 'conclave-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', joinPath(dir, 'key.pem'), '-out', joinPath(dir, 'cert.pem')], { stdio: 'ignore' });
    writeFileSync(joinPath(dir, 'index.html'), PAGE);
    server = await startTestServer({ tls: { cert: joinPath(dir, 'cert.pem'), key: joinPath(dir, 'key.pem') }, demoDir: dir });
    // The certificate is self-signed: this browser accepts it (a real deployment uses a CA-signed one).
    browser = await launchBrowser(['--ignore-certificate-errors']);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('TLS: a server with a self-signed certificate serves a page over https that joins over wss and decodes media', async () => {
    expect(server.url).toMatch(/^https:\/\//);
    const open = async (userId: string): Promise<Page> => {
      const page = await browser.context.newPage();
      await page.goto(`${server.url}/`);
      const userSig = await genUserSig({ sdkAppId: TEST_APP.sdkAppId, secretKey: TEST_APP.secretKey, userId });
      const result = await page.evaluate(async ({ sdkAppId, userId: id, userSig: sig }) => {
        const TRTC = (window as unknown as { TRTC: { create(): Record<string, (...a: unknown[]) => Promise<unknown>> & { on(e: string, f: (d: { userId: string }) => void): void } } }).TRTC;
        const client = TRTC.create();
        (window as unknown as { client: unknown }).client = client;
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        client.on('remote-video-available', ({ userId: other }) => {
          seen.push(other);
          const view = document.createElement('div');
          view.style.cssText = 'width:320px;height:240px';
          view.className = 'remote';
          document.body.appendChild(view);
          void client.startRemoteVideo({ userId: other, streamType: 'main', view });
        });
        await client.startLocalVideo({ view: null });
        await client.enterRoom({ sdkAppId, userId: id, userSig: sig, roomId: 9601 });
        return location.protocol;
      }, { sdkAppId: TEST_APP.sdkAppId, userId, userSig });
      expect(result).toBe('https:');
      return page;
    };
    const alice = await open('alice');
    const bob = await open('bob');
    for (const page of [alice, bob]) {
      await expect.poll(() => page.evaluate(() => [...document.querySelectorAll('.remote video')].map((v) => (v as HTMLVideoElement).videoWidth).filter((w) => w > 0).length), { timeout: 45_000, interval: 500 }).toBeGreaterThan(0);
    }
    // The signalling socket the SDK opened is wss:// on the server's own port.
    const sockets = await alice.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/api/v1/config')));
    expect(sockets.every((n) => n.startsWith('https://'))).toBe(true);
    expect(server.stats().users).toBe(2);
    await alice.close();
    await bob.close();
  });
});
