import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { HTTP_CODE, SERVER_CODE } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joined, metricsText, startTestServer, type WsClient } from '../support/clients.js';

const APP = { sdkAppId: 1400200001, secretKey: 'endpoints-test-secret-0123456789', adminKey: 'endpoints-admin-key-0123456789' };
const UNPAID = { sdkAppId: 1400200002, secretKey: 'endpoints-unpaid-secret-01234567', billing: 'no-package' as const };

const logBody = (userId: string, log: string, extra: Record<string, unknown> = {}) => ({ timestamp: Date.now(), sdkAppId: APP.sdkAppId, userId, version: '5.10.1', log, ...extra });

describe('endpoints the SDK calls', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  const upload = (body: unknown, opts: { cmdtype?: string; sdkappid?: number | string; gzip?: boolean; header?: boolean; raw?: Buffer } = {}) => {
    const json = Buffer.from(JSON.stringify(body));
    const data = opts.raw ?? (opts.gzip ? gzipSync(json) : json);
    const query = `random=${Math.random()}&sdkappid=${opts.sdkappid ?? APP.sdkAppId}&cmdtype=${opts.cmdtype ?? 'jssdk_log'}`;
    return httpJson(`${server.url}/v5/AVQualityReportSvc/C2S?${query}`, {
      method: 'POST', body: data,
      headers: { 'content-type': 'text/plain', ...(opts.gzip && opts.header !== false ? { 'content-encoding': 'gzip' } : {}) },
    });
  };
  const logs = (query: string) => httpJson(`${server.url}/admin/v1/apps/${APP.sdkAppId}/logs?${query}`, { headers: { authorization: `Bearer ${APP.adminKey}` } });

  beforeAll(async () => {
    server = await startTestServer({ apps: [APP, UNPAID], limits: { logUploadBytes: 64 * 1024 } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('stores log uploads (plain, gzip with and without the header) and reads them back by room, user and time', async () => {
    const before = Date.now();
    clients.push(await joined(server, APP, 'logger', '77'));
    expect((await upload(logBody('logger', 'line 1\nline 2'))).body).toEqual({ code: 0, message: 'ok' });
    expect((await upload(logBody('logger', 'zipped '.repeat(1000)), { gzip: true, cmdtype: 'jssdk_event' })).body.code).toBe(0);
    expect((await upload(logBody('logger', 'zipped, no header'), { gzip: true, header: false })).body.code).toBe(0);
    expect((await upload(logBody('other', 'about a string room', { strRoomId: 'lobby' }))).body.code).toBe(0);
    expect((await upload(logBody('nobody', 'no room known'))).body.code).toBe(0);

    const byRoom = await logs('roomKey=77');
    expect(byRoom.status).toBe(200);
    expect((byRoom.body.logs as { log: string; userId: string }[]).map((l) => l.log)).toEqual(['zipped, no header', 'zipped '.repeat(1000), 'line 1\nline 2']);
    expect((await logs(`roomKey=${encodeURIComponent('s:lobby')}`)).body.logs).toEqual([expect.objectContaining({ userId: 'other', roomKey: 's:lobby' })]);
    expect((await logs('userId=nobody')).body.logs).toEqual([expect.objectContaining({ roomKey: null, cmdType: 'jssdk_log', version: '5.10.1' })]);
    expect((await logs('cmdType=jssdk_event')).body.logs).toHaveLength(1);
    expect((await logs(`from=${before}`)).body.logs).toHaveLength(5);
    expect((await logs(`to=${new Date(before).toISOString()}`)).body.logs).toHaveLength(0);
    const page = await logs('limit=2');
    expect(page.body.logs).toHaveLength(2);
    expect((await logs(`limit=2&before=${page.body.next as number}`)).body.logs).toHaveLength(2);
    expect((await logs('limit=0')).status).toBe(400);
  });

  it('validates log uploads: query, body shape, sizes (including a gzip bomb), and rate', async () => {
    const bad = [
      await upload(logBody('u', 'x'), { cmdtype: 'jssdk_nonsense' }),
      await upload(logBody('u', 'x'), { sdkappid: 'abc' }),
      await upload({ ...logBody('u', 'x'), sdkAppId: 1400200009 }),
      await upload({ ...logBody('u', 'x'), log: 42 }),
      await upload({ ...logBody('u', 'x'), userId: '' }),
      await upload(null, { raw: Buffer.from('{not json') }),
    ];
    for (const r of bad) expect([r.status, r.body.code]).toEqual([400, SERVER_CODE.INVALID_PARAMETER]);
    expect((await upload(logBody('u', 'x'), { sdkappid: 1400299999 })).body.code).toBe(SERVER_CODE.UNKNOWN_APP);
    expect((await upload(null, { raw: Buffer.from([0x1f, 0x8b, 1, 2, 3]) })).body.code).toBe(HTTP_CODE.BAD_ENCODING);
    const big = await upload(logBody('u', randomBytes(48 * 1024).toString('base64')));
    expect([big.status, big.body.code]).toEqual([413, SERVER_CODE.MESSAGE_TOO_LARGE]);
    const bomb = await upload(null, { raw: gzipSync(Buffer.alloc(10 * 1024 * 1024, 0x20)), gzip: true });
    expect([bomb.status, bomb.body.code]).toEqual([413, SERVER_CODE.MESSAGE_TOO_LARGE]);
    expect((await httpJson(`${server.url}/v5/AVQualityReportSvc/C2S?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`)).status).toBe(405);
  });

  it('rate-limits uploads per address with a coded 429, and the server goes on', async () => {
    const limited = await startTestServer({ apps: [APP], limits: { logUploadsPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await httpJson(`${limited.url}/v5/AVQualityReportSvc/C2S?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, { method: 'POST', body: JSON.stringify(logBody('r', `n${i}`)) });
        statuses.push(r.status);
        if (r.status === 429) expect(r.body.code).toBe(SERVER_CODE.RATE_LIMITED);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect((await httpJson(`${limited.url}/healthz`)).body.status).toBe('ok');
    } finally {
      await limited.close();
    }
  });

  it('keeps stored logs and bans across a restart (SQLite file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conclave-store-'));
    const path = join(dir, 'nested', 'conclave.db');
    try {
      const first = await startTestServer({ apps: [APP], storage: { path } });
      await httpJson(`${first.url}/v5/AVQualityReportSvc/C2S?sdkappid=${APP.sdkAppId}&cmdtype=jssdk_log`, { method: 'POST', body: JSON.stringify(logBody('durable', 'kept')) });
      await httpJson(`${first.url}/admin/v1/apps/${APP.sdkAppId}/rooms/5/users/durable/ban`, { method: 'POST', headers: { authorization: `Bearer ${APP.adminKey}` } });
      await first.close();
      const second = await startTestServer({ apps: [APP], storage: { path } });
      try {
        const auth = { headers: { authorization: `Bearer ${APP.adminKey}` } };
        expect((await httpJson(`${second.url}/admin/v1/apps/${APP.sdkAppId}/logs?userId=durable&cmdType=jssdk_log`, auth)).body.logs).toEqual([expect.objectContaining({ log: 'kept' })]);
        expect((await httpJson(`${second.url}/admin/v1/apps/${APP.sdkAppId}/bans`, auth)).body.bans).toEqual([expect.objectContaining({ userId: 'durable', roomKey: '5' })]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('authorises AI denoise for a valid userSig and refuses bad input with docs/behaviour.md §8 codes', async () => {
    const userSig = await genUserSig({ ...APP, userId: 'den' });
    const url = (q: Record<string, string>) => `${server.url}/api/v1/audioAiAuth?${new URLSearchParams(q)}`;
    const ok = await httpJson(url({ sdkAppId: String(APP.sdkAppId), userId: 'den', userSig, timestamp: '1700000000' }));
    expect(ok.body).toEqual({ data: { errCode: 0, errMsg: '', status: 1, sign: createHmac('sha256', APP.secretKey).update(`${APP.sdkAppId}:den:1700000000`).digest('hex') } });
    const refused = await httpJson(url({ sdkAppId: String(APP.sdkAppId), userId: 'den', userSig: 'forged', timestamp: '1' }));
    expect(refused.body).toMatchObject({ data: { errCode: 1, status: 0, sign: '' } });
    expect((await httpJson(url({ sdkAppId: String(APP.sdkAppId), userId: 'den' }))).body).toMatchObject({ data: { errCode: 1, status: 0 } });
    expect((await httpJson(url({ sdkAppId: String(APP.sdkAppId), userId: 'someone-else', userSig, timestamp: '1' }))).body).toMatchObject({ data: { errCode: 1, status: 0 } });
    const unpaid = await httpJson(url({ sdkAppId: String(UNPAID.sdkAppId), userId: 'den', userSig: await genUserSig({ ...UNPAID, userId: 'den' }), timestamp: '1' }));
    expect(unpaid.body).toMatchObject({ data: { errCode: 2, status: 0 } });
  });

  it('accepts and counts statistics beacons, refuses invalid ones', async () => {
    const beacon = (body: unknown, gzip = false) => httpJson(`${server.url}/api/v1/stats`, {
      method: 'POST', body: gzip ? gzipSync(JSON.stringify(body)) : JSON.stringify(body), headers: gzip ? { 'content-encoding': 'gzip' } : {},
    });
    const body = { sdkAppId: APP.sdkAppId, userId: 'st', msg_sdk_basic_info: { sdkVersion: '5.10.1', terminalType: 15 }, stats_count: [{ key: 100001, count: 3 }, { key: 100601, count: 2 }], stats_distribution: [{ key: 100801, items: [{ key: 1, value: 5 }] }] };
    expect((await beacon(body)).body).toEqual({ code: 0, message: 'ok' });
    expect((await beacon(body, true)).body.code).toBe(0);
    expect((await beacon({ ...body, stats_count: [{ key: 'x', count: 1 }] })).status).toBe(400);
    expect((await beacon({ ...body, sdkAppId: 1 })).body.code).toBe(SERVER_CODE.UNKNOWN_APP);
    const metrics = await metricsText(server);
    expect(metrics).toMatch(/^conclave_stat_beacons_total 2$/m);
    expect(metrics).toMatch(/^conclave_stat_beacon_counts_total\{class="count"\} 6$/m);
    expect(metrics).toMatch(/^conclave_stat_beacon_counts_total\{class="error_code"\} 4$/m);
  });

  it('scheduling hands out the configured main and backup domains (default: this server), the logger domain and videoDecodeFallback', async () => {
    const form = async (app: { sdkAppId: number; secretKey: string }) => new URLSearchParams({ sdkAppId: String(app.sdkAppId), userId: 'sch', userSig: await genUserSig({ ...app, userId: 'sch' }), groupId: '1', isStrGroupId: 'false', sdkVersion: '5.10.1' });
    const own = await httpJson(`${server.url}/api/v1/config`, { method: 'POST', body: await form(APP) });
    const self = `${server.url.replace(/^http/, 'ws')}/signal`;
    expect(own.body).toMatchObject({ code: 0, data: { domains: { main: self, backup: self }, config: { loggerDomain: server.url } } });
    expect((own.body as { data: { config: Record<string, unknown> } }).data.config).not.toHaveProperty('videoDecodeFallback');
    expect((await httpJson(`${server.url}/api/v1/config`, { method: 'POST', body: await form(UNPAID) })).body).toMatchObject({ code: SERVER_CODE.NEED_PACKAGE });
    const configured = await startTestServer({ apps: [APP], domains: { main: 'wss://a.example.com/signal', backup: 'wss://b.example.com/signal' }, loggerDomain: 'https://logs.example.com', videoDecodeFallback: true });
    try {
      const res = await httpJson(`${configured.url}/api/v1/config`, { method: 'POST', body: await form(APP) });
      expect(res.body).toMatchObject({ data: { domains: { main: 'wss://a.example.com/signal', backup: 'wss://b.example.com/signal' }, config: { loggerDomain: 'https://logs.example.com', videoDecodeFallback: true } } });
    } finally {
      await configured.close();
    }
  });

  it('health and Prometheus metrics: rooms, users, streams, forwarding, errors by code', async () => {
    const c = await joined(server, APP, 'metric', '88');
    clients.push(c);
    await c.request('mute-flag', { flag: 9 });
    await c.request('publish', { sdp: 'v=0' }).catch(() => undefined);
    await c.request('nonsense', {});
    const health = await httpJson(`${server.url}/healthz`);
    expect(health.body).toMatchObject({ status: 'ok', rooms: expect.any(Number), users: expect.any(Number), connections: expect.any(Number) });
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of ['conclave_rooms', 'conclave_users', 'conclave_streams', 'conclave_peer_connections', 'conclave_signal_connections', 'conclave_forwarded_bytes_total', 'conclave_forward_bitrate_bps', 'conclave_errors_total', 'conclave_process_cpu_seconds_total']) {
      expect(text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    }
    expect(text).toMatch(/^conclave_streams\{kind="audio"\} 1$/m);
    expect(text).toMatch(/^conclave_users\{role="anchor"\} [1-9]/m);
    expect(text).toMatch(new RegExp(`^conclave_errors_total\\{source="signal",code="${SERVER_CODE.UNKNOWN_COMMAND}"\\} [1-9]`, 'm'));
    expect(text).toMatch(new RegExp(`^conclave_errors_total\\{source="http",code="${SERVER_CODE.INVALID_PARAMETER}"\\} [1-9]`, 'm'));
  });
});
