/** The signalling-capacity rows of the bench table. */
import { availableParallelism } from 'node:os';
import type { Row } from '../table.js';
import type { SignalLoadResult } from './run-signal-load.js';

const f0 = (v: number) => v.toFixed(0);
const f1 = (v: number) => v.toFixed(1);
const mb = (bytes: number) => bytes / (1024 * 1024);

export function signalLoadRows(r: SignalLoadResult): Row[] {
  const b = 'signalling capacity (one node)';
  const o = r.options;
  const per1000 = 1000 / Math.max(r.connected, 1);
  const setup = `${r.connected} users in ${o.rooms} live rooms, headless protocol clients over ${Math.ceil(o.users / o.usersPerAddress)} loopback source addresses (${o.usersPerAddress} each, under the default per-address limit; server limits unchanged)${r.pinned ? '; server pinned to core 0, client to core 1' : ''}`;
  return [
    { benchmark: b, figure: f0(r.usersPerCore), unit: 'users per core', notes: `connected users ÷ server CPU share in the active window (goal ≥ 5000); ${setup}` },
    { benchmark: b, figure: f0(r.join.p50), unit: 'ms join p50', notes: `ramp of ${r.join.count} joins at ${o.joinRate}/s: WebSocket open → join OK, "retry later" waits included (${r.join.retries} retries, ${r.join.failures} failed)` },
    { benchmark: b, figure: f0(r.join.p99), unit: 'ms join p99', notes: `goal < 200; max ${f0(r.join.max)} ms` },
    { benchmark: b, figure: r.serverCpuMsPerJoin.toFixed(2), unit: 'server CPU ms per join', notes: `during the ramp: WebSocket upgrade, userSig check, join, peer-join to the room (${f0(1000 / Math.max(r.serverCpuMsPerJoin, 1e-3))} joins/s per core)` },
    { benchmark: b, figure: f0(r.rejoin.p99), unit: 'ms rejoin p99', notes: `${r.rejoin.count} leave + join again during the active window, everyone else connected (p50 ${f0(r.rejoin.p50)} ms, ${r.rejoin.failures} failed)` },
    { benchmark: b, figure: f1(r.idle.serverCpuPercent * per1000 * 10), unit: 'CPU ms/s per 1000 users', notes: `idle: heartbeats every 2 s only (${f1(r.idle.serverCpuPercent)}% of a core for ${r.connected} users)` },
    { benchmark: b, figure: f1(r.active.serverCpuPercent * per1000 * 10), unit: 'CPU ms/s per 1000 users', notes: `active: + ${f0(r.active.flagChanges / r.active.seconds)} flag changes/s (publish-list to the room), ${f1(r.active.roleSwitches / r.active.seconds)} role switches/s, ${f1(r.active.rejoins / r.active.seconds)} rejoins/s (${f1(r.active.serverCpuPercent)}% of a core)` },
    { benchmark: b, figure: f0(r.active.deliveredPerSecond), unit: 'messages/s delivered', notes: `server → clients in the active window: replies + ${f0(r.active.pushesPerSecond)} pushes/s; ${r.requestFailures} requests failed${r.firstRequestFailure ? ` (e.g. ${r.firstRequestFailure})` : ''}` },
    { benchmark: b, figure: f1(mb(r.rss.plateau - r.rss.empty) * per1000), unit: 'MB RSS per 1000 users', notes: `server RSS ${f0(mb(r.rss.empty))} MB empty, ${f0(mb(r.rss.plateau))} MB at ${r.connected} users, ${f0(mb(r.rss.afterLeave))} MB after all left` },
    { benchmark: b, figure: f1(r.active.clientCpuPercent), unit: '% of 1 core', notes: `the load client itself in the active window; host load average ${r.hostLoad.map(f1).join(' → ')} on ${availableParallelism()} cores (latencies are the host's as much as the server's when it is above the core count)` },
  ];
}
