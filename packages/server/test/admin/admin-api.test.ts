import { HTTP_CODE, SERVER_CODE } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joinData, joined, startTestServer, WsClient } from '../support/clients.js';

const A = { sdkAppId: 1400100001, secretKey: 'admin-test-app-a-secret-0123456', adminKey: 'admin-key-of-app-a-0123456789', name: 'App A' };
const B = { sdkAppId: 1400100002, secretKey: 'admin-test-app-b-secret-0123456', adminKey: 'admin-key-of-app-b-0123456789' };
const NO_ADMIN = { sdkAppId: 1400100003, secretKey: 'admin-test-app-c-secret-0123456' };

describe('admin API', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  const api = (path: string, key: string | undefined, init: RequestInit = {}) =>
    httpJson(`${server.url}/admin/v1/apps/${path}`, { ...init, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json', ...init.headers } });
  const track = (c: WsClient) => { clients.push(c); return c; };

  beforeAll(async () => {
    server = await startTestServer({ apps: [A, B, NO_ADMIN], limits: { banSeconds: 3600 } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it("one app's admin key sees nothing of another app", async () => {
    const a1 = track(await joined(server, A, 'alice', '10'));
    track(await joined(server, B, 'bob', '10'));
    track(await joined(server, B, 'bea', 's:lobby'.slice(2), { useStringRoomId: true }));
    await a1.request('mute-flag', { flag: 9 });

    const mine = await api(`${A.sdkAppId}/rooms`, A.adminKey);
    expect(mine.status).toBe(200);
    expect(mine.body.rooms).toEqual([expect.objectContaining({ roomKey: '10', roomId: 10, users: 1, anchors: 1, audience: 0, streams: 2 })]);
    const users = await api(`${A.sdkAppId}/rooms/10/users`, A.adminKey);
    expect(users.body.users).toEqual([expect.objectContaining({ userId: 'alice', role: 'anchor', flag: 9, connected: true, streams: expect.objectContaining({ audio: true, video: true, aux: false }) })]);
    expect((await api(`${B.sdkAppId}/rooms`, B.adminKey)).body.rooms).toHaveLength(2);
    expect((await api(`${B.sdkAppId}/rooms/${encodeURIComponent('s:lobby')}/users`, B.adminKey)).body.users).toEqual([expect.objectContaining({ userId: 'bea' })]);

    // A's key on B's paths: 403 with a code, exactly as for an app that does not exist or has no admin key.
    const forbidden = [
      await api(`${B.sdkAppId}/rooms`, A.adminKey),
      await api(`${B.sdkAppId}/rooms/10/users`, A.adminKey),
      await api(`${B.sdkAppId}/rooms/10/users/bob/kick`, A.adminKey, { method: 'POST' }),
      await api(`${B.sdkAppId}/rooms/10/dismiss`, A.adminKey, { method: 'POST' }),
      await api(`${B.sdkAppId}/logs`, A.adminKey),
      await api('1499999999/rooms', A.adminKey),
      await api(`${NO_ADMIN.sdkAppId}/rooms`, A.adminKey),
    ];
    for (const r of forbidden) expect({ status: r.status, body: r.body }).toEqual({ status: 403, body: { code: HTTP_CODE.ADMIN_KEY_INVALID, message: 'this admin key is not valid for this sdkAppId' } });
    // Rooms of B with the same id as A's are not visible through A's key either.
    expect((await api(`${A.sdkAppId}/rooms/${encodeURIComponent('s:lobby')}`, A.adminKey)).status).toBe(404);
    // B's members are still there and untouched.
    expect((await api(`${B.sdkAppId}/rooms/10/users`, B.adminKey)).body.users).toEqual([expect.objectContaining({ userId: 'bob' })]);

    const missing = await api(`${A.sdkAppId}/rooms`, undefined);
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe(HTTP_CODE.ADMIN_KEY_MISSING);
    expect((await api(`${A.sdkAppId}/rooms/x!/users`, A.adminKey)).body.code).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect((await api(`${A.sdkAppId}/nothing`, A.adminKey)).status).toBe(404);
    expect((await api(`${A.sdkAppId}/rooms`, A.adminKey, { method: 'DELETE' })).status).toBe(405);
    expect((await api(`${A.sdkAppId}`, A.adminKey)).body).toMatchObject({ sdkAppId: A.sdkAppId, name: 'App A', rooms: 1, users: 1 });
  });

  it('kick: the user is told banned/kick and leaves, the others see it, and may rejoin', async () => {
    const stay = track(await joined(server, A, 'stay', '20'));
    const kicked = track(await joined(server, A, 'kicked', '20'));
    const res = await api(`${A.sdkAppId}/rooms/20/users/kicked/kick`, A.adminKey, { method: 'POST', body: JSON.stringify({ reason: 'spam' }) });
    expect(res).toMatchObject({ status: 200, body: { kicked: true, userId: 'kicked', roomKey: '20' } });
    expect((await kicked.waitForPush('banned')).data).toEqual({ reason: 'kick', message: 'spam' });
    expect(await kicked.closed()).toBe(4000);
    expect((await stay.waitForPush('peer-leave')).data).toMatchObject({ userId: 'kicked', reason: 'kick' });
    expect((await api(`${A.sdkAppId}/rooms/20/users`, A.adminKey)).body.users).toEqual([expect.objectContaining({ userId: 'stay' })]);
    expect((await api(`${A.sdkAppId}/rooms/20/users/kicked/kick`, A.adminKey, { method: 'POST' })).status).toBe(404);
    track(await joined(server, A, 'kicked', '20'));
  });

  it('ban: the user is told banned/banned, cannot rejoin until unbanned; other rooms are not affected', async () => {
    const banned = track(await joined(server, A, 'troll', '30'));
    const res = await api(`${A.sdkAppId}/rooms/30/users/troll/ban`, A.adminKey, { method: 'POST', body: JSON.stringify({ seconds: 600, reason: 'abuse' }) });
    expect(res.body).toMatchObject({ banned: true, userId: 'troll', roomKey: '30', wasInRoom: true });
    expect((await banned.waitForPush('banned')).data).toEqual({ reason: 'banned', message: 'abuse' });
    const again = await WsClient.connect(server);
    track(again);
    const refused = await again.request('join', await joinData(A, 'troll', '30'));
    expect(refused.code).toBe(SERVER_CODE.USER_BANNED);
    expect(refused.message).toMatch(/banned from this room until .*: abuse/);
    expect(again.open).toBe(true);
    // Another room of the same app is fine, and the ban is listed.
    track(await joined(server, A, 'troll', '31'));
    expect((await api(`${A.sdkAppId}/bans`, A.adminKey)).body.bans).toEqual([expect.objectContaining({ roomKey: '30', userId: 'troll', reason: 'abuse' })]);
    expect((await api(`${B.sdkAppId}/bans`, B.adminKey)).body.bans).toEqual([]);
    // Lift it: the user gets in.
    expect((await api(`${A.sdkAppId}/rooms/30/users/troll/ban`, A.adminKey, { method: 'DELETE' })).body).toMatchObject({ unbanned: true });
    expect((await again.request('join', await joinData(A, 'troll', '30'))).code).toBe(0);
    // Pre-emptive ban of someone not in the room; the default duration comes from limits.banSeconds.
    const pre = await api(`${A.sdkAppId}/rooms/${encodeURIComponent('s:vip')}/users/nobody/ban`, A.adminKey, { method: 'POST' });
    expect(pre.body).toMatchObject({ banned: true, wasInRoom: false, roomKey: 's:vip' });
    expect(Date.parse(pre.body.until as string) - Date.now()).toBeGreaterThan(3000 * 1000);
    expect((await api(`${A.sdkAppId}/rooms/30/users/x/ban`, A.adminKey, { method: 'POST', body: JSON.stringify({ seconds: -1 }) })).status).toBe(400);
  });

  it('dismiss: everyone gets banned/room_disband and the room is gone', async () => {
    const one = track(await joined(server, A, 'one', '40'));
    const two = track(await joined(server, A, 'two', '40'));
    const bystander = track(await joined(server, A, 'three', '41'));
    const res = await api(`${A.sdkAppId}/rooms/40/dismiss`, A.adminKey, { method: 'POST' });
    expect(res.body).toMatchObject({ dismissed: true, roomKey: '40', users: expect.arrayContaining(['one', 'two']) });
    for (const c of [one, two]) expect((await c.waitForPush('banned')).data).toMatchObject({ reason: 'room_disband' });
    expect((await api(`${A.sdkAppId}/rooms/40`, A.adminKey)).status).toBe(404);
    expect(bystander.pushes('banned')).toEqual([]);
    expect((await bystander.request('heartbeat', {})).code).toBe(0);
  });

  it('locks out an address after many wrong keys', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await api(`${B.sdkAppId}/rooms`, `wrong-key-${i}-0123456789`)).status);
    // (Earlier tests spent some of this address's 20 failures per minute.) 403s, then 429 from then on.
    const firstLocked = statuses.indexOf(429);
    expect(firstLocked).toBeGreaterThan(0);
    expect(statuses.slice(0, firstLocked).every((s) => s === 403)).toBe(true);
    expect(statuses.slice(firstLocked).every((s) => s === 429)).toBe(true);
    // The right key is refused too while locked: guessing gains nothing.
    expect((await api(`${B.sdkAppId}/rooms`, B.adminKey)).status).toBe(429);
  });
});
