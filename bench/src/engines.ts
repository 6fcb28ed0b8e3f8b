/**
 * "media engines side by side": for the embedded (werift) and the Janus engine, on servers started the
 * same way (the bench's server child, only CONCLAVE_ENGINE differs):
 * - server CPU of the whole process tree (Janus included) per forwarded RTP packet and per forwarded
 *   Mbit/s, with 2 publishers × 6 subscribers each watching both; forwarded packets and bytes are what
 *   the subscribers' inbound-rtp counters received (engine-independent);
 * - enterRoom() → first remote frame, median of 10 (the existing first-frame measurement);
 * - a 12-user room: time until a newcomer renders all 11 others, and peer connections per page;
 * - a 720p publisher: seconds until it sends its profile's bitrate and size (publisher-ramp.ts).
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch } from '../../tests/e2e/src/harness/join.js';
import { runFirstFrame, type FirstFrameResult } from './first-frame.js';
import { publisherRampRows, runPublisherRamp, type PublisherRamp } from './publisher-ramp.js';
import { installBenchHelpers, leave, sent } from './page-helpers.js';
import { treeCpu, treeCpuByProcess } from './proc.js';
import { ServerProcess } from './server-process.js';
import { progress, waitFor } from './stats.js';
import type { Row } from './table.js';

export type EngineName = 'embedded' | 'janus';

/** The measurements of the comparison (BENCH_ENGINE_PARTS picks some). */
export const ENGINE_PARTS = ['first-frame', 'cpu', 'cpu-heavy', 'newcomer', 'ramp'] as const;

/** Subscribers of the heavier CPU row (each a Chromium page decoding both publishers). */
const HEAVY_SUBSCRIBERS = Number(process.env.BENCH_ENGINE_HEAVY_SUBSCRIBERS ?? 12);
export type EnginePart = typeof ENGINE_PARTS[number];

export interface EngineCpu {
  wallMs: number;
  /** utime+stime of the server process and all its descendants (Janus), ms. */
  treeCpuMs: number;
  /** The same per process of the tree ("pid name": the Node server, Janus). */
  byProcess: Record<string, number>;
  packets: number;
  bytes: number;
  packetsPerCpuSecond: number;
  cpuMsPerMbit: number;
  forwardedMbps: number;
  packetsPerSecond: number;
  /** Publishers × subscribers of the run. */
  publishers: number;
  subscribers: number;
  /** CPU of the same tree with nobody connected (Janus's idle threads, Node's timers), ms per second. */
  idleCpuMsPerSecond: number;
  /** Packets per CPU-second above that idle rate: the per-packet cost without the fixed one. */
  packetsPerMarginalCpuSecond: number;
}

export interface EngineResult {
  engine: EngineName;
  cpu?: EngineCpu;
  /** The same with BENCH_ENGINE_HEAVY_SUBSCRIBERS (12) subscribers. */
  cpuHeavy?: EngineCpu;
  firstFrame?: FirstFrameResult;
  newcomer?: { renderAllMs: number; availableAllMs: number; peerConnectionsMax: number; peerConnectionsNewcomer: number };
  /** A 720p publisher's climb to its profile (publisher-ramp.ts). */
  ramp?: PublisherRamp;
}

/** Packets and bytes a page received over RTP (all its peer connections). */
const received = (page: Page): Promise<{ packets: number; bytes: number }> => page.evaluate(async () => {
  let packets = 0;
  let bytes = 0;
  for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    if (pc.connectionState === 'closed') continue;
    (await pc.getStats()).forEach((s: { type: string; packetsReceived?: number; bytesReceived?: number }) => {
      if (s.type !== 'inbound-rtp') return;
      packets += s.packetsReceived ?? 0;
      bytes += s.bytesReceived ?? 0;
    });
  }
  return { packets, bytes };
});

const peerConnections = (page: Page): Promise<number> => page.evaluate(() =>
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState !== 'closed').length);

async function closeAll(pages: Page[]): Promise<void> {
  for (const page of pages) {
    await leave(page).catch(() => undefined);
    await page.close();
  }
}

/** The server tree's CPU, ms per second, over `seconds` with nobody connected. */
async function idleCpu(server: ServerProcess, seconds: number): Promise<number> {
  const before = treeCpu(server.pid);
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (treeCpu(server.pid) - before) / ((performance.now() - t0) / 1000);
}

async function measureCpu(context: BrowserContext, app: AppHost, server: ServerProcess, windowSeconds: number,
  { publishers = 2, subscribers = 6 } = {}): Promise<EngineCpu> {
  const pubs: Page[] = [];
  const subs: Page[] = [];
  const idleCpuMsPerSecond = await idleCpu(server, Math.min(windowSeconds, 10));
  try {
    for (let i = 1; i <= publishers; i++) {
      const page = await app.open(context);
      await installBenchHelpers(page);
      if (!(await join(page, server, `eng-pub-${i}`, { roomId: 9301 })).ok) throw new Error('publisher could not join');
      pubs.push(page);
    }
    for (let i = 1; i <= subscribers; i++) {
      const page = await app.open(context);
      if (!(await join(page, server, `eng-sub-${i}`, { roomId: 9301 }, { publish: false })).ok) throw new Error('subscriber could not join');
      subs.push(page);
    }
    for (const page of pubs) await waitFor('publisher video', () => sent(page), (s) => s.framesEncoded > 0, { timeoutMs: 30_000 });
    for (const page of subs) {
      for (let i = 1; i <= publishers; i++) await watch(page, `eng-pub-${i}`);
    }
    for (const page of subs) {
      await waitFor('every subscriber decodes every publisher', () => page.evaluate(() => Array.from(document.querySelectorAll('[id^="remote-"] video'))
        .filter((v) => (v as HTMLVideoElement).videoWidth > 0).length), (n) => n === publishers, { timeoutMs: 60_000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 5000)); // settle: bitrate ramp-up after the first frames
    const before = await Promise.all(subs.map(received));
    const byProcessBefore = treeCpuByProcess(server.pid);
    const t0 = performance.now();
    await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000)); // the fixed measurement window
    const byProcessAfter = treeCpuByProcess(server.pid);
    const cpuBefore = Object.values(byProcessBefore).reduce((a, b) => a + b, 0);
    const cpuAfter = Object.values(byProcessAfter).reduce((a, b) => a + b, 0);
    const byProcess = Object.fromEntries(Object.entries(byProcessAfter).map(([key, ms]) => [key, ms - (byProcessBefore[key] ?? 0)]));
    const wallMs = performance.now() - t0;
    const after = await Promise.all(subs.map(received));
    const packets = after.reduce((sum, a, i) => sum + a.packets - before[i].packets, 0);
    const bytes = after.reduce((sum, a, i) => sum + a.bytes - before[i].bytes, 0);
    const treeCpuMs = cpuAfter - cpuBefore;
    const megabits = (bytes * 8) / 1e6;
    const marginalCpuMs = treeCpuMs - idleCpuMsPerSecond * (wallMs / 1000);
    return {
      wallMs, treeCpuMs, byProcess, packets, bytes, publishers, subscribers, idleCpuMsPerSecond,
      packetsPerMarginalCpuSecond: packets / Math.max(marginalCpuMs / 1000, 1e-6),
      packetsPerCpuSecond: packets / Math.max(treeCpuMs / 1000, 1e-6),
      cpuMsPerMbit: treeCpuMs / Math.max(megabits, 1e-6),
      forwardedMbps: megabits / (wallMs / 1000),
      packetsPerSecond: packets / (wallMs / 1000),
    };
  } finally {
    await closeAll([...subs, ...pubs]);
  }
}

async function measureNewcomer(context: BrowserContext, app: AppHost, server: ServerProcess): Promise<EngineResult['newcomer']> {
  const pages: Page[] = [];
  try {
    // Members receive nobody (no audio either), as in the 12-user e2e test: 11 pages that each play 10
    // others' audio load 2 cores before the newcomer arrives.
    for (let i = 1; i <= 11; i++) {
      const page = await app.open(context);
      if (!(await join(page, server, `room-${i}`, { roomId: 9302 }, { profile: '120p', enter: { autoReceiveAudio: false } })).ok) throw new Error('member could not join');
      pages.push(page);
    }
    const newcomer = await app.open(context);
    pages.push(newcomer);
    await installBenchHelpers(newcomer);
    const t0 = Date.now();
    // The newcomer watches each user as soon as its video is announced, as an app does.
    await newcomer.evaluate(() => {
      const e2e = (window as unknown as { e2e: { client: { on(e: string, f: (d: { userId: string }) => void): void } | null; create(o?: unknown): void; watch(id: string): Promise<void> } }).e2e;
      e2e.create();
      e2e.client!.on('remote-video-available', ({ userId }) => void e2e.watch(userId));
    });
    if (!(await join(newcomer, server, 'newcomer', { roomId: 9302 }, { publish: false, reuse: true })).ok) throw new Error('newcomer could not join');
    const available = await waitFor('11 videos announced', () => newcomer.evaluate(() =>
      (window as unknown as { e2e: { events: { type: string; at: number }[] } }).e2e.events.filter((e) => e.type === 'remote-video-available').map((e) => e.at)),
    (at) => at.length >= 11, { timeoutMs: 60_000 });
    await waitFor('11 videos rendered', () => newcomer.evaluate(() => Array.from(document.querySelectorAll('[id^="remote-"] video'))
      .filter((v) => (v as HTMLVideoElement).videoWidth > 0).length), (n) => n >= 11, { timeoutMs: 120_000, intervalMs: 100 });
    const renderAllMs = Date.now() - t0;
    const counts = await Promise.all(pages.map(peerConnections));
    return { renderAllMs, availableAllMs: Math.max(...available) - t0, peerConnectionsMax: Math.max(...counts), peerConnectionsNewcomer: counts.at(-1)! };
  } finally {
    await closeAll(pages);
  }
}

/** Runs every measurement on each engine, one server after the other. */
export async function runEngines(context: BrowserContext, openApp: (serverUrl: string) => Promise<AppHost>,
  { engines = ['embedded', 'janus'] as EngineName[], windowSeconds = 20, iterations = 10, parts = ENGINE_PARTS as readonly EnginePart[] } = {}): Promise<EngineResult[]> {
  const results: EngineResult[] = [];
  for (const engine of engines) {
    const server = await ServerProcess.start({ env: { CONCLAVE_ENGINE: engine } });
    const app = await openApp(server.url);
    try {
      progress(`engines: ${engine} server at ${server.url}`);
      const firstFrame = parts.includes('first-frame') ? await runFirstFrame(context, app, server, { iterations, roomId: 9300 }) : undefined;
      const cpu = parts.includes('cpu') ? await measureCpu(context, app, server, windowSeconds) : undefined;
      if (cpu) progress(`engines: ${engine}: ${cpu.packetsPerCpuSecond.toFixed(0)} packets per CPU-second, ${cpu.cpuMsPerMbit.toFixed(1)} CPU-ms per Mbit, idle ${cpu.idleCpuMsPerSecond.toFixed(1)} CPU-ms/s`);
      // The heavier row: more subscribers, so that per-packet costs weigh more than fixed ones.
      const cpuHeavy = parts.includes('cpu-heavy') ? await measureCpu(context, app, server, windowSeconds, { publishers: 2, subscribers: HEAVY_SUBSCRIBERS }) : undefined;
      const newcomer = parts.includes('newcomer') ? await measureNewcomer(context, app, server) : undefined;
      const ramp = parts.includes('ramp') ? await runPublisherRamp(context, app, server) : undefined;
      results.push({ engine, cpu, cpuHeavy, firstFrame, newcomer, ramp });
    } finally {
      await app.close();
      await server.close();
    }
  }
  return results;
}

/** Table rows, both engines side by side, with the anchors. */
export function engineRows(results: EngineResult[]): Row[] {
  const b = 'media engines';
  const rows: Row[] = [];
  for (const r of results) {
    for (const c of [r.cpu, r.cpuHeavy]) {
      if (!c) continue;
      const size = `${c.publishers} pub × ${c.subscribers} sub`;
      rows.push(
        { benchmark: b, figure: c.packetsPerCpuSecond.toFixed(0), unit: `packets per CPU-s (${r.engine}, ${size})`, notes: `server process tree (Janus included), ${(c.wallMs / 1000).toFixed(0)} s; ${c.packetsPerSecond.toFixed(0)} pkt/s, ${c.forwardedMbps.toFixed(2)} Mbit/s received by subscribers` },
        { benchmark: b, figure: c.packetsPerMarginalCpuSecond.toFixed(0), unit: `packets per CPU-s above idle (${r.engine}, ${size})`, notes: `idle tree (nobody connected) ${c.idleCpuMsPerSecond.toFixed(1)} CPU-ms/s subtracted` },
        { benchmark: b, figure: c.cpuMsPerMbit.toFixed(1), unit: `CPU-ms per Mbit (${r.engine}, ${size})`, notes: 'per forwarded Mbit (subscribers\' inbound-rtp bytes)' },
      );
    }
    if (r.firstFrame) rows.push({ benchmark: b, figure: r.firstFrame.summary.median.toFixed(0), unit: `ms first frame, median (${r.engine})`, notes: `n=${r.firstFrame.summary.count}, enterRoom() → first rendered remote frame; p90 ${r.firstFrame.summary.p90.toFixed(0)} ms` });
    if (r.newcomer) {
      rows.push(
        { benchmark: b, figure: r.newcomer.renderAllMs.toFixed(0), unit: `ms newcomer renders 11 (${r.engine})`, notes: `12-user room (11 publish 120p); all 11 announced after ${r.newcomer.availableAllMs.toFixed(0)} ms` },
        { benchmark: b, figure: String(r.newcomer.peerConnectionsMax), unit: `peer connections per page, max (${r.engine})`, notes: `newcomer: ${r.newcomer.peerConnectionsNewcomer} (uplink, downlink, data link)` },
      );
    }
  }
  for (const pick of [(r: EngineResult) => r.cpu, (r: EngineResult) => r.cpuHeavy]) {
    const [embedded, janus] = [results.find((r) => r.engine === 'embedded'), results.find((r) => r.engine === 'janus')].map((r) => r && pick(r));
    if (!embedded || !janus) continue;
    const size = `${janus.publishers} pub × ${janus.subscribers} sub`;
    rows.push({ benchmark: b, figure: (janus.packetsPerCpuSecond / embedded.packetsPerCpuSecond).toFixed(1), unit: `× janus / embedded packets per CPU-s (${size})`, notes: 'goal ≥ 10×' });
    rows.push({ benchmark: b, figure: (janus.packetsPerMarginalCpuSecond / embedded.packetsPerMarginalCpuSecond).toFixed(1), unit: `× janus / embedded, above idle (${size})`, notes: 'fixed costs (idle tree) subtracted' });
  }
  for (const r of results) if (r.ramp) rows.push(...publisherRampRows(r.engine, r.ramp));
  rows.push({ benchmark: b, figure: '38000–75000', unit: 'packets/s per vCPU (anchor)', notes: 'LiveKit, published figures' });
  rows.push({ benchmark: b, figure: '~500', unit: 'consumers per core (anchor)', notes: 'mediasoup, published figure' });
  return rows;
}
