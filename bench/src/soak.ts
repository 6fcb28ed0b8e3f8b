/**
 * The churn soak (issue 30): on each engine, two steady users publish and watch each other while visitors come
 * and go around them for BENCH_SOAK_MINUTES — joining (publishing or not), staying a moment, then leaving or
 * closing their tab without leaving — and the steady pages watch every visitor's video, as a meeting app does.
 * Every BENCH_SOAK_SAMPLE_SECONDS the server's memory (its process and the spawned Janus) and what it holds
 * (users, signalling connections, peer connections, engine handles, Janus's own handle count) are sampled.
 * Afterwards everything it held for the visitors must be released: the table gives the visits, the memory at the
 * start, the end and its maximum, the handle counts at the start and the end, and what leaked; the curves are
 * plotted to bench/results/soak-<engine>.svg.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { call } from '../../tests/e2e/src/harness/client-page.js';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch } from '../../tests/e2e/src/harness/join.js';
import type { EngineName } from './engines.js';
import { readRss } from './proc.js';
import { ServerProcess } from './server-process.js';
import { plotSvg, type Series } from './soak-plot.js';
import { progress, waitFor } from './stats.js';
import type { Row } from './table.js';

const ROOM = 9430;
const STEADY = ['soak-steady-a', 'soak-steady-b'] as const;
/** Visitors in the room at once. */
const SLOTS = Number(process.env.BENCH_SOAK_SLOTS ?? 2);

/** What the server holds, as counted at one moment. */
export interface SoakCounts {
  users: number;
  signalConnections: number;
  /** The engine's peer connections (stats().peerConnections). */
  peerConnections: number;
  /** The engine's handles (Janus plugin handles; werift ICE transports). */
  handles: number;
  /** Every werift peer connection of the server process (embedded links, data links). */
  weriftPeerConnections: number;
  /** Janus's own count of handles (admin API); absent on the embedded engine. */
  janusHandles?: number;
}

export interface SoakSample extends SoakCounts {
  /** Seconds since the soak started. */
  t: number;
  visits: number;
  serverRssMb: number;
  /** The server's V8 heap in use (its /metrics), MB. */
  heapUsedMb: number;
  janusRssMb?: number;
}

export interface SoakResult {
  engine: EngineName;
  minutes: number;
  visits: number;
  failedJoins: number;
  samples: SoakSample[];
  start: SoakSample;
  end: SoakSample;
  /** Counts that stayed above their start once every visitor had gone (0 each when nothing leaked). */
  leaked: Record<string, number>;
  steady: { maxGapMs: number; peerConnectionsMade: number; downlinkMLines: number; gaps: { at: string; ms: number }[]; videoElements: number; exits: number; keyFrames: KeyFrameChain[] };
  plot: string;
}

/** In a steady page: the partner's decoded frames and the longest pause; every visitor's video is watched. */
const STEADY_PROBE = `
window.soak = {
  start(partner, steady) {
    window.soak.steady = steady;
    const state = { frames: 0, last: Date.now(), maxGap: 0, gaps: [], video: null, videos: 0, decoded: 0 };
    window.soak.state = state;
    setInterval(() => {
      const video = document.querySelector('#remote-' + partner + '-main video');
      // A new <video> element (the player re-made it) starts its own count.
      if (video !== state.video) { state.video = video; state.videos++; state.frames = 0; }
      const frames = video ? video.getVideoPlaybackQuality().totalVideoFrames : 0;
      const now = Date.now();
      if (frames > state.frames) {
        const gap = now - state.last;
        if (gap > 1000) state.gaps.push({ at: new Date(now).toISOString(), ms: gap });
        state.maxGap = Math.max(state.maxGap, gap);
        state.decoded += frames - state.frames;
        state.last = now;
        state.frames = frames;
      }
    }, 50);
    const client = window.e2e.client;
    client.on(TRTC.EVENT.REMOTE_VIDEO_AVAILABLE, ({ userId, streamType }) => {
      if (!steady.includes(userId) && streamType === 'main') void window.e2e.watch(userId, streamType);
    });
    client.on(TRTC.EVENT.REMOTE_USER_EXIT, ({ userId }) => document.getElementById('remote-' + userId + '-main')?.remove());
  },
  resetGap() { window.soak.state.maxGap = 0; window.soak.state.last = Date.now(); },
  async keyFrames() {
    // The key-frame chain of this page: PLIs its downlinks sent and key frames they decoded; PLIs its uplink
    // received and key frames it encoded (a stall with PLIs sent and none received or answered shows here).
    const k = { plisSent: 0, keyFramesDecoded: 0, plisReceived: 0, keyFramesEncoded: 0 };
    for (const pc of window.__pcs.filter((pc) => pc.connectionState !== 'closed')) {
      (await pc.getStats()).forEach((r) => {
        if (r.kind !== 'video') return;
        if (r.type === 'inbound-rtp') { k.plisSent += r.pliCount || 0; k.keyFramesDecoded += r.keyFramesDecoded || 0; }
        if (r.type === 'outbound-rtp') { k.plisReceived += r.pliCount || 0; k.keyFramesEncoded += r.keyFramesEncoded || 0; }
      });
    }
    return k;
  },
  read() {
    const s = window.soak.state;
    const mlines = Math.max(0, ...window.__pcs.filter((pc) => pc.connectionState !== 'closed').map((pc) => pc.getTransceivers().length));
    const exits = window.e2e.eventsOf('remote-user-exit').filter((e) => window.soak.steady.includes(e.data.userId)).length;
    return { frames: s.decoded, maxGap: Math.max(s.maxGap, Date.now() - s.last), pcs: window.__pcs.length, mlines, gaps: s.gaps.slice(-20), videos: s.videos, exits };
  },
};
`;

interface SteadyRead { frames: number; maxGap: number; pcs: number; mlines: number; gaps: { at: string; ms: number }[]; videos: number; exits: number }
const readSteady = (page: Page): Promise<SteadyRead> => page.evaluate(() => (window as unknown as { soak: { read(): SteadyRead } }).soak.read());
/** PLIs and key frames of a steady page's links (see keyFrames in STEADY_PROBE). */
interface KeyFrameChain { plisSent: number; keyFramesDecoded: number; plisReceived: number; keyFramesEncoded: number }
const readKeyFrames = (page: Page): Promise<KeyFrameChain> => page.evaluate(() => (window as unknown as { soak: { keyFrames(): Promise<KeyFrameChain> } }).soak.keyFrames());

function rssMb(pid: number): number {
  return readRss(pid) / (1024 * 1024);
}

/** One figure of /metrics, summed over the labels that contain `label`; undefined when absent. */
function metric(text: string, name: string, label = ''): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^(\w+)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (match?.[1] === name && (match[2] ?? '').includes(label)) total = (total ?? 0) + Number(match[3]);
  }
  return total;
}

async function counts(server: ServerProcess): Promise<SoakCounts & { janusRssMb?: number; heapUsedMb?: number }> {
  const [stats, text] = await Promise.all([server.fetchStats(), fetch(`${server.url}/metrics`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.text())]);
  const janusHandles = metric(text, 'conclave_media_server_resources', '"handles"');
  return {
    users: stats.users,
    signalConnections: metric(text, 'conclave_signal_connections') ?? 0,
    peerConnections: stats.peerConnections ?? 0,
    handles: stats.handles ?? 0,
    weriftPeerConnections: metric(text, 'conclave_werift_peer_connections') ?? 0,
    ...(janusHandles !== undefined ? { janusHandles } : {}),
    ...(stats.mediaServerMemoryBytes !== undefined ? { janusRssMb: stats.mediaServerMemoryBytes / 1048576 } : {}),
    heapUsedMb: (metric(text, 'conclave_nodejs_heap_size_used_bytes') ?? 0) / 1048576,
  };
}

const COUNT_KEYS = ['users', 'signalConnections', 'peerConnections', 'handles', 'weriftPeerConnections', 'janusHandles'] as const;
const sameCounts = (a: SoakCounts, b: SoakCounts) => COUNT_KEYS.every((k) => a[k] === b[k]);

/** Starts the bench's server child with `engine`, and quick drops of silent users (as in the e2e churn test). */
async function startServer(engine: EngineName): Promise<ServerProcess> {
  const settings = { CONCLAVE_ENGINE: engine, CONCLAVE_HEARTBEAT_TIMEOUT_MS: '6000', CONCLAVE_SESSION_GRACE_MS: '1000' };
  return ServerProcess.start({ env: settings });
}

/** One visitor: joins (publishing two times in three), stays a moment, leaves or closes its tab (one in four). */
async function visit(context: BrowserContext, app: AppHost, server: ServerProcess, n: number): Promise<boolean> {
  const page = await app.open(context);
  try {
    const joined = await join(page, server, `soak-visitor-${n}`, { roomId: ROOM }, { publish: n % 3 !== 2, profile: '120p' });
    if (!joined.ok) return false;
    // The visit's stay (it is the load, not a wait before an assertion).
    await new Promise((resolve) => setTimeout(resolve, 1000 + (n % 4) * 500));
    if (n % 4 !== 3) await call(page, 'exitRoom');
    return true;
  } finally {
    await page.close();
  }
}

/** The soak on one engine. */
export async function runSoak(context: BrowserContext, openApp: (serverUrl: string) => Promise<AppHost>, engine: EngineName,
  { minutes = 1, sampleSeconds = 5, resultsDir }: { minutes?: number; sampleSeconds?: number; resultsDir: string }): Promise<SoakResult> {
  const server = await startServer(engine);
  const app = await openApp(server.url);
  const steadyPages: Page[] = [];
  try {
    for (const userId of STEADY) {
      const page = await app.open(context);
      await page.evaluate(STEADY_PROBE);
      const joined = await join(page, server, userId, { roomId: ROOM }, { profile: '180p' });
      if (!joined.ok) throw new Error(`soak: ${userId} could not join: ${joined.message}`);
      steadyPages.push(page);
    }
    for (const [i, page] of steadyPages.entries()) {
      await watch(page, STEADY[1 - i]);
      await page.evaluate(([partner, steady]) => (window as unknown as { soak: { start(p: string, s: readonly string[]): void } }).soak.start(partner as string, steady as readonly string[]), [STEADY[1 - i], STEADY] as const);
      await waitFor(`soak: ${STEADY[i]} decodes its partner`, () => readSteady(page), (r) => r.frames > 10);
    }
    const steadyStart = await Promise.all(steadyPages.map(readSteady));
    for (const page of steadyPages) await page.evaluate(() => (window as unknown as { soak: { resetGap(): void } }).soak.resetGap());

    const t0 = Date.now();
    let visits = 0;
    let failedJoins = 0;
    const samples: SoakSample[] = [];
    const sample = async () => {
      const { janusRssMb, heapUsedMb = 0, ...now } = await counts(server);
      samples.push({ t: (Date.now() - t0) / 1000, visits, serverRssMb: rssMb(server.pid), heapUsedMb, ...(janusRssMb !== undefined ? { janusRssMb } : {}), ...now });
    };
    await sample();
    const start = samples[0];
    const deadline = t0 + minutes * 60_000;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await new Promise((resolve) => setTimeout(resolve, sampleSeconds * 1000));
        if (sampling) await sample();
      }
    })();
    await Promise.all(Array.from({ length: SLOTS }, async () => {
      while (Date.now() < deadline) {
        const n = visits++;
        if (!await visit(context, app, server, n).catch(() => false)) failedJoins++;
        if (n % 25 === 24) progress(`soak ${engine}: ${n + 1} visits, ${((Date.now() - t0) / 60_000).toFixed(1)} min`);
      }
    }));
    // Every visitor gone (a closed tab after the heartbeat time-out and the grace): the counts come back.
    await waitFor(`soak ${engine}: the server back to its start`, () => counts(server), (c) => sameCounts(c, start), { timeoutMs: 40_000, intervalMs: 1000 })
      .catch((error: unknown) => progress(`soak ${engine}: ${(error as Error).message}`));
    sampling = false;
    await sampler;
    await sample();
    const end = samples.at(-1)!;
    const leaked = Object.fromEntries(COUNT_KEYS.filter((k) => start[k] !== undefined).map((k) => [k, Math.max(0, (end[k] ?? 0) - (start[k] ?? 0))]));
    const steadyEnd = await Promise.all(steadyPages.map(readSteady));
    const keyFrames = await Promise.all(steadyPages.map(readKeyFrames));
    const steady = {
      maxGapMs: Math.max(...steadyEnd.map((r) => r.maxGap)),
      peerConnectionsMade: steadyEnd.reduce((sum, r, i) => sum + r.pcs - steadyStart[i].pcs, 0),
      downlinkMLines: Math.max(...steadyEnd.map((r) => r.mlines)),
      gaps: steadyEnd.flatMap((r) => r.gaps),
      videoElements: steadyEnd.reduce((sum, r) => sum + r.videos, 0),
      exits: steadyEnd.reduce((sum, r) => sum + r.exits, 0),
      keyFrames,
    };
    if (steady.gaps.length > 0) progress(`soak ${engine}: steady pauses over 1 s: ${JSON.stringify(steady.gaps)}`);
    const plot = `${resultsDir}soak-${engine}.svg`;
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(plot, soakSvg(engine, samples));
    progress(`soak ${engine}: ${visits} visits in ${minutes} min; leaked ${JSON.stringify(leaked)}; plot ${plot}`);
    return { engine, minutes, visits, failedJoins, samples, start, end, leaked, steady, plot };
  } finally {
    for (const page of steadyPages) await page.close().catch(() => undefined);
    await app.close();
    await server.close();
  }
}

function soakSvg(engine: EngineName, samples: SoakSample[]): string {
  const line = (name: string, color: string, read: (s: SoakSample) => number | undefined): Series | undefined => {
    const points = samples.flatMap((s): [number, number][] => (read(s) === undefined ? [] : [[s.t / 60, read(s)!]]));
    return points.length > 0 ? { name, color, points } : undefined;
  };
  const defined = (series: (Series | undefined)[]) => series.filter((s): s is Series => s !== undefined);
  return plotSvg(`churn soak, ${engine} engine: ${samples.at(-1)?.visits ?? 0} visits`, [
    { title: 'memory', unit: 'MB resident', series: defined([line('server process', '#1f77b4', (s) => s.serverRssMb), line('server V8 heap used', '#aec7e8', (s) => s.heapUsedMb), line('Janus process', '#d62728', (s) => s.janusRssMb)]) },
    {
      title: 'what the server holds', unit: 'count', series: defined([
        line('engine handles', '#2ca02c', (s) => s.handles), line('engine peer conns', '#ff7f0e', (s) => s.peerConnections),
        line('werift peer conns', '#9467bd', (s) => s.weriftPeerConnections), line('Janus handles (admin)', '#8c564b', (s) => s.janusHandles),
        line('users', '#7f7f7f', (s) => s.users), line('signal connections', '#17becf', (s) => s.signalConnections),
      ]),
    },
  ], 'minutes');
}

/** Table rows of the soak. */
export function soakRows(results: readonly SoakResult[]): Row[] {
  return results.flatMap((r) => {
    const b = `churn soak (${r.engine})`;
    const maxRss = Math.max(...r.samples.map((s) => s.serverRssMb));
    const maxJanus = Math.max(0, ...r.samples.map((s) => s.janusRssMb ?? 0));
    const leakedTotal = Object.values(r.leaked).reduce((a, b) => a + b, 0);
    const held = (s: SoakSample) => `${s.handles} handles, ${s.peerConnections} peer conns${s.janusHandles !== undefined ? `, Janus ${s.janusHandles} handles` : ''}`;
    return [
      { benchmark: b, figure: String(r.visits), unit: 'visits', notes: `${r.minutes} min, ${SLOTS} at a time, around 2 steady users; ${r.failedJoins} failed joins; plot ${r.plot.replace(/^.*\/bench\//, 'bench/')}` },
      { benchmark: b, figure: r.end.serverRssMb.toFixed(0), unit: 'MB server RSS (end)', notes: `start ${r.start.serverRssMb.toFixed(0)}, max ${maxRss.toFixed(0)}; V8 heap used ${r.start.heapUsedMb.toFixed(0)} → ${r.end.heapUsedMb.toFixed(0)} MB` },
      ...(r.start.janusRssMb !== undefined ? [{ benchmark: b, figure: (r.end.janusRssMb ?? 0).toFixed(0), unit: 'MB Janus RSS (end)', notes: `start ${r.start.janusRssMb.toFixed(0)}, max ${maxJanus.toFixed(0)}` }] : []),
      { benchmark: b, figure: String(r.end.handles), unit: 'engine handles (end)', notes: `start: ${held(r.start)}; end: ${held(r.end)}; users ${r.start.users}→${r.end.users}` },
      { benchmark: b, figure: String(leakedTotal), unit: 'leaked', notes: `above the start once every visitor left: ${JSON.stringify(r.leaked)}` },
      { benchmark: b, figure: String(r.steady.maxGapMs), unit: 'ms longest pause', notes: `steady pair's partner video (${r.steady.gaps.length} pauses over 1 s); ${r.steady.peerConnectionsMade} peer connections made in their pages (a rebuilt link adds one); ${r.steady.exits} steady users announced gone; ${r.steady.videoElements} partner <video> elements (2: never re-made); downlink m-lines ${r.steady.downlinkMLines}; key frames per steady page (PLIs sent by its downlink / key frames decoded; PLIs its uplink received / key frames encoded): ${r.steady.keyFrames.map((k) => `${k.plisSent}/${k.keyFramesDecoded}; ${k.plisReceived}/${k.keyFramesEncoded}`).join(' — ')}` },
    ];
  });
}

/** The soak on each engine in turn, with the knobs of the environment (BENCH_SOAK_MINUTES per engine, BENCH_SOAK_SAMPLE_SECONDS). */
export async function runSoaks(context: BrowserContext, openApp: (serverUrl: string) => Promise<AppHost>, resultsDir: string,
  engines: readonly EngineName[] = ['embedded', 'janus']): Promise<SoakResult[]> {
  const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 1);
  const sampleSeconds = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 5);
  const results: SoakResult[] = [];
  for (const engine of engines) results.push(await runSoak(context, openApp, engine, { minutes, sampleSeconds, resultsDir }));
  return results;
}
