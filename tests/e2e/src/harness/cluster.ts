import type { Page } from 'playwright-core';
import { AppHost, media } from './client-page.js';
import { TestRedis } from '../../../kit/redis-server.js';
import { freePort } from '../../../kit/ports.js';
import { ServerCli } from './server-process.js';

export const CLUSTER_ADMIN_KEY = 'e2e-cluster-admin-key-0123456789';

/** A node of a test cluster: the server CLI as its own process, and an app whose pages load the SDK from it. */
export interface TestNode {
  id: string;
  cli: ServerCli;
  app: AppHost;
  url: string;
}

/** Starts redis-server and `count` server processes forming a cluster over it (node ids n0, n1…). */
export async function startCluster(count: number, env: NodeJS.ProcessEnv = {}): Promise<{ redis: TestRedis; nodes: TestNode[] }> {
  const redis = await TestRedis.start();
  const nodes: TestNode[] = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const id = `n${i}`;
    const cli = new ServerCli(port, {
      CONCLAVE_REDIS_URL: redis.url, CONCLAVE_NODE_ID: id, CONCLAVE_NODE_URL: `http://127.0.0.1:${port}`,
      CONCLAVE_DB: ':memory:', CONCLAVE_ADMIN_KEY: CLUSTER_ADMIN_KEY, ...env,
    });
    await cli.start();
    nodes.push({ id, cli, app: await AppHost.start(cli.url), url: cli.url });
  }
  return { redis, nodes };
}

/** Stops what startCluster started (nodes already stopped are skipped). */
export async function stopCluster(parts: { redis?: TestRedis; nodes?: TestNode[] }): Promise<void> {
  for (const node of parts.nodes ?? []) {
    await node.app.close();
    await node.cli.kill();
  }
  await parts.redis?.stop();
}

/** The admin API of one node. */
export async function adminOf(url: string, sdkAppId: number, path: string, method = 'GET', body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}/admin/v1/apps/${sdkAppId}/${path}`, {
    method, headers: { authorization: `Bearer ${CLUSTER_ADMIN_KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

/** The node (id) hosting a room, as any node's cluster-wide room list says; undefined when nobody is in it. */
export async function hostOf(url: string, sdkAppId: number, roomKey: string): Promise<string | undefined> {
  const { body } = await adminOf(url, sdkAppId, 'rooms');
  const room = (body.rooms as { roomKey: string; node: string; users: number }[] | undefined)?.find((r) => r.roomKey === roomKey && r.users > 0);
  if (!room && process.env.E2E_DEBUG) console.log('rooms answer', JSON.stringify(body));
  return room?.node;
}

/** Resolves once the page has decoded `frames` more video frames than it had when called (bounded). */
export async function decodesMore(page: Page, frames = 30, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let base = (await media(page)).framesDecoded;
  for (;;) {
    const now = (await media(page)).framesDecoded;
    // Closed peer connections drop out of the sum: count from the lower figure.
    if (now < base) base = now;
    if (now - base >= frames) return;
    if (Date.now() > deadline) {
      const detail = await page.evaluate(() => {
        const w = window as unknown as { __pcs: RTCPeerConnection[]; e2e: { events: { type: string; data: unknown }[] } };
        return { pcs: w.__pcs.map((pc) => `${pc.connectionState}/${pc.getTransceivers().map((t) => t.direction).join(',')}`), events: w.e2e.events.map((e) => `${e.type}:${JSON.stringify(e.data).slice(0, 80)}`) };
      });
      throw new Error(`decoded ${now - base} new frames in ${timeoutMs} ms, wanted ${frames}; ${JSON.stringify(detail)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
