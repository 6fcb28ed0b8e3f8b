import type { IncomingMessage } from 'node:http';
import { HTTP_CODE, LOG_UPLOAD_PATH, SERVER_CODE } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../src/config/config.js';
import type { RunningServer } from '../../src/server.js';
import { httpJson, startTestServer } from '../support/clients.js';
import { cloudApiHeaders } from '../support/cloud-api-signer.js';
import { clientAddress } from '../../src/http/respond.js';

/*
 * Issue 38 item 7: behind a proxy the client is the right-most X-Forwarded-For address no trusted proxy wrote,
 * and lockouts key on (address, credential). The README's nginx example appends the peer's address to whatever
 * the client sent, so the first entry is the client's to choose.
 */

const request = (peer: string, forwardedFor?: string) =>
  ({ headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

const KEY = { secretId: 'AKIDproxyTestKeyOne0001', secretKey: 'proxy-test-cloud-secret-0123456789' };
const OTHER_KEY = { secretId: 'AKIDproxyTestKeyTwo0002', secretKey: 'proxy-test-cloud-secret-abcdefghij' };
const APP = { sdkAppId: 1400380701, secretKey: 'proxy-test-user-sig-key-0123456789', adminKey: 'proxy-test-admin-key-0123456789', cloudApiKeys: [KEY, OTHER_KEY] };
const APP_B = { sdkAppId: 1400380702, secretKey: 'proxy-test-user-sig-key-b123456789', adminKey: 'proxy-test-admin-key-b123456789' };
/** The app's backend, behind the same proxy as everyone. */
const BACKEND = '203.0.113.10';
/** Someone who writes the backend's address into X-Forwarded-For. */
const ATTACKER = '198.51.100.66';

describe('38.7 client addresses behind a proxy', () => {
  it('38.7 behind a trusted proxy the client is the right-most address that no trusted proxy wrote', () => {
    // No proxy trusted: the socket's address, whatever the header says.
    expect(clientAddress(request('192.0.2.1', '6.6.6.6'), false)).toBe('192.0.2.1');
    // trustProxy true: the direct peer is the one proxy; what it appended (the right-most entry) is the client.
    expect(clientAddress(request('127.0.0.1', '6.6.6.6, 203.0.113.9'), true)).toBe('203.0.113.9');
    expect(clientAddress(request('127.0.0.1', '203.0.113.9'), true)).toBe('203.0.113.9');
    expect(clientAddress(request('127.0.0.1'), true)).toBe('127.0.0.1');
    // A list of proxies: skip every entry they wrote, from the right.
    const proxies = ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'];
    expect(clientAddress(request('::ffff:127.0.0.1', '6.6.6.6, 198.51.100.7, 10.1.2.3'), proxies)).toBe('198.51.100.7');
    expect(clientAddress(request('fd00::5', '2001:db8::7, fd00::9'), proxies)).toBe('2001:db8::7');
    // A peer that is not a trusted proxy: its own address, its header ignored.
    expect(clientAddress(request('192.0.2.1', '6.6.6.6'), proxies)).toBe('192.0.2.1');
    // Every entry a trusted proxy: the furthest one.
    expect(clientAddress(request('10.0.0.1', '10.0.0.3, 10.0.0.2'), proxies)).toBe('10.0.0.3');
    // Ports and mapped addresses as some proxies write them.
    expect(clientAddress(request('127.0.0.1', '203.0.113.9:4711'), true)).toBe('203.0.113.9');
    expect(clientAddress(request('127.0.0.1', '[2001:db8::1]:443'), true)).toBe('2001:db8::1');
    expect(clientAddress(request('127.0.0.1', '::ffff:203.0.113.9'), true)).toBe('203.0.113.9');
    // Something that is no address where a proxy should have written one: the proxy that passed it on.
    expect(clientAddress(request('10.0.0.1', 'junk, 10.0.0.2'), proxies)).toBe('10.0.0.2');
    expect(clientAddress(request('127.0.0.1', 'unknown'), true)).toBe('127.0.0.1');
  });

  it('38.7 trustProxy takes true, false or a list of proxy addresses and CIDR ranges; anything else is a configuration error', () => {
    expect(resolveConfig({ trustProxy: ['10.0.0.0/8', '::1', '127.0.0.1'] }, {}).trustProxy).toEqual(['10.0.0.0/8', '::1', '127.0.0.1']);
    expect(resolveConfig({}, { CONCLAVE_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(resolveConfig({}, { CONCLAVE_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => resolveConfig({ trustProxy: ['10.0.0.0/33'] }, {})).toThrow(ConfigError);
    expect(() => resolveConfig({}, { CONCLAVE_TRUST_PROXY: 'nginx' })).toThrow(/CONCLAVE_TRUST_PROXY/);
  });

  describe('against a server behind a proxy (trustProxy: true; the test client is the proxy)', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startTestServer({ apps: [APP, APP_B], trustProxy: true, limits: { logUploadsPerMinute: 3 } });
    });
    afterAll(() => server.close());

    it('38.7 rotating the X-Forwarded-For entry a client writes does not escape the log-upload limit', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await httpJson(`${server.url}${LOG_UPLOAD_PATH}?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, {
          method: 'POST', headers: { 'x-forwarded-for': `10.9.9.${i}, 203.0.113.9` },
          body: JSON.stringify({ timestamp: Date.now(), sdkAppId: APP.sdkAppId, userId: 'u', version: '5.10.1', log: `n${i}` }),
        });
        statuses.push(r.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
    });

    it('38.7 failed signatures lock out the (address, SecretId) that failed, not the backend that writes it nor the address\'s other keys', async () => {
      let room = 0;
      const send = (from: string, key: { secretId: string; secretKey: string }, forwardedFor = from) => {
        // A room of its own per request, so no two requests carry the same signature (that would be a replay).
        const body = JSON.stringify({ SdkAppId: APP.sdkAppId, RoomId: 9000 + room++ });
        return httpJson(`${server.url}/`, { method: 'POST', body, headers: { ...cloudApiHeaders(key, 'DismissRoom', body), 'x-forwarded-for': forwardedFor } })
          .then((r) => (r.body.Response as { Error?: { Code: string } }).Error?.Code ?? '');
      };
      for (let i = 0; i < 31; i++) {
        expect(await send(ATTACKER, { ...KEY, secretKey: 'a-wrong-secret-key-0123456789' }, `${BACKEND}, ${ATTACKER}`)).toMatch(/^(AuthFailure.SignatureFailure|RequestLimitExceeded)$/);
      }
      // The attacker's address is locked out for that SecretId…
      expect(await send(ATTACKER, KEY)).toBe('RequestLimitExceeded');
      // …not for the app's other key, and the backend (whose address it wrote) is not locked out at all.
      expect(await send(ATTACKER, OTHER_KEY)).toBe('FailedOperation.RoomNotExist');
      expect(await send(BACKEND, KEY)).toBe('FailedOperation.RoomNotExist');
    });

    it('38.7 wrong admin keys lock out the (address, app) that failed, not the backend that writes it nor another app', async () => {
      const admin = (from: string, app: { sdkAppId: number }, key: string, forwardedFor = from) =>
        httpJson(`${server.url}/admin/v1/apps/${app.sdkAppId}`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': forwardedFor } });
      for (let i = 0; i < 21; i++) expect([403, 429]).toContain((await admin(ATTACKER, APP, 'not-the-admin-key-0123456789', `${BACKEND}, ${ATTACKER}`)).status);
      const locked = await admin(ATTACKER, APP, APP.adminKey);
      expect([locked.status, locked.body.code]).toEqual([429, SERVER_CODE.RATE_LIMITED]);
      expect((await admin(ATTACKER, APP_B, APP_B.adminKey)).status).toBe(200);
      expect((await admin(ATTACKER, APP_B, 'not-the-admin-key-0123456789')).body.code).toBe(HTTP_CODE.ADMIN_KEY_INVALID);
      expect((await admin(BACKEND, APP, APP.adminKey)).status).toBe(200);
    });
  });
});
