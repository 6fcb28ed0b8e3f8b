/** What the server process costs: CPU time (from /proc, via server-process.ts) and resident memory. */
import { readFileSync } from 'node:fs';
import { readProcCpu } from '../server-process.js';

/** A point-in-time reading of the server process. */
export interface ServerSample {
  wallMs: number;
  cpuMs: number;
  rssBytes: number;
}

/** Resident set size of `pid` in bytes (VmRSS of /proc/<pid>/status). */
export function readRss(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

export function sampleServer(pid: number): ServerSample {
  const { wallMs, cpuMs } = readProcCpu(pid);
  return { wallMs, cpuMs, rssBytes: readRss(pid) };
}
