/**
 * Must show 1 (issue 17): two server processes and a real redis-server form a cluster. Users scheduled
 * through either node land together on the node hosting their room and decode each other; another room goes
 * to the other node; that node killed with SIGKILL, its users decode each other again on the surviving node
 * through the SDK's reconnection, with no app code.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { eventsOf } from './harness/client-page.js';
import { decodesMore, hostOf, startCluster, stopCluster, type TestNode } from './harness/cluster.js';
import { join, watch } from './harness/join.js';
import type { TestRedis } from '../../kit/redis-server.js';
import { TEST_APP } from './harness/server.js';

const userIds = (events: { data: Record<string, unknown> }[]) => events.map((e) => e.data.userId);

/** Two pages in one room, each loading the SDK from a different node; both watch each other. */
async function pair(browser: LaunchedBrowser, nodes: TestNode[], roomId: number, names: [string, string]): Promise<[Page, Page]> {
  const pages = [await nodes[0].app.open(browser.context), await nodes[1].app.open(browser.context)] as [Page, Page];
  for (let i = 0; i < 2; i++) expect(await join(pages[i], nodes[i].cli, names[i], { roomId })).toEqual({ ok: true });
  for (let i = 0; i < 2; i++) {
    await expect.poll(async () => userIds(await eventsOf(pages[i], 'remote-video-available')), { timeout: 20_000 }).toContain(names[1 - i]);
    await watch(pages[i], names[1 - i]);
  }
  for (const page of pages) await decodesMore(page, 20, 45_000);
  return pages;
}

describe('cluster: two nodes and Redis', () => {
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

  it('two nodes and Redis: users scheduled through node A and node B land together and decode each other; rooms spread over both nodes; node B killed with SIGKILL, its users decode each other again on node A with no app code', async () => {
    // Room 1: one user scheduled through each node; they meet on one node and decode each other.
    const [a1, b1] = await pair(browser, nodes, 9101, ['a1', 'b1']);
    const host1 = await hostOf(nodes[0].url, TEST_APP.sdkAppId, '9101');
    expect(host1).toBeDefined();
    const viaOther = await hostOf(nodes[1].url, TEST_APP.sdkAppId, '9101');
    expect(viaOther).toBe(host1);

    // Room 2: placed on the less loaded node, the other one.
    const [a2, b2] = await pair(browser, nodes, 9102, ['a2', 'b2']);
    const host2 = await hostOf(nodes[0].url, TEST_APP.sdkAppId, '9102');
    expect(host2).toBeDefined();
    expect(host2).not.toBe(host1);

    // Kill the node hosting room 2. One of its two pages loaded the SDK from that very node: scheduling
    // falls back to the backup domain the last answer named.
    const victim = nodes.find((n) => n.id === host2)!;
    const survivor = nodes.find((n) => n.id !== host2)!;
    await victim.cli.kill();
    for (const page of [a2, b2]) {
      await expect.poll(async () => (await eventsOf(page, 'connection-state-changed')).map((e) => e.data.state).slice(2), { timeout: 30_000 }).toContain('DISCONNECTED');
    }
    for (const page of [a2, b2]) {
      await expect.poll(async () => (await eventsOf(page, 'connection-state-changed')).map((e) => e.data.state).at(-1), { timeout: 60_000, interval: 500 }).toBe('CONNECTED');
    }
    await decodesMore(a2, 30, 60_000);
    await decodesMore(b2, 30, 60_000);
    await expect.poll(() => hostOf(survivor.url, TEST_APP.sdkAppId, '9102'), { timeout: 10_000 }).toBe(survivor.id);
    // No app code ran: no error events, the remote user never left.
    for (const page of [a2, b2]) expect(await eventsOf(page, 'error')).toEqual([]);
    expect(userIds(await eventsOf(a2, 'remote-user-exit'))).toEqual([]);
    // Room 1 on the survivor was never disturbed (or, if it was on the victim, it recovered too).
    await decodesMore(a1, 10, 60_000);
    await decodesMore(b1, 10, 60_000);
    for (const page of [a1, b1, a2, b2]) await page.close();
  });
});
