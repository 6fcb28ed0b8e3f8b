import { genUserSig } from '@conclave/usersig';
import { SERVER_CODE } from '@conclave/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { joined, startTestServer, WsClient } from '../support/clients.js';

const APP = { sdkAppId: 1400000789, secretKey: 'switch-room-test-secret-0123456789' };
const sig = (userId: string) => genUserSig({ ...APP, userId });

describe('switch-room: one command moves a session to another room', () => {
  let server: RunningServer;
  const clients: WsClient[] = [];
  const join = async (userId: string, roomId: string, extra: Record<string, unknown> = {}) => {
    const client = await joined(server, APP, userId, roomId, extra);
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    server = await startTestServer({ apps: [{ ...APP, adminKey: 'switch-room-admin-key-0123456' }] });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it("the old room sees the user leave, the new one sees it enter, and the reply lists the new room's users", async () => {
    const alice = await join('alice', '3001');
    const bob = await join('bob', '3001');
    const carol = await join('carol', '3002');
    const reply = await alice.request('switch-room', { userSig: await sig('alice'), roomId: '3002', useStringRoomId: false });
    expect(reply.code).toBe(0);
    const data = reply.data as { tinyId: string; sessionToken: string; userList: { userId: string }[] };
    expect(data.userList.map((u) => u.userId)).toEqual(['carol']);
    expect((await bob.waitForPush('peer-leave', (p) => (p.data as { userId: string }).userId === 'alice')).data).toMatchObject({ reason: 'normal' });
    expect((await carol.waitForPush('peer-join', (p) => (p.data as { userId: string }).userId === 'alice')).data).toMatchObject({ tinyId: data.tinyId });
    // The session goes on in the new room: a flag change reaches the new room only.
    expect((await alice.request('mute-flag', { flag: 8 })).code).toBe(0);
    await carol.waitForPush('publish-list');
    expect(bob.pushes('publish-list')).toEqual([]);
    const rooms = await fetch(`${server.url}/admin/v1/apps/${APP.sdkAppId}/rooms`, { headers: { authorization: 'Bearer switch-room-admin-key-0123456' } });
    const list = ((await rooms.json()) as { rooms: { roomKey: string; users: number }[] }).rooms.map((r) => `${r.roomKey}:${r.users}`).sort();
    expect(list).toEqual(['3001:1', '3002:2']);
  });

  it('refuses the same room, another room type and a bad userSig, and a refused switch keeps the user where it was', async () => {
    const dave = await join('dave', '3101');
    const erin = await join('erin', '3101');
    const code = async (data: Record<string, unknown>) => (await dave.request('switch-room', { userSig: await sig('dave'), roomId: '3102', useStringRoomId: false, ...data })).code;
    expect(await code({ roomId: '3101' })).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect(await code({ roomId: 'lobby', useStringRoomId: true })).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect(await code({ userSig: await genUserSig({ ...APP, secretKey: 'not-the-apps-secret-key-0123456', userId: 'dave' }) })).not.toBe(0);
    expect(await code({ roomId: '0' })).toBe(SERVER_CODE.INVALID_PARAMETER);
    expect(erin.pushes('peer-leave')).toEqual([]);
    // Still in 3101: a message of dave reaches erin's room.
    expect((await dave.request('mute-flag', { flag: 8 })).code).toBe(0);
    await erin.waitForPush('publish-list');
    const before = await WsClient.connect(server);
    clients.push(before);
    expect((await before.request('switch-room', { userSig: await sig('x'), roomId: '3102', useStringRoomId: false })).code).toBe(SERVER_CODE.NOT_JOINED);
  });
});
