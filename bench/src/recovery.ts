import type { Page } from 'playwright-core';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost, media } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch, type SigSource } from '../../tests/e2e/src/harness/join.js';
import { NetNamespace } from '../../tests/e2e/src/harness/netns.js';
import { freePort } from '../../tests/kit/ports.js';
import { ServerCli } from '../../tests/e2e/src/harness/server-process.js';
import { startTestServer } from '../../tests/e2e/src/harness/server.js';
import { progress, summarize, waitFor, type Summary } from './stats.js';
import type { Row } from './table.js';

export interface RecoveryResult {
  cut: { outageMs: number; samplesMs: number[]; summary: Summary };
  restart: { samplesMs: number[]; summary: Summary };
}

/** Resolves once `page` decodes frames beyond those it had when called, with the time that took. */
async function framesResume(page: Page, timeoutMs = 60_000): Promise<void> {
  const before = (await media(page)).framesDecoded;
  await waitFor('frames to resume', () => media(page), (m) => m.framesDecoded > before, { timeoutMs, intervalMs: 50 });
}

async function pair(aliceApp: AppHost, aliceContext: Parameters<AppHost['open']>[0], bobApp: AppHost, bobContext: Parameters<AppHost['open']>[0],
  server: SigSource, roomId: number): Promise<[Page, Page]> {
  const alice = await aliceApp.open(aliceContext);
  const bob = await bobApp.open(bobContext);
  for (const [page, id] of [[alice, 'alice'], [bob, 'bob']] as const) {
    const result = await join(page, server, id, { roomId });
    if (!result.ok) throw new Error(`${id} could not join: ${JSON.stringify(result)}`);
  }
  const available = (page: Page, userId: string) => page.evaluate((u) => (window as unknown as { e2e: { eventsOf(t: string): { data: { userId: string } }[] } }).e2e
    .eventsOf('remote-video-available').some((e) => e.data.userId === u), userId);
  await waitFor('alice to see bob', () => available(alice, 'bob'), Boolean);
  await waitFor('bob to see alice', () => available(bob, 'alice'), Boolean);
  await watch(alice, 'bob');
  await watch(bob, 'alice');
  await framesResume(alice);
  await framesResume(bob);
  return [alice, bob];
}

/**
 * Recovery time after (1) a 5 s cut of one page's whole network (time from the network's return
 * until the other page decodes that page's video again) and (2) the server process killed and started
 * again (time from the new process listening until both pages decode each other's video again).
 */
export async function runRecovery({ iterations = 5, outageMs = 5000 } = {}): Promise<RecoveryResult> {
  // (1) network cut, with the cut page in its own network namespace.
  const ns = NetNamespace.create(2);
  const server = await startTestServer({ host: '0.0.0.0', iceAddress: ns.hostIp });
  const nsServerUrl = `http://${ns.hostIp}:${server.port}`;
  const hostApp = await AppHost.start(`http://127.0.0.1:${server.port}`);
  const nsApp = await AppHost.start(nsServerUrl, ns.hostIp);
  const hostBrowser = await launchBrowser();
  const nsBrowser = await launchBrowser([`--unsafely-treat-insecure-origin-as-secure=${nsApp.url.replace(/\/$/, '')},${nsServerUrl}`], ns.chromiumWrapper());
  const cutSamples: number[] = [];
  try {
    const [alice, bob] = await pair(hostApp, hostBrowser.context, nsApp, nsBrowser.context, server, 9301);
    for (let i = 1; i <= iterations; i++) {
      ns.cut();
      await new Promise((resolve) => setTimeout(resolve, outageMs));
      ns.restore();
      const restoredAt = performance.now();
      await framesResume(alice);
      cutSamples.push(performance.now() - restoredAt);
      progress(`recovery after a ${outageMs / 1000} s cut ${i}/${iterations}: ${cutSamples.at(-1)!.toFixed(0)} ms`);
      await framesResume(bob);
    }
    await alice.close();
    await bob.close();
  } finally {
    ns.restore();
    await nsBrowser.close();
    await hostBrowser.close();
    await nsApp.close();
    await hostApp.close();
    await server.close();
    ns.destroy();
  }

  // (2) server killed and restarted on the same port.
  const cli = new ServerCli(await freePort());
  await cli.start();
  const app = await AppHost.start(cli.url);
  const browser = await launchBrowser();
  const restartSamples: number[] = [];
  try {
    const [alice, bob] = await pair(app, browser.context, app, browser.context, cli, 9302);
    for (let i = 1; i <= iterations; i++) {
      await cli.kill();
      await cli.start();
      const upAt = performance.now();
      await Promise.all([framesResume(alice), framesResume(bob)]);
      restartSamples.push(performance.now() - upAt);
      progress(`recovery after a server restart ${i}/${iterations}: ${restartSamples.at(-1)!.toFixed(0)} ms`);
    }
    await alice.close();
    await bob.close();
  } finally {
    await browser.close();
    await app.close();
    await cli.kill();
  }
  return {
    cut: { outageMs, samplesMs: cutSamples, summary: summarize(cutSamples) },
    restart: { samplesMs: restartSamples, summary: summarize(restartSamples) },
  };
}

export function recoveryRows(r: RecoveryResult): Row[] {
  const ms = (v: number) => v.toFixed(0);
  return [
    { benchmark: 'recovery: 5 s network cut', figure: ms(r.cut.summary.median), unit: 'ms (median)', notes: `n=${r.cut.summary.count}; network back → the other page decodes the cut page's video again (min ${ms(r.cut.summary.min)}, max ${ms(r.cut.summary.max)})` },
    { benchmark: 'recovery: server killed + restarted', figure: ms(r.restart.summary.median), unit: 'ms (median)', notes: `n=${r.restart.summary.count}; new process listening → both pages decode each other's video again (min ${ms(r.restart.summary.min)}, max ${ms(r.restart.summary.max)})` },
  ];
}
