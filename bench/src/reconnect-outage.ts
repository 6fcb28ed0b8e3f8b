import type { Page } from 'playwright-core';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost, eventsOf, media } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch } from '../../tests/e2e/src/harness/join.js';
import { freePort, ServerCli } from '../../tests/e2e/src/harness/server-process.js';
import { progress, waitFor } from './stats.js';
import type { Row } from './table.js';

/** One outage: how long the server was down, and how long after it listened again the pages were back. */
export interface OutageSample {
  outageSeconds: number;
  /** Server listening → the later of the two pages announcing CONNECTED. */
  rejoinMs: number;
  /** Server listening → both pages decoding each other's video again (a first frame decoded on a link made after the outage). */
  mediaMs: number;
}

/** The outage lengths, in seconds: BENCH_OUTAGE_SECONDS="5,15" shortens the run (default 5, 15, 30, 60, 120). */
export function outageLengths(env = process.env.BENCH_OUTAGE_SECONDS): number[] {
  const lengths = (env ?? '5,15,30,60,120').split(',').map(Number).filter((s) => s > 0);
  return lengths.length > 0 ? lengths : [5];
}

async function connectedSince(page: Page, since: number): Promise<number> {
  return waitFor('the page to be CONNECTED again', async () => (await eventsOf(page, 'connection-state-changed'))
    .find((e) => e.at >= since && e.data.state === 'CONNECTED')?.at, (at) => at !== undefined, { timeoutMs: 120_000, intervalMs: 50 }) as Promise<number>;
}

async function framesSince(page: Page, before: number): Promise<number> {
  await waitFor('frames to resume', () => media(page), (m) => m.framesDecoded > before, { timeoutMs: 120_000, intervalMs: 50 });
  return Date.now();
}

/** Peer connections the page made so far (the harness records each in window.__pcs). */
const pcCount = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length);

/**
 * When a link made after the first `made` decoded its first video frame. Counted on the new links alone: a sum over
 * every link would also move with the old links' counts as they close.
 */
async function newLinkDecodes(page: Page, made: number): Promise<number> {
  const decoded = () => page.evaluate(async (from) => {
    let frames = 0;
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.slice(from)) {
      (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
      });
    }
    return frames;
  }, made);
  await waitFor('a frame decoded on a new link', decoded, (frames) => frames > 0, { timeoutMs: 120_000, intervalMs: 50 });
  return Date.now();
}

/**
 * The server process killed, kept down for each outage length, then started again on the same port: the time
 * from it listening until two pages in a room are back (CONNECTED) and decode each other's video again
 * (docs/behaviour.md §4: reconnection follows the server — goal ≤ 3 s whatever the outage).
 */
export async function runReconnectOutage(lengths = outageLengths()): Promise<OutageSample[]> {
  const server = new ServerCli(await freePort());
  await server.start();
  const app = await AppHost.start(server.url);
  const browser = await launchBrowser();
  const samples: OutageSample[] = [];
  try {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    for (const [page, id] of [[alice, 'alice'], [bob, 'bob']] as const) {
      const result = await join(page, server, id, { roomId: 9401 });
      if (!result.ok) throw new Error(`${id} could not join: ${JSON.stringify(result)}`);
    }
    for (const [page, other] of [[alice, 'bob'], [bob, 'alice']] as const) {
      await waitFor(`${other}'s video`, async () => (await eventsOf(page, 'remote-video-available')).some((e) => e.data.userId === other), Boolean);
      await watch(page, other);
      await framesSince(page, 0);
    }
    for (const outageSeconds of lengths) {
      const downAt = Date.now();
      await server.kill();
      await new Promise((resolve) => setTimeout(resolve, outageSeconds * 1000));
      const made = await Promise.all([alice, bob].map(pcCount));
      await server.start();
      const upAt = Date.now();
      const [rejoined, resumed] = await Promise.all([
        Promise.all([connectedSince(alice, downAt), connectedSince(bob, downAt)]),
        Promise.all([newLinkDecodes(alice, made[0]!), newLinkDecodes(bob, made[1]!)]),
      ]);
      samples.push({ outageSeconds, rejoinMs: Math.max(...rejoined) - upAt, mediaMs: Math.max(...resumed) - upAt });
      progress(`reconnection after a ${outageSeconds} s outage: rejoined ${samples.at(-1)!.rejoinMs} ms, media ${samples.at(-1)!.mediaMs} ms after the server listened`);
    }
    await alice.close();
    await bob.close();
  } finally {
    await browser.close();
    await app.close();
    await server.kill();
  }
  return samples;
}

export function reconnectOutageRows(samples: readonly OutageSample[]): Row[] {
  return samples.map((s) => ({
    benchmark: `reconnection: ${s.outageSeconds} s server outage`,
    figure: String(s.rejoinMs),
    unit: 'ms',
    notes: `server listening again → both pages CONNECTED (goal ≤ 3000); media flowing again after ${s.mediaMs} ms`,
  }));
}
