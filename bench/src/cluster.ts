/**
 * Cluster benchmarks: scheduling requests per second one node answers with Redis placement
 * (p50/p99 latency), and the time for the clients of a SIGKILLed node to decode video again on the other
 * node through the SDK's reconnection (median of BENCH_FAILOVER_ITERATIONS, default 5).
 */
import { genUserSig } from '@conclave/usersig';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { eventsOf } from '../../tests/e2e/src/harness/client-page.js';
import { decodesMore, hostOf, startCluster, stopCluster } from '../../tests/e2e/src/harness/cluster.js';
import { join, watch } from '../../tests/e2e/src/harness/join.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import { progress, summarize, waitFor, type Summary } from './stats.js';
import type { Row } from './table.js';

export interface ClusterResult {
  schedule: { requests: number; concurrency: number; seconds: number; perSecond: number; p50: number; p99: number };
  failoverMs: Summary;
}

const percentile = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];

export async function runCluster(options: { requests?: number; concurrency?: number; failovers?: number } = {}): Promise<ClusterResult> {
  const requests = options.requests ?? 2000;
  const concurrency = options.concurrency ?? 16;
  const { redis, nodes } = await startCluster(2);
  const browser = await launchBrowser();
  try {
    // Scheduling: distinct rooms (each placed under its lock) and repeats (found placed), on node 0.
    const userSig = await genUserSig({ sdkAppId: TEST_APP.sdkAppId, secretKey: TEST_APP.secretKey, userId: 'bench' });
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const i = next++;
        const form = new URLSearchParams({ sdkAppId: String(TEST_APP.sdkAppId), userId: 'bench', userSig, groupId: String(20_000 + (i % 500)), isStrGroupId: 'false', sdkVersion: '5.10.1' });
        const t = performance.now();
        const res = await fetch(`${nodes[0].url}/api/v1/config`, { method: 'POST', body: form });
        const body = await res.json() as { code: number };
        if (body.code !== 0) throw new Error(`scheduling refused: ${JSON.stringify(body)}`);
        latencies.push(performance.now() - t);
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const schedule = { requests, concurrency, seconds, perSecond: requests / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
    progress(`scheduling: ${schedule.perSecond.toFixed(0)} req/s, p50 ${schedule.p50.toFixed(1)} ms, p99 ${schedule.p99.toFixed(1)} ms`);

    // Failover: two users in a room, its node killed; time until both decode again elsewhere.
    const times: number[] = [];
    for (let it = 0; it < (options.failovers ?? 5); it++) {
      const roomId = 30_000 + it;
      const pages: Page[] = [await nodes[0].app.open(browser.context), await nodes[1].app.open(browser.context)];
      const names = [`f${it}a`, `f${it}b`];
      for (let i = 0; i < 2; i++) {
        const result = await join(pages[i], nodes[i].cli, names[i], { roomId });
        if (!result.ok) throw new Error(`join failed: ${JSON.stringify(result)}`);
      }
      for (let i = 0; i < 2; i++) {
        await waitFor('remote video', async () => (await eventsOf(pages[i], 'remote-video-available')).map((e) => e.data.userId), (ids) => ids.includes(names[1 - i]), { timeoutMs: 30_000 });
        await watch(pages[i], names[1 - i]);
        await decodesMore(pages[i], 10, 45_000);
      }
      const hostId = await hostOf(nodes[0].url, TEST_APP.sdkAppId, String(roomId));
      const victim = nodes.find((n) => n.id === hostId);
      if (!victim) throw new Error('room has no host');
      const killedAt = performance.now();
      await victim.cli.kill();
      await Promise.all(pages.map((page) => decodesMore(page, 1, 90_000)));
      times.push(performance.now() - killedAt);
      progress(`failover ${it + 1}: ${times.at(-1)!.toFixed(0)} ms`);
      for (const page of pages) await page.close();
      await victim.cli.start();
    }
    return { schedule, failoverMs: summarize(times) };
  } finally {
    await browser.close();
    await stopCluster({ redis, nodes });
  }
}

export function clusterRows(r: ClusterResult): Row[] {
  const s = r.schedule;
  return [
    { benchmark: 'cluster scheduling', figure: s.perSecond.toFixed(0), unit: 'req/s', notes: `one node, Redis placement, ${s.requests} POST /api/v1/config over 500 rooms, ${s.concurrency} concurrent` },
    { benchmark: 'cluster scheduling', figure: s.p50.toFixed(1), unit: 'ms (p50)', notes: 'latency of one scheduling request' },
    { benchmark: 'cluster scheduling', figure: s.p99.toFixed(1), unit: 'ms (p99)', notes: '' },
    { benchmark: 'node killed → decoding again', figure: r.failoverMs.median.toFixed(0), unit: 'ms (median)', notes: `n=${r.failoverMs.count}, SIGKILL of the room's node → both users decode a new frame on the other node (heartbeat 1 s, node dead after 3 s)` },
    { benchmark: 'node killed → decoding again', figure: r.failoverMs.max.toFixed(0), unit: 'ms (max)', notes: '' },
  ];
}
