/**
 * Faults (issue 30): Redis down and back under a cluster — the media of a call on a running node goes on.
 * The placements, the registry and the signalling are shown without a browser by
 * packages/server/test/cluster/redis-outage.test.ts; this file shows what a user sees: video keeps decoding
 * while Redis is dead and after it comes back empty.
 */
import type { ChildProcess } from 'node:child_process';
import { genUserSig } from '@conclave/usersig';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf } from './harness/client-page.js';
import { CLUSTER_ADMIN_KEY, decodesMore } from './harness/cluster.js';
import { join, watch } from './harness/join.js';
import { spawnRedis } from '../../kit/redis-server.js';
import { freePort } from '../../kit/ports.js';
import { ServerCli } from './harness/server-process.js';
import { TEST_APP } from './harness/server.js';

async function killRedis(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Scheduling's answer code for a room, through the node. */
async function scheduleCode(url: string, roomId: number): Promise<number> {
  const userSig = await genUserSig({ ...TEST_APP, userId: 'probe' });
  const form = new URLSearchParams({ sdkAppId: String(TEST_APP.sdkAppId), userId: 'probe', userSig, groupId: String(roomId), isStrGroupId: 'false', sdkVersion: '5.10.1' });
  return ((await (await fetch(`${url}/api/v1/config`, { method: 'POST', body: form })).json()) as { code: number }).code;
}

describe('faults: Redis down and back under a cluster', () => {
  let redisPort: number;
  let redis: ChildProcess | undefined;
  let node: ServerCli;
  let app: AppHost;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    redisPort = await freePort();
    redis = await spawnRedis(redisPort);
    const port = await freePort();
    node = new ServerCli(port, {
      CONCLAVE_REDIS_URL: `redis://127.0.0.1:${redisPort}`, CONCLAVE_NODE_ID: 'f0', CONCLAVE_NODE_URL: `http://127.0.0.1:${port}`,
      CONCLAVE_DB: ':memory:', CONCLAVE_ADMIN_KEY: CLUSTER_ADMIN_KEY,
    });
    await node.start();
    app = await AppHost.start(node.url);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await node?.kill();
    await killRedis(redis);
  });

  it('Redis down and back under a cluster: the media of a running room keeps flowing, during the outage and after', async () => {
    const pages: Page[] = [await app.open(browser.context), await app.open(browser.context)];
    const names = ['r1', 'r2'];
    for (let i = 0; i < 2; i++) expect(await join(pages[i], node, names[i], { roomId: 30101 })).toEqual({ ok: true });
    for (let i = 0; i < 2; i++) {
      await expect.poll(async () => (await eventsOf(pages[i], 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain(names[1 - i]);
      await watch(pages[i], names[1 - i]);
    }
    for (const page of pages) await decodesMore(page, 20, 45_000);

    await killRedis(redis);
    const down = Date.now();
    // Both users keep receiving each other's video for the whole outage (new frames, well after the kill).
    for (const page of pages) await decodesMore(page, 45, 30_000);
    expect(Date.now() - down).toBeGreaterThan(2000);
    for (const page of pages) expect((await eventsOf(page, 'connection-state-changed')).filter((e) => e.at > down)).toEqual([]);

    redis = await spawnRedis(redisPort);
    // Placements resume (Redis came back empty: the node re-registers and re-claims its room first).
    await expect.poll(() => scheduleCode(node.url, 30102), { timeout: 20_000, interval: 500 }).toBe(0);
    for (const page of pages) await decodesMore(page, 20, 30_000);
    for (const page of pages) await page.close();
  });
});
