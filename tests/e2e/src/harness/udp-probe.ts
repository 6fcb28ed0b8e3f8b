/**
 * UDP probes across a namespace's link, to prove an impairment (harness/impair.ts) is what it says: a train of
 * datagrams, each stamped with the sender's monotonic clock (CLOCK_MONOTONIC, shared by every process of the
 * machine, so one-way delay is measured), sent one way; the receiver reports what arrived.
 */
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import type { Direction } from './impair.js';
import type { NetNamespace } from './netns.js';

const SENDER = `
const s = require('node:dgram').createSocket('udp4');
const [host, port, count, intervalMs, size] = process.argv.slice(1).map((v, i) => (i === 0 ? v : Number(v)));
let i = 0;
const t0 = process.hrtime.bigint();
const tick = () => {
  // Paced by the clock, not by setTimeout's drift: every datagram due by now goes.
  while (i < count && Number(process.hrtime.bigint() - t0) / 1e6 >= i * intervalMs) {
    const b = Buffer.alloc(size);
    b.writeBigUInt64BE(process.hrtime.bigint(), 0);
    b.writeUInt32BE(i++, 8);
    s.send(b, port, host);
  }
  if (i < count) setTimeout(tick, 1); else setTimeout(() => s.close(), 50);
};
tick();
`;

const RECEIVER = `
const s = require('node:dgram').createSocket('udp4');
const [port, idleMs] = process.argv.slice(1).map(Number);
const delays = []; const seqs = []; let bytes = 0; let first = 0n; let last = 0n;
let timer;
const done = () => { console.log(JSON.stringify({ delays, seqs, bytes, spanMs: Number(last - first) / 1e6 })); s.close(); };
s.on('message', (m) => {
  const now = process.hrtime.bigint();
  if (!first) first = now;
  last = now;
  bytes += m.length + 28;
  delays.push(Number(now - m.readBigUInt64BE(0)) / 1e6);
  seqs.push(m.readUInt32BE(8));
  clearTimeout(timer); timer = setTimeout(done, idleMs);
});
s.bind(port, () => { console.log('bound'); timer = setTimeout(done, idleMs * 4); });
`;

export interface ProbeResult {
  sent: number;
  received: number;
  loss: number;
  /** Median and 95th percentile one-way delay, ms. */
  delayP50Ms: number;
  delayP95Ms: number;
  /** The rate the receiver saw (IP bytes over its first-to-last span), kbit/s. */
  receivedKbit: number;
  /** The longest run of consecutive datagrams lost. */
  longestLossRun: number;
  /** The number of runs of loss (a burst is one run, however long). */
  lossRuns: number;
}

/**
 * Sends `count` datagrams of `size` bytes every `intervalMs` over `direction` of the namespace's link (up: from
 * inside it to the host; down: the other way) and reports what arrived.
 */
export async function probeUdp(ns: NetNamespace, direction: Direction, options: { count: number; intervalMs: number; size?: number; port?: number }): Promise<ProbeResult> {
  const { count, intervalMs, size = 200, port = 47_000 + Math.floor(Math.random() * 1000) } = options;
  const inNs = (args: string[]) => ['netns', 'exec', ns.name, process.execPath, ...args];
  const receiverCmd = ['-e', RECEIVER, String(port), '800'];
  const receiver = direction === 'up' ? spawn(process.execPath, receiverCmd) : spawn('ip', inNs(receiverCmd));
  let out = '';
  const result = new Promise<string>((resolve, reject) => {
    receiver.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n{')) resolve(out.slice(out.indexOf('{')));
    });
    receiver.on('exit', () => (out.includes('{') ? resolve(out.slice(out.indexOf('{'))) : reject(new Error(`probe receiver ended: ${out}`))));
  });
  await new Promise<void>((resolve) => {
    const check = () => (out.includes('bound') ? resolve() : setTimeout(check, 20));
    check();
  });
  const target = direction === 'up' ? ns.hostIp : ns.nsIp;
  const senderCmd = ['-e', SENDER, target, String(port), String(count), String(intervalMs), String(size)];
  await promisify(execFile)(direction === 'up' ? 'ip' : process.execPath, direction === 'up' ? inNs(senderCmd) : senderCmd);
  const report = JSON.parse(await result) as { delays: number[]; seqs: number[]; bytes: number; spanMs: number };
  const sorted = [...report.delays].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  const got = new Set(report.seqs);
  let run = 0;
  let longest = 0;
  let runs = 0;
  for (let i = 0; i < count; i++) {
    if (got.has(i)) run = 0;
    else {
      if (run === 0) runs++;
      longest = Math.max(longest, ++run);
    }
  }
  return {
    sent: count,
    received: got.size,
    loss: 1 - got.size / count,
    delayP50Ms: at(0.5),
    delayP95Ms: at(0.95),
    receivedKbit: report.spanMs > 0 ? (report.bytes * 8) / report.spanMs : 0,
    longestLossRun: longest,
    lossRuns: runs,
  };
}
