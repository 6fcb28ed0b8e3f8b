import { SCHEDULE_PATH, SERVER_CODE } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { httpJson, joinData, joined, startTestServer, WsClient } from '../support/clients.js';
import { TestRedis } from '../../../../tests/kit/redis-server.js';
import { KEYS } from '../../src/cluster/keys.js';

/*
 * Faults (issue 30): Redis down and back under a cluster of two nodes (real redis-server, real servers,
 * signalling over real WebSockets). Redis is killed, so every connection drops, and started again empty
 * (the worst case: it lost its data). Media needs no Redis; tests/e2e/src/faults-redis.e2e.ts shows a
 * call's video going on in a browser meanwhile.
 */

const APP = { sdkAppId: 1400310001, secretKey: 'redis-outage-secret-0123456789', adminKey: 'redis-outage-admin-key-0123456789' };

type Answer = { code: number; msg?: string; data?: { domains: { main: string } } };

describe('Faults: Redis down and back under a cluster', () => {
  let redis: TestRedis;
  const nodes: RunningServer[] = [];
  const clients: WsClient[] = [];
  const track = (c: WsClient) => {
    clients.push(c);
    return c;
  };
  const nodeOf = (id: string) => nodes.find((n) => n.nodeId === id)!;
  /** Scheduling as the SDK asks it, on one node. */
  const schedule = async (via: RunningServer, roomId: string, userId = 'sched'): Promise<Answer> => {
    const form = new URLSearchParams({ sdkAppId: String(APP.sdkAppId), userId, userSig: await genUserSig({ ...APP, userId }), groupId: roomId, isStrGroupId: 'false', sdkVersion: '5.10.1' });
    return (await httpJson(`${via.url}${SCHEDULE_PATH}`, { method: 'POST', body: form })).body as Answer;
  };
  /** The node id a schedule answer sends the client to. */
  const placedOn = (answer: Answer) => nodes.find((n) => answer.data?.domains.main.startsWith(n.url.replace(/^http/, 'ws')))?.nodeId;
  const admin = (via: RunningServer, path: string, method = 'GET', body?: unknown) =>
    httpJson(`${via.url}/admin/v1/apps/${APP.sdkAppId}/${path}`, { method, headers: { authorization: `Bearer ${APP.adminKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  beforeAll(async () => {
    redis = await TestRedis.start();
    for (const nodeId of ['na', 'nb']) nodes.push(await startTestServer({ apps: [APP], redisUrl: redis.url, nodeId }));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const n of nodes) await n.close();
    await redis?.kill();
  });

  it('Redis down and back under a cluster: rooms keep running, new placements wait and resume, nothing corrupted', async () => {
    const [a] = nodes;
    // Two rooms, one per node (the second goes to the less loaded node).
    const first = await schedule(a, '101');
    const host1 = placedOn(first)!;
    const alice = track(await joined(nodeOf(host1), APP, 'alice', '101'));
    const bob = track(await joined(nodeOf(host1), APP, 'bob', '101'));
    const host2 = placedOn(await schedule(a, '102'))!;
    expect(host2).not.toBe(host1);
    const carol = track(await joined(nodeOf(host2), APP, 'carol', '102'));
    expect((await admin(nodeOf(host1), 'rooms/101/users/troll/ban', 'POST', { seconds: 600, reason: 'before' })).status).toBe(200);

    await redis.kill();
    const outageStart = Date.now();
    // A new placement waits (bounded), then a clear answer (checked below, meanwhile the rooms go on).
    const refusal = schedule(a, '103');

    // Rooms keep running: heartbeats answer, a user joins a running room (on its node) and the others see it.
    expect((await alice.request('heartbeat', {})).code).toBe(0);
    expect((await carol.request('heartbeat', {})).code).toBe(0);
    const dave = track(await joined(nodeOf(host1), APP, 'dave', '101'));
    expect((await alice.waitForPush('peer-join', (p) => (p.data as { userId: string }).userId === 'dave')).data).toMatchObject({ userId: 'dave' });
    expect((await bob.request('leave', {})).code).toBe(0);
    await alice.waitForPush('peer-leave', (p) => (p.data as { userId: string }).userId === 'bob');

    // A join of a room with no users here waits a moment, then is sent to schedule again, saying why.
    const stray = track(await WsClient.connect(a));
    const strayReply = await stray.request('join', await joinData(APP, 'erin', '104'));
    expect(strayReply.code).toBe(SERVER_CODE.WRONG_NODE);
    expect(strayReply.message).toMatch(/Redis is unreachable/);

    const refused = await refusal;
    const waitMs = Date.now() - outageStart;
    expect(refused.code).toBe(SERVER_CODE.CLUSTER_UNAVAILABLE);
    expect(refused.msg).toMatch(/Redis is unreachable: no new room can be placed now; try again/);
    expect(waitMs).toBeGreaterThanOrEqual(6500);
    expect(waitMs).toBeLessThan(12_000);

    // A placement asked while Redis is down resumes once it is back (empty: it lost every key).
    const pending = schedule(nodes[1], '105');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await redis.restart();
    const back = Date.now();
    const resumed = await pending;
    expect(resumed.code).toBe(0);
    const host5 = placedOn(resumed)!;
    expect(host5).toBeDefined();
    const resumeMs = Date.now() - back;
    expect(resumeMs).toBeLessThan(7000);
    expect((await alice.request('heartbeat', {})).code).toBe(0);
    expect(alice.open && dave.open && carol.open).toBe(true);

    // Nothing corrupted: the registry says again where each room lives, and the nodes agree with it.
    const inspect = new Redis(redis.url);
    try {
      await expect.poll(async () => ({
        nodes: (await inspect.smembers(KEYS.nodes)).sort(),
        r101: await inspect.get(KEYS.room(`${APP.sdkAppId}:101`)),
        r102: await inspect.get(KEYS.room(`${APP.sdkAppId}:102`)),
        r105: await inspect.get(KEYS.room(`${APP.sdkAppId}:105`)),
        active1: await inspect.sismember(KEYS.active(host1), `${APP.sdkAppId}:101`),
        active2: await inspect.sismember(KEYS.active(host2), `${APP.sdkAppId}:102`),
        banShared: Object.values(await inspect.hgetall(KEYS.bans)).some((v) => v.includes('"troll"')),
      }), { timeout: 10_000, interval: 200 }).toEqual({ nodes: ['na', 'nb'], r101: host1, r102: host2, r105: host5, active1: 1, active2: 1, banShared: true });
      for (const id of await inspect.smembers(KEYS.nodes)) expect(JSON.parse((await inspect.get(KEYS.node(id)))!)).toMatchObject({ id, draining: false });
    } finally {
      inspect.disconnect();
    }
    // A client sent to the wrong node is told to schedule again; scheduling sends it to the room's node.
    const wrong = track(await WsClient.connect(nodeOf(host2)));
    expect((await wrong.request('join', await joinData(APP, 'frank', '101'))).code).toBe(SERVER_CODE.WRONG_NODE);
    expect(placedOn(await schedule(nodeOf(host2), '101'))).toBe(host1);
    track(await joined(nodeOf(host5), APP, 'gina', '105'));
    // The room list of every node: each room once, on its node, with its users.
    const rooms = (await admin(nodeOf(host2), 'rooms')).body.rooms as { roomKey: string; node: string; users: number }[];
    expect(rooms.filter((r) => r.users > 0).map((r) => [r.roomKey, r.node, r.users]).sort()).toEqual([['101', host1, 2], ['102', host2, 1], ['105', host5, 1]].sort());
    // The ban made before the outage still holds on both nodes.
    const troll = track(await WsClient.connect(nodeOf(host1)));
    expect((await troll.request('join', await joinData(APP, 'troll', '101'))).code).toBe(SERVER_CODE.USER_BANNED);
    console.log(`redis outage: schedule refused after ${waitMs} ms; a waiting schedule resumed ${resumeMs} ms after Redis was back; outage ${back - outageStart} ms`);
  }, 60_000);
});
