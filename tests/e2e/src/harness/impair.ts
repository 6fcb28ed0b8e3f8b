/**
 * Bad networks between one browser (in its own network namespace, harness/netns.ts) and the server: random loss,
 * Gilbert–Elliott bursts, delay with jitter, rate caps and blackouts, on the uplink (packets leaving the namespace),
 * the downlink (packets entering it) or both — issue 43's impairments, built on what any Linux kernel has:
 * - random loss: iptables' statistic match (`-m statistic --mode random`) in the namespace;
 * - bursts, delay and jitter: `netem` where the kernel has it (delay and jitter only, no rate cap on the same
 *   direction), else NFQUEUE to the small program in impair/ (impair/main.go, built by impair/build.sh), one per
 *   direction, run inside the namespace;
 * - rate caps: `tbf` (a token bucket whose queue holds `queueMs` of traffic and drops the rest, as a real
 *   bottleneck does) on the sending end of the veth pair — the namespace's end for the uplink, the host's for the
 *   downlink; with `udpOnly`, under an htb whose u32 filter sends IP protocol 17 alone through it;
 * - blackouts: an iptables DROP of everything.
 * UDP only by default (the media; signalling over TCP stays up, as on a lossy radio link with a TCP that
 * retransmits); `udpOnly: false` impairs everything. Needs root, iproute2, iptables and Go (.ci/run).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { NetNamespace } from './netns.js';

export type Direction = 'up' | 'down';
export type Directions = Direction | 'both';

/** Gilbert–Elliott: per-packet chances of entering and leaving the bad state, and the loss in each state. */
export interface Bursts {
  pGoodToBad: number;
  pBadToGood: number;
  lossGood?: number;
  lossBad?: number;
}

/** One direction's impairment; absent fields are off. */
export interface Impairment {
  /** Random loss, 0–1. */
  loss?: number;
  bursts?: Bursts;
  delayMs?: number;
  /** Uniform ± jitter around delayMs; packets keep their order (so the mean delay ends a little above delayMs). */
  jitterMs?: number;
  rateKbit?: number;
  /** How much traffic the rate cap's queue holds before it drops (ms at the capped rate; default 200). */
  queueMs?: number;
}

/** The impairment program's counters (impair/main.go stats). */
export interface ProgramStats { seen: number; dropped: number; passed: number; errors: number; maxQueue: number }

const IMPAIR_DIR = fileURLToPath(new URL('./impair/', import.meta.url));
export const IMPAIR_BIN = `${IMPAIR_DIR}bin/impair`;

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

let built = false;
/** Builds impair/main.go once per process (Go's build cache makes a rebuild ~1 s). */
export function buildImpair(): string {
  if (!built) {
    sh('sh', [`${IMPAIR_DIR}build.sh`]);
    built = true;
  }
  return IMPAIR_BIN;
}

let netem: boolean | undefined;
/** Whether this kernel has netem (some VM kernels do not: "Specified qdisc kind is unknown"). */
export function kernelHasNetem(ns: NetNamespace): boolean {
  if (netem === undefined) {
    try {
      sh('ip', ['netns', 'exec', ns.name, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms']);
      sh('ip', ['netns', 'exec', ns.name, 'tc', 'qdisc', 'del', 'dev', 'lo', 'root']);
      netem = process.env.CONCLAVE_IMPAIR_NO_NETEM !== '1';
    } catch {
      netem = false;
    }
  }
  return netem;
}

/** One impairment program bound to an NFQUEUE inside the namespace. */
class QueueProgram {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: ((line: string) => void)[] = [];
  #stderr = '';

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    child.stderr.on('data', (chunk: Buffer) => { this.#stderr = (this.#stderr + chunk.toString()).slice(-2000); });
    createInterface({ input: child.stdout }).on('line', (line) => this.#lines.shift()?.(line));
  }

  static async start(ns: NetNamespace, queue: number): Promise<QueueProgram> {
    const child = spawn('ip', ['netns', 'exec', ns.name, buildImpair(), '-queue', String(queue)], { stdio: ['pipe', 'pipe', 'pipe'] });
    const program = new QueueProgram(child);
    await program.#next(5000, 'ready');
    return program;
  }

  #next(timeoutMs: number, what: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`impair: no ${what} within ${timeoutMs} ms: ${this.#stderr.trim()}`)), timeoutMs);
      this.#child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`impair exited (${code}): ${this.#stderr.trim()}`)); });
      this.#lines.push((line) => { clearTimeout(timer); resolve(line); });
    });
  }

  set(i: Impairment): void {
    const b = i.bursts;
    const ge = b ? `${b.pGoodToBad},${b.pBadToGood},${b.lossGood ?? 0},${b.lossBad ?? 1}` : 'off';
    this.#child.stdin.write(`set delay=${i.delayMs ?? 0} jitter=${i.jitterMs ?? 0} loss=0 ge=${ge}\n`);
  }

  async stats(): Promise<ProgramStats> {
    const answer = this.#next(5000, 'stats');
    this.#child.stdin.write('stats\n');
    return JSON.parse(await answer) as ProgramStats;
  }

  close(): void {
    this.#child.stdin.end();
    this.#child.kill('SIGKILL');
  }
}

const CHAIN: Record<Direction, { chain: string; hook: string; iface: '-i' | '-o'; queue: number }> = {
  up: { chain: 'CV-IMPAIR-UP', hook: 'OUTPUT', iface: '-o', queue: 1 },
  down: { chain: 'CV-IMPAIR-DOWN', hook: 'INPUT', iface: '-i', queue: 2 },
};

/**
 * The impairments of one namespace's link. set() replaces a direction's impairment (what it leaves out is off),
 * blackout() drops everything until endBlackout(), clear() ends all, close() removes every rule and program.
 */
export class ImpairedLink {
  readonly ns: NetNamespace;
  readonly udpOnly: boolean;
  readonly #programs = new Map<Direction, QueueProgram>();
  readonly #shaped = new Set<Direction>();
  readonly #current: Record<Direction, Impairment> = { up: {}, down: {} };
  #blackout = false;

  private constructor(ns: NetNamespace, udpOnly: boolean) {
    this.ns = ns;
    this.udpOnly = udpOnly;
  }

  static create(ns: NetNamespace, options: { udpOnly?: boolean } = {}): ImpairedLink {
    const link = new ImpairedLink(ns, options.udpOnly ?? true);
    for (const d of ['up', 'down'] as const) {
      const { chain, hook, iface } = CHAIN[d];
      link.#ipt('-N', chain);
      link.#ipt('-I', hook, '1', '!', iface, 'lo', '-j', chain);
    }
    return link;
  }

  #ipt(...args: string[]): void {
    sh('ip', ['netns', 'exec', this.ns.name, 'iptables', ...args]);
  }

  /** What is in force on a direction. */
  current(direction: Direction): Impairment {
    return { ...this.#current[direction] };
  }

  /** Replaces the impairment of `directions` with `impairment`. */
  async set(directions: Directions, impairment: Impairment): Promise<void> {
    for (const d of directions === 'both' ? (['up', 'down'] as const) : [directions]) await this.#apply(d, impairment);
  }

  async #apply(d: Direction, i: Impairment): Promise<void> {
    const { chain, queue } = CHAIN[d];
    const proto = this.udpOnly ? ['-p', 'udp'] : [];
    this.#shape(d, i.rateKbit, i.queueMs ?? 200, undefined);
    const queued = Boolean(i.bursts) || Boolean(i.delayMs) || Boolean(i.jitterMs);
    const useNetem = queued && !i.bursts && !i.rateKbit && kernelHasNetem(this.ns);
    if (useNetem) this.#shape(d, undefined, 0, `delay ${i.delayMs ?? 0}ms ${i.jitterMs ?? 0}ms`);
    let program = this.#programs.get(d);
    if (queued && !useNetem && !program) {
      program = await QueueProgram.start(this.ns, queue);
      this.#programs.set(d, program);
    }
    program?.set(queued && !useNetem ? i : {});
    // The chain, rebuilt: blackout first, then random loss, then the queue (--queue-bypass: should the program
    // die, packets pass rather than stall).
    this.#ipt('-F', chain);
    if (this.#blackout) this.#ipt('-A', chain, '-j', 'DROP');
    if (i.loss) this.#ipt('-A', chain, ...proto, '-m', 'statistic', '--mode', 'random', '--probability', String(i.loss), '-j', 'DROP');
    if (queued && !useNetem) this.#ipt('-A', chain, ...proto, '-j', 'NFQUEUE', '--queue-num', String(queue), '--queue-bypass');
    this.#current[d] = { ...i };
  }

  /** A rate cap (tbf) or netem on the sending end of the veth pair for direction `d`; neither removes it. */
  #shape(d: Direction, rateKbit: number | undefined, queueMs: number, netemArgs: string | undefined): void {
    const tc = (...args: string[]) => (d === 'up' ? sh('ip', ['netns', 'exec', this.ns.name, 'tc', ...args]) : sh('tc', args));
    const dev = ['dev', d === 'up' ? this.ns.nsIf : this.ns.hostIf];
    if (this.#shaped.has(d)) {
      tc('qdisc', 'del', ...dev, 'root');
      this.#shaped.delete(d);
    }
    if (rateKbit === undefined && netemArgs === undefined) return;
    // tbf: the bucket holds at least one full packet and ~20 ms of the rate; the queue `queueMs` of it.
    const leaf = netemArgs !== undefined
      ? ['netem', ...netemArgs.split(' ')]
      : ['tbf', 'rate', `${rateKbit}kbit`, 'burst', String(Math.max(3000, Math.round((rateKbit! * 1000) / 8 / 50))), 'latency', `${queueMs}ms`];
    if (this.udpOnly) {
      tc('qdisc', 'add', ...dev, 'root', 'handle', '1:', 'htb', 'default', '10');
      tc('class', 'add', ...dev, 'parent', '1:', 'classid', '1:10', 'htb', 'rate', '10gbit');
      tc('class', 'add', ...dev, 'parent', '1:', 'classid', '1:20', 'htb', 'rate', '10gbit');
      tc('qdisc', 'add', ...dev, 'parent', '1:20', 'handle', '20:', ...leaf);
      tc('filter', 'add', ...dev, 'parent', '1:', 'protocol', 'ip', 'u32', 'match', 'ip', 'protocol', '17', '0xff', 'flowid', '1:20');
    } else {
      tc('qdisc', 'add', ...dev, 'root', 'handle', '1:', ...leaf);
    }
    this.#shaped.add(d);
  }

  /** Drops every packet both ways (TCP too): the link is gone until endBlackout(). */
  async blackout(): Promise<void> {
    this.#blackout = true;
    for (const d of ['up', 'down'] as const) await this.#apply(d, this.#current[d]);
  }

  async endBlackout(): Promise<void> {
    this.#blackout = false;
    for (const d of ['up', 'down'] as const) await this.#apply(d, this.#current[d]);
  }

  /** The impairment program's counters for a direction (undefined when no program runs there). */
  async programStats(direction: Direction): Promise<ProgramStats | undefined> {
    return this.#programs.get(direction)?.stats();
  }

  /**
   * Packets this link's impairments dropped on a direction so far in the current setting (iptables' counters of the
   * loss rule, the rate cap's queue drops, the program's drops): proof that an impairment was applied.
   */
  async droppedPackets(direction: Direction): Promise<number> {
    const listing = sh('ip', ['netns', 'exec', this.ns.name, 'iptables', '-L', CHAIN[direction].chain, '-v', '-x', '-n']);
    let dropped = 0;
    for (const line of listing.split('\n')) {
      const cols = line.trim().split(/\s+/);
      if (cols[2] === 'DROP' && /statistic/.test(line)) dropped += Number(cols[0]) || 0;
    }
    if (this.#shaped.has(direction)) {
      const args = ['-s', 'qdisc', 'show', 'dev', direction === 'up' ? this.ns.nsIf : this.ns.hostIf];
      const qdiscs = direction === 'up' ? sh('ip', ['netns', 'exec', this.ns.name, 'tc', ...args]) : sh('tc', args);
      for (const m of qdiscs.matchAll(/qdisc (tbf|netem) [\s\S]*?dropped (\d+)/g)) dropped += Number(m[2]);
    }
    dropped += (await this.programStats(direction))?.dropped ?? 0;
    return dropped;
  }

  /** Ends every impairment (the chains stay, empty). */
  async clear(): Promise<void> {
    this.#blackout = false;
    await this.set('both', {});
  }

  /** Removes the rules, the shaping and the programs. */
  close(): void {
    for (const p of this.#programs.values()) p.close();
    this.#programs.clear();
    for (const d of ['up', 'down'] as const) {
      const { chain, hook, iface } = CHAIN[d];
      try {
        this.#shape(d, undefined, 0, undefined);
        this.#ipt('-D', hook, '!', iface, 'lo', '-j', chain);
        this.#ipt('-F', chain);
        this.#ipt('-X', chain);
      } catch {
        // the namespace is already gone
      }
    }
  }
}

/** One step of a schedule: at `atMs` after its start, `directions` get `impairment` (or a blackout begins/ends). */
export type ScheduleStep = { atMs: number } & ({ directions: Directions; impairment: Impairment } | { blackout: boolean });

/**
 * Plays a schedule on the link (a link that degrades and recovers, a blackout of 5 s, …); resolves after the last
 * step. `onStep` hears each step as it is applied, with its time (ms after the start).
 */
export async function runSchedule(link: ImpairedLink, steps: ScheduleStep[], onStep?: (step: ScheduleStep, atMs: number) => void): Promise<void> {
  const t0 = performance.now();
  for (const step of [...steps].sort((a, b) => a.atMs - b.atMs)) {
    const wait = step.atMs - (performance.now() - t0);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if ('blackout' in step) await (step.blackout ? link.blackout() : link.endBlackout());
    else await link.set(step.directions, step.impairment);
    onStep?.(step, performance.now() - t0);
  }
}
