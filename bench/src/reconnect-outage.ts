import type { Page } from 'playwright-core';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost, eventsOf, media } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch } from '../../tests/e2e/src/harness/join.js';
import { freePort } from '../../tests/kit/ports.js';
import { ServerCli } from '../../tests/e2e/src/harness/server-process.js';
import { formatTimeline, TimelineRecorder, type PageTimeline } from './outage-timeline.js';
import { progress, waitFor } from './stats.js';
import type { Row } from './table.js';

export type OutageEngine = 'embedded' | 'janus';

/** docs/behaviour.md §4: media back this soon after the server listens again, whatever the outage (5–120 s). */
export const MEDIA_BACK_GOAL_MS = 3_000;

/** One outage: how long the server was down, and how long after it listened again the pages were back. */
export interface OutageSample {
  engine: OutageEngine;
  outageSeconds: number;
  /** The new server process spawned → listening (its start-up, Janus included on that engine). */
  startMs: number;
  /** Server listening → the later of the two pages announcing CONNECTED. */
  rejoinMs: number;
  /** Server listening → both pages decoding each other's video again (a first frame decoded on a link made after the outage). */
  mediaMs: number;
  /** Each page's stages (outage-timeline.ts). */
  pages: Record<string, PageTimeline>;
}

/** The outage lengths, in seconds: BENCH_OUTAGE_SECONDS="5,5,30" picks them (repeats allowed; default 5, 30, 60, 120). */
export function outageLengths(env = process.env.BENCH_OUTAGE_SECONDS): number[] {
  const lengths = (env ?? '5,30,60,120').split(',').map(Number).filter((s) => s > 0);
  return lengths.length > 0 ? lengths : [5];
}

/** The engines, one server after the other: BENCH_OUTAGE_ENGINES="janus" picks (default embedded, janus). */
export function outageEngines(env = process.env.BENCH_OUTAGE_ENGINES): OutageEngine[] {
  const engines = (env ?? 'embedded,janus').split(',').map((e) => e.trim()).filter((e): e is OutageEngine => e === 'embedded' || e === 'janus');
  return engines.length > 0 ? engines : ['embedded'];
}

async function connectedSince(page: Page, since: number): Promise<number> {
  return waitFor('the page to be CONNECTED again', async () => (await eventsOf(page, 'connection-state-changed'))
    .find((e) => e.at >= since && e.data.state === 'CONNECTED')?.at, (at) => at !== undefined, { timeoutMs: 120_000, intervalMs: 50 }) as Promise<number>;
}

async function framesSince(page: Page, before: number): Promise<number> {
  await waitFor('frames to resume', () => media(page), (m) => m.framesDecoded > before, { timeoutMs: 120_000, intervalMs: 50 });
  return Date.now();
}

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

/** Every outage length on one engine's server, two pages in a room throughout. */
async function runEngine(engine: OutageEngine, lengths: readonly number[], roomId: number): Promise<OutageSample[]> {
  const server = new ServerCli(await freePort(), { CONCLAVE_ENGINE: engine });
  await server.start();
  const app = await AppHost.start(server.url);
  const browser = await launchBrowser();
  const samples: OutageSample[] = [];
  try {
    const recorders: TimelineRecorder[] = [];
    for (const id of ['alice', 'bob']) {
      const page = await app.open(browser.context);
      recorders.push(await TimelineRecorder.attach(page, id));
      const result = await join(page, server, id, { roomId });
      if (!result.ok) throw new Error(`${id} could not join: ${JSON.stringify(result)}`);
    }
    const [alice, bob] = recorders.map((r) => r.page) as [Page, Page];
    for (const [page, other] of [[alice, 'bob'], [bob, 'alice']] as const) {
      await waitFor(`${other}'s video`, async () => (await eventsOf(page, 'remote-video-available')).some((e) => e.data.userId === other), Boolean);
      await watch(page, other);
      await framesSince(page, 0);
    }
    for (const outageSeconds of lengths) {
      const downAt = Date.now();
      await server.kill();
      await new Promise((resolve) => setTimeout(resolve, outageSeconds * 1000)); // the outage itself
      const made = await Promise.all(recorders.map((r) => r.pcCount()));
      const spawnAt = Date.now();
      await server.start();
      const upAt = Date.now();
      const [rejoined, resumed] = await Promise.all([
        Promise.all(recorders.map((r) => connectedSince(r.page, downAt))),
        Promise.all(recorders.map((r, i) => newLinkDecodes(r.page, made[i]!))),
      ]);
      const pages: Record<string, PageTimeline> = {};
      for (const [i, r] of recorders.entries()) pages[r.name] = await r.timeline(upAt, downAt, made[i]!, rejoined[i]!, resumed[i]!);
      const sample: OutageSample = { engine, outageSeconds, startMs: upAt - spawnAt, rejoinMs: Math.max(...rejoined) - upAt, mediaMs: Math.max(...resumed) - upAt, pages };
      samples.push(sample);
      progress(`reconnection (${engine}) after a ${outageSeconds} s outage: server start ${sample.startMs} ms; rejoined ${sample.rejoinMs} ms, media ${sample.mediaMs} ms after it listened`);
      for (const [name, t] of Object.entries(pages)) progress(`  ${name}: ${formatTimeline(t)}`);
      // Slower than the goal, or asked for: what the SDK said meanwhile, to see where the time went.
      if (sample.mediaMs > MEDIA_BACK_GOAL_MS || process.env.BENCH_OUTAGE_VERBOSE) {
        for (const r of recorders) for (const line of r.consoleSince(downAt, upAt)) progress(`  ${r.name} | ${line}`);
      }
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

/**
 * The server process killed, kept down for each outage length, then started again on the same port, on each
 * engine: the time from it listening until two pages in a room are back (CONNECTED) and decode each other's
 * video again (docs/behaviour.md §4: reconnection follows the server — goal ≤ 3 s whatever the outage), with
 * each page's stages in between.
 */
export async function runReconnectOutage(lengths = outageLengths(), engines = outageEngines()): Promise<OutageSample[]> {
  const samples: OutageSample[] = [];
  for (const [i, engine] of engines.entries()) samples.push(...await runEngine(engine, lengths, 9401 + i));
  return samples;
}

export function reconnectOutageRows(samples: readonly OutageSample[]): Row[] {
  return samples.map((s) => ({
    benchmark: `reconnection: ${s.outageSeconds} s server outage (${s.engine})`,
    figure: String(s.mediaMs),
    unit: 'ms media back',
    notes: `server listening → both pages decode each other again (goal ≤ ${MEDIA_BACK_GOAL_MS}); both CONNECTED after ${s.rejoinMs}; server start-up ${s.startMs}; `
      + Object.entries(s.pages).map(([name, t]) => `${name}: ${formatTimeline(t)}`).join('; '),
  }));
}
