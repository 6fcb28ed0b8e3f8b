/**
 * Must show 2 (issue 17): the admin API of one node lists and kicks a user whose room lives on the other
 * node (the request is forwarded there), and a ban made on one node refuses a join on the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { call, eventsOf } from './harness/client-page.js';
import { adminOf, hostOf, startCluster, stopCluster, type TestNode } from './harness/cluster.js';
import { join } from './harness/join.js';
import type { TestRedis } from '../../kit/redis-server.js';
import { TEST_APP } from './harness/server.js';

describe('cluster: admin API across nodes', () => {
  let redis: TestRedis;
  let nodes: TestNode[];
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    ({ redis, nodes } = await startCluster(2));
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stopCluster({ redis, nodes });
  });

  it('admin API on node A lists and kicks a user whose room lives on node B; a ban made on A refuses a join on B', async () => {
    const stays = await nodes[0].app.open(browser.context);
    const target = await nodes[1].app.open(browser.context);
    expect(await join(stays, nodes[0].cli, 'stays', { roomId: 9201 }, { publish: false })).toEqual({ ok: true });
    expect(await join(target, nodes[1].cli, 'target', { roomId: 9201 }, { publish: false })).toEqual({ ok: true });
    const hostId = await hostOf(nodes[0].url, TEST_APP.sdkAppId, '9201');
    const host = nodes.find((n) => n.id === hostId)!;
    const other = nodes.find((n) => n.id !== hostId)!;
    expect(host).toBeDefined();

    // Node A (not hosting) lists the room's users, as the hosting node B knows them.
    await expect.poll(async () => ((await adminOf(other.url, TEST_APP.sdkAppId, 'rooms/9201/users')).body.users as { userId: string }[] | undefined)?.map((u) => u.userId).sort(), { timeout: 15_000 })
      .toEqual(['stays', 'target']);
    const rooms = (await adminOf(other.url, TEST_APP.sdkAppId, 'rooms')).body.rooms as { roomKey: string; node: string }[];
    expect(rooms.find((r) => r.roomKey === '9201')?.node).toBe(host.id);

    // Kick through A: the user (on B) is kicked out.
    expect((await adminOf(other.url, TEST_APP.sdkAppId, 'rooms/9201/users/target/kick', 'POST', { reason: 'cluster kick' })).body).toMatchObject({ kicked: true });
    await expect.poll(async () => (await eventsOf(target, 'kicked-out')).map((e) => e.data), { timeout: 15_000 }).toEqual([{ reason: 'kick', message: 'cluster kick' }]);

    // Ban through A; the join (scheduled and sent to B, which hosts the room) is refused with -1011.
    expect((await adminOf(other.url, TEST_APP.sdkAppId, 'rooms/9201/users/target/ban', 'POST', { seconds: 600 })).body).toMatchObject({ banned: true });
    await expect.poll(async () => ((await adminOf(host.url, TEST_APP.sdkAppId, 'bans')).body.bans as { userId: string }[]).map((b) => b.userId), { timeout: 10_000 }).toContain('target');
    await call(target, 'exitRoom');
    const rejoin = await join(target, host.cli, 'target', { roomId: 9201 }, { publish: false, reuse: true });
    expect(rejoin).toMatchObject({ ok: false, code: 5400, extraCode: -1011 });
    // The ban is known cluster-wide: every node lists it.
    for (const node of nodes) {
      await expect.poll(async () => ((await adminOf(node.url, TEST_APP.sdkAppId, 'bans')).body.bans as { userId: string }[]).map((b) => b.userId), { timeout: 10_000 }).toContain('target');
    }
    await stays.close();
    await target.close();
  });
});
