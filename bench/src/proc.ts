/**
 * What the bench reads of processes from Linux's /proc: CPU time (utime + stime) of a process, of its threads and
 * of a process tree, resident memory, and the host's busy time. One reader, so every bench figure counts CPU the
 * same way.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time of a process in ms (user + system, all threads), with the wall clock it was read at. */
export interface CpuSample {
  /** Monotonic wall clock, ms. */
  wallMs: number;
  /** utime + stime of the process, ms. */
  cpuMs: number;
}

let clockTicks: number | undefined;
/** Clock ticks per second of /proc times (`getconf CLK_TCK`, 100 on Linux in practice). */
export function clkTck(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** The fields of a /proc stat line after the ')' closing comm: [0] is field 3 (state), [1] ppid, [11] utime, [12] stime. */
function statFields(path: string): { comm: string; fields: string[] } {
  const stat = readFileSync(path, 'utf8');
  return { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), fields: stat.slice(stat.lastIndexOf(')') + 2).split(' ') };
}

const ticksOf = (fields: string[]): number => Number(fields[11]) + Number(fields[12]);

/** utime + stime of `pid` (throws when the process is gone). */
export function readProcCpu(pid: number): CpuSample {
  const wallMs = performance.now();
  return { wallMs, cpuMs: (ticksOf(statFields(`/proc/${pid}/stat`).fields) * 1000) / clkTck() };
}

/** The parent pid of `pid` (throws when the process is gone). */
export function parentPid(pid: number): number {
  return Number(statFields(`/proc/${pid}/stat`).fields[1]);
}

/** The command line of `pid`, NUL-separated; '' when the process is gone. */
export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Every pid on the host. */
export function allPids(): number[] {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
}

/** The pid and its descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of allPids()) {
    try {
      const ppid = parentPid(pid);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** CPU ms of each process of the tree, by "pid name" (the Node server vs Janus). */
export function treeCpuByProcess(root: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pid of processTree(root)) {
    try {
      out[`${pid} ${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`] = readProcCpu(pid).cpuMs;
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU ms of a process tree (processes that exit during a window are not counted: none should). */
export function treeCpu(root: number): number {
  return Object.values(treeCpuByProcess(root)).reduce((a, b) => a + b, 0);
}

/** CPU ms of each thread of a process, summed by thread name (the main thread is 'main'). */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const { comm, fields } = statFields(`/proc/${pid}/task/${tid}/stat`);
      const name = tid === String(pid) ? 'main' : comm;
      byName.set(name, (byName.get(name) ?? 0) + (ticksOf(fields) * 1000) / clkTck());
    } catch {
      // the thread ended
    }
  }
  return byName;
}

/** CPU ms of this process's children whose command line contains `marker`. */
export function childrenCpuMs(marker: string): number {
  let ms = 0;
  for (const pid of allPids()) {
    try {
      if (parentPid(pid) !== process.pid || !cmdline(pid).includes(marker)) continue;
      ms += readProcCpu(pid).cpuMs;
    } catch {
      // the process ended meanwhile
    }
  }
  return ms;
}

/** Resident set size of `pid` in bytes (VmRSS of /proc/<pid>/status); 0 when unknown. */
export function readRss(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/** Busy and total jiffies of the whole host, from the aggregate line of /proc/stat. */
export function readHostCpu(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0); // user..steal (guest is already in user)
  const idle = values[3] + (values[4] ?? 0); // idle + iowait
  return { busy: total - idle, total };
}
