import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { startTestServer } from '../support/clients.js';

/*
 * Issue 38 item 8: the dev app's keys (GET /api/dev/app) go to this machine's own browser only: no CORS, a
 * loopback Host and Origin, and nothing a reverse proxy forwarded.
 */

const DEV = { sdkAppId: 1400000001, secretKey: 'dev-app-test-secret-key-0123456789', adminKey: 'dev-app-test-admin-key-0123456789', name: 'dev' };

/** GET /api/dev/app with exactly these headers (node:http, so Host and Origin are the test's to set). */
function devApp(server: RunningServer, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: '/api/dev/app', method, headers: { host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('38.8 the dev app keys stay on the developer\'s machine', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ apps: [DEV], devMode: true });
  });
  afterAll(() => server.close());

  it('38.8 GET /api/dev/app answers this machine\'s own pages (the demo, same origin) with no CORS header', async () => {
    for (const headers of [
      {}, // curl, or the demo's same-origin GET (a browser sends no Origin with it)
      { origin: `http://127.0.0.1:${server.port}` },
      { host: `localhost:${server.port}`, origin: 'http://localhost:5173' }, // the demo's Vite dev server
      { host: `[::1]:${server.port}` },
    ] as Record<string, string>[]) {
      const answer = await devApp(server, headers);
      expect([answer.status, JSON.parse(answer.body) as unknown], JSON.stringify(headers)).toEqual([200, { sdkAppId: DEV.sdkAppId, secretKey: DEV.secretKey, adminKey: DEV.adminKey }]);
      expect(answer.headers['access-control-allow-origin'], JSON.stringify(headers)).toBeUndefined();
    }
  });

  it('38.8 a foreign page, a foreign Host (DNS rebinding) and anything a proxy forwarded get a 404 without the keys', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://127.0.0.1.evil.example' },
      { host: 'evil.example' },
      { host: `rebind.evil.example:${server.port}`, origin: `http://rebind.evil.example:${server.port}` },
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-host': 'rtc.example.com' },
      { 'x-forwarded-proto': 'https' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ] as Record<string, string>[]) {
      const answer = await devApp(server, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(404);
      expect(answer.body).not.toContain(DEV.secretKey);
      expect(answer.body).not.toContain(DEV.adminKey);
      expect(answer.headers['access-control-allow-origin'], JSON.stringify(headers)).toBeUndefined();
    }
    // No CORS pre-flight lets a page read it either.
    const preflight = await devApp(server, { origin: 'https://evil.example', 'access-control-request-method': 'GET' }, 'OPTIONS');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
