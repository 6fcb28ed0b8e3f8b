import { LIMITS, SERVER_CODE } from '@conclave/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { joinData, joined, metricsText, startTestServer, WsClient } from '../support/clients.js';

const APP = { sdkAppId: 1400300001, secretKey: 'limits-test-secret-key-012345678' };

describe('limits over real WebSockets: a coded reply, and the connection and room go on', () => {
  let server: RunningServer | undefined;
  const clients: WsClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await server?.close();
    server = undefined;
  });
  const start = async (limits: Parameters<typeof startTestServer>[0] = {}) => {
    server = await startTestServer({ apps: [APP], ...limits });
    return server;
  };
  const track = <T extends WsClient>(c: T) => { clients.push(c); return c; };

  it('connections per IP address: the extra one is answered TOO_MANY_CONNECTIONS and closed; the others go on', async () => {
    const s = await start({ limits: { connectionsPerIp: 3 } });
    const members = [track(await joined(s, APP, 'a', '1')), track(await joined(s, APP, 'b', '1')), track(await WsClient.connect(s))];
    const extra = track(await WsClient.connect(s));
    const reply = await extra.request('join', await joinData(APP, 'c', '1'));
    expect(reply).toMatchObject({ code: SERVER_CODE.TOO_MANY_CONNECTIONS, message: 'too many connections from this address (3)' });
    expect(await extra.closed()).toBe(4029);
    for (const m of members) expect((await m.request('heartbeat', {})).code).toBe(0);
    expect(members[0].pushes('peer-join').map((p) => (p.data as { userId: string }).userId)).toEqual(['b']);
    // A slot frees when a connection closes.
    members[2].close();
    await members[2].closed();
    track(await joined(s, APP, 'c', '1'));
    expect(await metricsText(s)).toMatch(/^conclave_connections_refused_total\{reason="per-address"\} 1$/m);
  });

  it('users per rtc room', async () => {
    const s = await start({ limits: { usersPerRoom: 2 } });
    const a = track(await joined(s, APP, 'a', '2'));
    track(await joined(s, APP, 'b', '2'));
    const c = track(await WsClient.connect(s));
    const full = await c.request('join', await joinData(APP, 'c', '2'));
    expect(full).toMatchObject({ code: SERVER_CODE.ROOM_FULL, message: 'room is full (2 users)' });
    // The same user rejoining is not an extra user; another room is fine; the connection goes on.
    track(await joined(s, APP, 'b', '2'));
    expect((await c.request('join', await joinData(APP, 'c', '3'))).code).toBe(0);
    expect((await a.request('heartbeat', {})).code).toBe(0);
  });

  it('live rooms: anchors up to their cap, audience up to its cap; switch-role respects both', async () => {
    const s = await start({ limits: { anchorsPerLiveRoom: 1, audiencePerLiveRoom: 2 } });
    const live = (role: 20 | 21) => ({ trtcScene: 2, trtcRole: role });
    const host = track(await joined(s, APP, 'host', '4', live(20)));
    const second = track(await WsClient.connect(s));
    expect((await second.request('join', await joinData(APP, 'host2', '4', live(20)))).code).toBe(SERVER_CODE.TOO_MANY_ANCHORS);
    expect((await second.request('join', await joinData(APP, 'host2', '4', live(21)))).code).toBe(0);
    track(await joined(s, APP, 'viewer', '4', live(21)));
    const third = track(await WsClient.connect(s));
    expect((await third.request('join', await joinData(APP, 'viewer3', '4', live(21)))).code).toBe(SERVER_CODE.ROOM_FULL);
    expect((await second.request('switch-role', { role: 20 })).code).toBe(SERVER_CODE.TOO_MANY_ANCHORS);
    expect((await host.request('switch-role', { role: 21 })).code).toBe(SERVER_CODE.ROOM_FULL);
    expect((await host.request('heartbeat', {})).code).toBe(0);
    expect(LIMITS.MAX_USERS_RTC).toBe(300);
    expect(LIMITS.MAX_ANCHORS_LIVE).toBe(50);
  });

  it('oversized messages: a coded reply up to 1 MiB frames, the connection goes on; beyond, the connection closes and the room goes on', async () => {
    // (A dropped connection's session is kept for sessionGraceMs; 0 here so the others see it leave at once.)
    const s = await start({ sessionGraceMs: 0 });
    const a = track(await joined(s, APP, 'a', '5'));
    const b = track(await joined(s, APP, 'b', '5'));
    b.sendRaw(JSON.stringify({ id: 99, cmd: 'heartbeat', data: { pad: 'x'.repeat(LIMITS.MAX_MESSAGE_BYTES) } }));
    const tooLarge = await b.reply(-1);
    expect(tooLarge.code).toBe(SERVER_CODE.MESSAGE_TOO_LARGE);
    expect((await b.request('heartbeat', {})).code).toBe(0);
    b.sendRaw('x'.repeat(2 * 1024 * 1024));
    expect(await b.closed()).toBe(1009);
    await a.waitForPush('peer-leave');
    expect((await a.request('heartbeat', {})).code).toBe(0);
  });

  it('graceful shutdown tells every client to reconnect', async () => {
    const s = await start();
    const a = track(await joined(s, APP, 'a', '6'));
    const idle = track(await WsClient.connect(s));
    const closing = s.close();
    server = undefined;
    for (const c of [a, idle]) {
      await c.waitForPush('server-shutdown');
      expect(await c.closed()).toBe(1001);
    }
    await closing;
  });
});
