/**
 * "Capacity of one node's signalling": thousands of headless users (signal-client.ts) in hundreds of live
 * rooms against the server in its own process (server-process.ts). Phases: a ramp of joins at the plan's
 * rate; an idle window (heartbeats only); an active window (flag changes, role switches, leaves and joins
 * again); a ramp of leaves. Measured: server CPU and RSS per 1,000 connected users, join latency, messages
 * delivered per second, and users per core.
 */
import { loadavg } from 'node:os';
import { ROLE_CODE } from '@conclave/protocol';
import { genUserSig } from '@conclave/usersig';
import { TEST_APP } from '../../../tests/e2e/src/harness/server.js';
import { ServerProcess } from '../server-process.js';
import { progress, waitFor } from '../stats.js';
import { runActivity } from './activity.js';
import { LoadUser, type JoinOutcome } from './load-user.js';
import { percentiles, type Percentiles } from './percentile.js';
import { pin } from './pinning.js';
import { sourceAddress, type LoadOptions } from './plan.js';
import { ramp } from './ramp.js';
import { sampleServer, type ServerSample } from './server-sample.js';

/** Figures of one measured window. */
export interface LoadWindow {
  seconds: number;
  /** Server CPU during the window, % of one core. */
  serverCpuPercent: number;
  /** This process (the load client), % of one core. */
  clientCpuPercent: number;
  /** Server→client messages (replies and pushes) received per second across all users. */
  deliveredPerSecond: number;
  /** Of which pushes. */
  pushesPerSecond: number;
}

export interface SignalLoadResult {
  options: LoadOptions;
  pinned: boolean;
  /** Users the server counted at the plateau. */
  connected: number;
  join: Percentiles & { failures: number; retries: number; firstFailure?: string };
  /** Joins of users leaving and joining again during the active window (everyone else connected). */
  rejoin: Percentiles & { failures: number };
  idle: LoadWindow;
  active: LoadWindow & { flagChanges: number; roleSwitches: number; rejoins: number };
  /** Server RSS with nobody connected and at the plateau, bytes. */
  rss: { empty: number; plateau: number; afterLeave: number };
  /** Requests that failed in the active window (not "retry later"). */
  requestFailures: number;
  firstRequestFailure?: string;
  /** Connected users one core carries at the active window's CPU rate. */
  usersPerCore: number;
  /** Ramp of leaves: every user gone from the server. */
  leaveSeconds: number;
  /** Server CPU per join during the ramp (connection, upgrade, userSig check, join, pushes to the room), ms. */
  serverCpuMsPerJoin: number;
  /** The host's 1-minute load average at the start and the end (other work on the host slows every reading but the CPU ones). */
  hostLoad: [number, number];
}

function summarizeJoins(outcomes: readonly JoinOutcome[]) {
  const ok = outcomes.filter((o) => o.ok);
  return {
    ...percentiles(ok.map((o) => o.totalMs)),
    failures: outcomes.length - ok.length,
    retries: outcomes.reduce((sum, o) => sum + o.retries, 0),
    firstFailure: outcomes.find((o) => !o.ok)?.failure,
  };
}

const delivered = (users: readonly LoadUser[]) => users.reduce((acc, u) => {
  const c = u.counts();
  return { replies: acc.replies + c.replies, pushes: acc.pushes + c.pushes };
}, { replies: 0, pushes: 0 });

/** Measures `run` as a window: server CPU, client CPU, messages the users received. */
async function measure<T>(server: ServerProcess, users: readonly LoadUser[], run: () => Promise<T>): Promise<{ window: LoadWindow; value: T; after: ServerSample }> {
  const before = sampleServer(server.pid);
  const clientBefore = process.cpuUsage();
  const received = delivered(users);
  const value = await run();
  const after = sampleServer(server.pid);
  const client = process.cpuUsage(clientBefore);
  const receivedAfter = delivered(users);
  const seconds = (after.wallMs - before.wallMs) / 1000;
  const pushes = receivedAfter.pushes - received.pushes;
  return {
    value,
    after,
    window: {
      seconds,
      serverCpuPercent: ((after.cpuMs - before.cpuMs) / (after.wallMs - before.wallMs)) * 100,
      clientCpuPercent: ((client.user + client.system) / 1000 / (after.wallMs - before.wallMs)) * 100,
      deliveredPerSecond: (receivedAfter.replies - received.replies + pushes) / seconds,
      pushesPerSecond: pushes / seconds,
    },
  };
}

/** Runs the whole load against a fresh server child; closes it at the end. */
export async function runSignalLoad(options: LoadOptions): Promise<SignalLoadResult> {
  const server = await ServerProcess.start();
  try {
    return await loadServer(server, options);
  } finally {
    await server.close();
  }
}

async function loadServer(server: ServerProcess, o: LoadOptions): Promise<SignalLoadResult> {
  const pinned = o.pin && pin(server.pid, 0) && pin(process.pid, 1);
  progress(`signal-load: ${o.users} users in ${o.rooms} rooms, joins at ${o.joinRate}/s${pinned ? ', server on core 0, client on core 1' : ''}`);
  const users: LoadUser[] = [];
  for (let i = 0; i < o.users; i++) {
    const userId = `load-${i}`;
    users.push(new LoadUser({
      serverUrl: server.url, sdkAppId: TEST_APP.sdkAppId, userId,
      userSig: await genUserSig({ sdkAppId: TEST_APP.sdkAppId, secretKey: TEST_APP.secretKey, userId }),
      roomId: 1 + (i % o.rooms),
      role: i < o.rooms * o.anchorsPerRoom ? ROLE_CODE.anchor : ROLE_CODE.audience,
      localAddress: sourceAddress(i, o.usersPerAddress),
    }));
  }
  const hostLoadBefore = loadavg()[0];
  const empty = sampleServer(server.pid);

  const joins = await ramp(users, o.joinRate, (u) => u.join());
  const rampEnd = sampleServer(server.pid);
  const join = summarizeJoins(joins);
  progress(`signal-load: ${o.users - join.failures} joined; join p50 ${join.p50.toFixed(0)} ms, p99 ${join.p99.toFixed(0)} ms, ${join.failures} failed${join.firstFailure ? ` (${join.firstFailure})` : ''}`);
  const stats = await server.fetchStats();

  const idle = await measure(server, users, () => new Promise((resolve) => setTimeout(resolve, o.idleSeconds * 1000))); // fixed window
  progress(`signal-load idle: server ${idle.window.serverCpuPercent.toFixed(1)}% of a core, ${idle.window.deliveredPerSecond.toFixed(0)} messages/s delivered`);
  const failuresBefore = users.reduce((n, u) => n + u.failures, 0);
  const active = await measure(server, users, () => runActivity(users, o.activeSeconds, o));
  const requestFailures = users.reduce((n, u) => n + u.failures, 0) - failuresBefore;
  const rejoin = summarizeJoins(active.value.rejoins);
  progress(`signal-load active: server ${active.window.serverCpuPercent.toFixed(1)}% of a core, ${active.window.deliveredPerSecond.toFixed(0)} messages/s delivered (${active.window.pushesPerSecond.toFixed(0)} pushes/s), rejoin p99 ${rejoin.p99.toFixed(0)} ms`);

  const leaveStarted = performance.now();
  await ramp(users, o.joinRate, (u) => u.leave());
  await waitFor('every user to be gone from the server', () => server.fetchStats(), (s) => s.users === 0, { timeoutMs: 30_000 });
  const leaveSeconds = (performance.now() - leaveStarted) / 1000;
  return {
    options: o,
    pinned,
    connected: stats.users,
    join,
    rejoin,
    idle: idle.window,
    active: { ...active.window, flagChanges: active.value.flagChanges, roleSwitches: active.value.roleSwitches, rejoins: active.value.rejoins.length },
    rss: { empty: empty.rssBytes, plateau: idle.after.rssBytes, afterLeave: sampleServer(server.pid).rssBytes },
    requestFailures,
    firstRequestFailure: users.find((u) => u.lastFailure)?.lastFailure,
    usersPerCore: stats.users / Math.max(active.window.serverCpuPercent / 100, 1e-6),
    leaveSeconds,
    serverCpuMsPerJoin: (rampEnd.cpuMs - empty.cpuMs) / Math.max(1, join.count),
    hostLoad: [hostLoadBefore, loadavg()[0]],
  };
}
