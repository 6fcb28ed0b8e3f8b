/** What the server process costs: CPU time and resident memory (from /proc, via ../proc.ts). */
import { readProcCpu, readRss } from '../proc.js';

/** A point-in-time reading of the server process. */
export interface ServerSample {
  wallMs: number;
  cpuMs: number;
  rssBytes: number;
}

export function sampleServer(pid: number): ServerSample {
  const { wallMs, cpuMs } = readProcCpu(pid);
  return { wallMs, cpuMs, rssBytes: readRss(pid) };
}
