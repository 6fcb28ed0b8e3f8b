import type { BrowserContext, Page } from 'playwright-core';
import { eventsOf, media, type AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join, watch } from '../../tests/e2e/src/harness/join.js';
import { installBenchHelpers, leave, remoteVideos, sent } from './page-helpers.js';
import { readHostCpu } from './proc.js';
import type { ServerProcess } from './server-process.js';
import { progress, waitFor } from './stats.js';

/** An engine counter this bench needs (the embedded engine counts what it forwards; an engine that does not cannot be measured here). */
function counted(value: number | undefined): number {
  if (value === undefined) throw new Error('this media engine does not count forwarded packets and bytes; use the engine comparison (engines.ts)');
  return value;
}

/** Figures of one fixed measurement window. */
export interface WindowResult {
  label: string;
  wallMs: number;
  /** Server process CPU (utime+stime from /proc), ms. */
  serverCpuMs: number;
  /** Same, from the child's own process.cpuUsage(), as a cross-check, ms. */
  serverCpuUsageMs: number;
  /** Server CPU as % of one core. */
  serverCpuPercent: number;
  /** Whole-host CPU busy, % of all cores (Chromium + server + driver). */
  hostBusyPercent: number;
  /** Benchmark driver (this process: playwright client) CPU as % of one core. */
  driverCpuPercent: number;
  forwardedPackets: number;
  forwardedBytes: number;
  /** Forwarded RTP payload bitrate, Mbit/s. */
  forwardedMbps: number;
  forwardedPacketsPerSecond: number;
  /** Forwarded streams during the window. */
  streams: { video: number; audio: number };
  /** Frames per second each subscriber decoded during the window (all its remote videos together). */
  subscriberFps: number[];
}

export interface ServerCpuResult {
  publishers: number;
  subscribers: number;
  cores: number;
  /** Everyone joined and publishing; nobody watching video (remote audio is auto-received, as SDK default). */
  baseline: WindowResult;
  /** Every subscriber watching every publisher's main video. */
  forwarding: WindowResult;
  /** Server CPU ms per second per forwarded stream (audio and video each counted), during forwarding. */
  cpuMsPerSecPerStream: number;
  /** (forwarding − baseline) server CPU ms/s divided by the added video streams. */
  marginalCpuMsPerSecPerVideoStream: number;
  /** Server CPU ms/s per forwarded Mbit/s, during forwarding. */
  cpuMsPerSecPerMbps: number;
  /** Each publisher's video uplink during the forwarding window (outbound-rtp, includes RTP headers). */
  publisherVideo: { kbps: number; targetKbps: number; size: string; fps: number; qualityLimitationReason: string }[];
}

interface Participant {
  page: Page;
  userId: string;
}

/** Measures one window of `seconds`: server CPU, host CPU, forwarded bytes, subscriber decode rate. */
async function measureWindow(label: string, seconds: number, server: ServerProcess, subscribers: Participant[],
  streams: { video: number; audio: number }): Promise<WindowResult> {
  const framesBefore = await Promise.all(subscribers.map(async (s) => (await media(s.page)).framesDecoded));
  const statsBefore = await server.fetchStats();
  const childCpuBefore = await server.fetchCpuUsage();
  const hostBefore = readHostCpu();
  const driverBefore = process.cpuUsage();
  const before = server.cpu();
  progress(`server-cpu: measuring '${label}' for ${seconds} s`);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000)); // the fixed measurement window
  const after = server.cpu();
  const driverAfter = process.cpuUsage(driverBefore);
  const hostAfter = readHostCpu();
  const childCpuAfter = await server.fetchCpuUsage();
  const statsAfter = await server.fetchStats();
  const framesAfter = await Promise.all(subscribers.map(async (s) => (await media(s.page)).framesDecoded));

  const wallMs = after.wallMs - before.wallMs;
  const serverCpuMs = after.cpuMs - before.cpuMs;
  const forwardedBytes = counted(statsAfter.forwardedBytes) - counted(statsBefore.forwardedBytes);
  const forwardedPackets = counted(statsAfter.forwardedPackets) - counted(statsBefore.forwardedPackets);
  const result: WindowResult = {
    label,
    wallMs,
    serverCpuMs,
    serverCpuUsageMs: (childCpuAfter.user + childCpuAfter.system - childCpuBefore.user - childCpuBefore.system) / 1000,
    serverCpuPercent: (serverCpuMs / wallMs) * 100,
    hostBusyPercent: ((hostAfter.busy - hostBefore.busy) / (hostAfter.total - hostBefore.total)) * 100,
    driverCpuPercent: ((driverAfter.user + driverAfter.system) / 1000 / wallMs) * 100,
    forwardedPackets,
    forwardedBytes,
    forwardedMbps: (forwardedBytes * 8) / (wallMs / 1000) / 1e6,
    forwardedPacketsPerSecond: forwardedPackets / (wallMs / 1000),
    streams,
    subscriberFps: framesAfter.map((f, i) => (f - framesBefore[i]) / (wallMs / 1000)),
  };
  progress(`server-cpu '${label}': server ${result.serverCpuPercent.toFixed(1)}% of a core, ${result.forwardedMbps.toFixed(2)} Mbit/s forwarded, host ${result.hostBusyPercent.toFixed(0)}% busy`);
  return result;
}

/**
 * Waits (bounded) until the rate of a cumulative counter is steady: two consecutive `stepMs` samples
 * within `relTolerance` of each other (or within `absTolerance` per second). Returns the last rate per second.
 */
async function waitForSteadyRate(what: string, counter: () => Promise<number>,
  { stepMs = 2_000, relTolerance = 0.15, absTolerance = 0, timeoutMs = 14_000 } = {}): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let previousRate = -1;
  let last = await counter();
  let rate = 0;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, stepMs)); // sampling interval of a bounded condition wait
    const now = await counter();
    rate = ((now - last) * 1000) / stepMs;
    last = now;
    const diff = Math.abs(rate - previousRate);
    if (previousRate >= 0 && (diff <= absTolerance || (previousRate > 0 && diff / previousRate < relTolerance))) return rate;
    previousRate = rate;
  }
  progress(`server-cpu: ${what} still changing after ${timeoutMs} ms; measuring anyway`);
  return rate;
}

/** Server CPU as a cumulative counter in ms, from the child's process.cpuUsage() (µs resolution, unlike /proc ticks). */
const serverCpuMs = (server: ServerProcess) => async () => {
  const usage = await server.fetchCpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * "server CPU per forwarded stream": `publishers` pages publish camera + microphone, `subscribers` pages join
 * without publishing. A baseline window is measured with nobody watching video, then every subscriber
 * watches every publisher and the forwarding window is measured. CPU is the server child process's own.
 */
export async function runServerCpu(context: BrowserContext, app: AppHost, server: ServerProcess,
  { publishers = 2, subscribers = 2, roomId = 9002, baselineSeconds = 10, windowSeconds = 20, cores = 1 } = {}): Promise<ServerCpuResult> {
  const pubs: Participant[] = [];
  const subs: Participant[] = [];
  try {
    await waitFor('the server to be empty', () => server.fetchStats(), (st) => st.users === 0 && st.uplinks === 0 && st.downlinks === 0, { timeoutMs: 15_000 });
    for (let i = 1; i <= publishers; i++) pubs.push({ page: await app.open(context), userId: `cpu-pub-${i}` });
    for (let i = 1; i <= subscribers; i++) subs.push({ page: await app.open(context), userId: `cpu-sub-${i}` });
    for (const p of [...pubs, ...subs]) {
      await installBenchHelpers(p.page);
      const joined = await join(p.page, server, p.userId, { roomId }, { publish: pubs.includes(p) });
      if (!joined.ok) throw new Error(`${p.userId} could not join: ${JSON.stringify(joined)}`);
    }
    progress(`server-cpu: ${publishers} publishers and ${subscribers} subscribers joined room ${roomId}`);
    for (const p of pubs) {
      await waitFor(`${p.userId} to send video`, () => sent(p.page), (s) => s.framesEncoded > 0 && s.audioBytes > 0, { timeoutMs: 20_000 });
    }
    for (const s of subs) {
      await waitFor(`${s.userId} to see every publisher's video`, async () => (await eventsOf(s.page, 'remote-video-available')).length,
        (n) => n >= publishers, { timeoutMs: 15_000 });
    }
    // Remote audio is auto-received (SDK default): every user receives each publisher's audio, on one downlink per pair.
    const audioStreams = publishers * (publishers - 1 + subscribers);
    await waitFor('audio downlinks', () => server.fetchStats(), (st) => st.uplinks === publishers && st.downlinks === audioStreams, { timeoutMs: 15_000 });
    await waitFor('audio to be forwarded', async () => Promise.all(subs.map(async (s) => (await media(s.page)).audioBytes)),
      (bytes) => bytes.every((b) => b > 0), { timeoutMs: 15_000 });

    // Joining costs the server CPU (ICE, DTLS handshakes, JIT warm-up); let that pass before the baseline.
    const settled = await waitForSteadyRate('server CPU', serverCpuMs(server), { absTolerance: 10, relTolerance: 0.2 });
    progress(`server-cpu: server CPU steady at ${(settled / 10).toFixed(1)}% of a core`);
    const baseline = await measureWindow('baseline: publishing, audio only forwarded', baselineSeconds, server, subs, { video: 0, audio: audioStreams });

    for (const s of subs) for (const p of pubs) await watch(s.page, p.userId);
    for (const s of subs) {
      await waitFor(`${s.userId} to render every publisher's video`, () => remoteVideos(s.page),
        (videos) => videos.length === publishers && videos.every((v) => v.width > 0), { timeoutMs: 30_000 });
    }
    progress('server-cpu: every subscriber renders every publisher');
    const steady = await waitForSteadyRate('forwarded bitrate', async () => counted((await server.fetchStats()).forwardedBytes));
    progress(`server-cpu: forwarded rate steady at ${((steady * 8) / 1e6).toFixed(2)} Mbit/s`);
    const sentBefore = await Promise.all(pubs.map((p) => sent(p.page)));
    const videoStreams = publishers * subscribers;
    const forwarding = await measureWindow('forwarding: audio + video', windowSeconds, server, subs, { video: videoStreams, audio: audioStreams });

    const sentAfter = await Promise.all(pubs.map((p) => sent(p.page)));
    const publisherVideo = sentAfter.map((after, i) => ({
      kbps: ((after.videoBytes - sentBefore[i].videoBytes) * 8) / forwarding.wallMs,
      targetKbps: after.targetBitrate / 1000,
      size: `${after.frameWidth}x${after.frameHeight}`,
      fps: after.framesPerSecond,
      qualityLimitationReason: after.qualityLimitationReason,
    }));
    const perSecond = (w: WindowResult) => w.serverCpuMs / (w.wallMs / 1000);
    return {
      publishers,
      subscribers,
      cores,
      baseline,
      forwarding,
      cpuMsPerSecPerStream: perSecond(forwarding) / (videoStreams + audioStreams),
      marginalCpuMsPerSecPerVideoStream: (perSecond(forwarding) - perSecond(baseline)) / videoStreams,
      cpuMsPerSecPerMbps: perSecond(forwarding) / forwarding.forwardedMbps,
      publisherVideo,
    };
  } finally {
    for (const p of [...subs, ...pubs]) {
      await leave(p.page).catch(() => undefined);
      await p.page.close();
    }
  }
}
