/**
 * What a person gets from a call, read in the receiving page from the peer connections' getStats() whatever the SDK
 * (Conclave's or LiveKit's client; the page records its RTCPeerConnections in `window.__pcs`, client-page.ts's init
 * script, or QUALITY_INIT_SCRIPT for other pages): per received video, frames decoded per second, freezes (an
 * inter-frame gap over 500 ms: count, total and longest), the resolution, and the time to recover after a mark
 * (the end of a burst); per received audio, the share of samples the receiver concealed and dropouts (100 ms
 * windows more than half concealed, as runs). A 100 ms sampler in the page; a gap's length is exact to ±100 ms.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { RECORD_PEER_CONNECTIONS } from './client-page.js';

/** Records the page's RTCPeerConnections, for pages the AppHost does not serve (client-page.ts's recorder). */
export const QUALITY_INIT_SCRIPT = RECORD_PEER_CONNECTIONS;

const SAMPLER = `
(() => {
  if (window.__quality) return;
  const q = window.__quality = { streams: {}, marks: {}, t0: 0, timer: 0 };
  q.sample = async () => {
    const now = performance.now() - q.t0;
    const pcs = window.__pcs || [];
    for (let i = 0; i < pcs.length; i++) {
      const pc = pcs[i];
      if (pc.connectionState === 'closed') continue;
      let stats;
      try { stats = await pc.getStats(); } catch { continue; }
      // One row per receiving m-line (mid): a stream switched (big → small) on the same m-line stays one stream;
      // its counters are summed over the SSRCs seen, the size is the most recently received SSRC's.
      const rows = {};
      stats.forEach((s) => {
        if (s.type !== 'inbound-rtp' || (s.kind !== 'video' && s.kind !== 'audio')) return;
        const key = i + ':' + (s.mid ?? s.trackIdentifier ?? s.ssrc) + ':' + s.kind;
        const r = rows[key] ??= { kind: s.kind, v: [0, 0, 0, 0, 0, 0], last: -1 };
        const v = s.kind === 'video'
          ? [s.framesDecoded || 0, s.frameWidth || 0, s.frameHeight || 0, s.bytesReceived || 0, s.packetsLost || 0, s.nackCount || 0]
          : [s.totalSamplesReceived || 0, s.concealedSamples || 0, s.silentConcealedSamples || 0, s.bytesReceived || 0, s.packetsLost || 0, s.totalAudioEnergy || 0];
        const at = s.lastPacketReceivedTimestamp || 0;
        for (let k = 0; k < 6; k++) if (!(s.kind === 'video' && (k === 1 || k === 2))) r.v[k] += v[k];
        if (s.kind === 'video' && at >= r.last) { r.v[1] = v[1]; r.v[2] = v[2]; r.last = at; }
      });
      for (const [key, r] of Object.entries(rows)) {
        const st = q.streams[key] ??= { kind: r.kind, samples: [] };
        st.samples.push([now, ...r.v]);
      }
    }
  };
  q.start = () => {
    q.streams = {}; q.marks = {}; q.t0 = performance.now();
    clearInterval(q.timer);
    q.timer = setInterval(() => { void q.sample(); }, 100);
  };
  q.mark = (name) => { q.marks[name] = performance.now() - q.t0; };
  q.stop = async () => { clearInterval(q.timer); await q.sample(); return { streams: q.streams, marks: q.marks, endMs: performance.now() - q.t0 }; };
})();
`;

/** The page's samples: per stream key, rows of [ms, …] (see SAMPLER). */
interface RawQuality {
  streams: Record<string, { kind: 'video' | 'audio'; samples: number[][] }>;
  marks: Record<string, number>;
  endMs: number;
}

export interface VideoQuality {
  key: string;
  fps: number;
  frames: number;
  freezeCount: number;
  freezeMs: number;
  longestFreezeMs: number;
  /** The width and height received at the end, and the largest width seen. */
  width: number;
  height: number;
  maxWidth: number;
  kbit: number;
  packetsLost: number;
  nacks: number;
  /** Mark → ms from the mark until frames flowed again for 1 s with no gap over 500 ms (undefined: never). */
  recoverMs: Record<string, number | undefined>;
}

export interface AudioQuality {
  key: string;
  /** concealedSamples / totalSamplesReceived over the window. */
  concealedRatio: number;
  dropouts: number;
  dropoutMs: number;
  kbit: number;
  packetsLost: number;
}

export interface CallQuality {
  windowMs: number;
  video: VideoQuality[];
  audio: AudioQuality[];
  marks: Record<string, number>;
}

/** Starts (or restarts) the window; the sampler is installed on first use. */
export async function startQuality(page: Page): Promise<void> {
  await page.evaluate(`${SAMPLER}; window.__quality.start()`);
}

/** Marks a moment of the window (e.g. 'burst-end'), for recovery times. */
export async function markQuality(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => (window as unknown as { __quality: { mark(n: string): void } }).__quality.mark(n), name);
}

/** Ends the window and reads what the page got. */
export async function stopQuality(page: Page, freezeGapMs = 500): Promise<CallQuality> {
  const raw = await page.evaluate(() => (window as unknown as { __quality: { stop(): Promise<RawQuality> } }).__quality.stop());
  if (process.env.CONCLAVE_QUALITY_DUMP) writeFileSync(`${process.env.CONCLAVE_QUALITY_DUMP}.${Date.now()}.json`, JSON.stringify(raw));
  return summarize(raw, freezeGapMs);
}

/** The figures of a window's samples (exported for its unit test). */
export function summarize(raw: RawQuality, freezeGapMs = 500): CallQuality {
  const video: VideoQuality[] = [];
  const audio: AudioQuality[] = [];
  const windowMs = raw.endMs;
  for (const [key, { kind, samples }] of Object.entries(raw.streams)) {
    if (samples.length < 2) continue;
    const first = samples[0]!;
    const last = samples.at(-1)!;
    // Growth of a counter over the window; a counter that went down (an SSRC's stats gone) restarts from 0.
    const grown = (col: number) => {
      let total = 0;
      for (let i = 1; i < samples.length; i++) {
        const d = samples[i]![col]! - samples[i - 1]![col]!;
        total += d >= 0 ? d : samples[i]![col]!;
      }
      return total;
    };
    const spanS = Math.max(0.001, (last[0]! - first[0]!) / 1000);
    if (kind === 'video') {
      // Times at which new frames had been decoded; a stream that had decoded none is frozen from its start.
      const frameTimes: number[] = [];
      for (let i = 1; i < samples.length; i++) if (samples[i]![1]! !== samples[i - 1]![1]!) frameTimes.push(samples[i]![0]!);
      const edges = [first[0]!, ...frameTimes, last[0]!];
      let freezeCount = 0;
      let freezeMs = 0;
      let longest = 0;
      for (let i = 1; i < edges.length; i++) {
        const gap = edges[i]! - edges[i - 1]!;
        if (gap > freezeGapMs) {
          freezeCount++;
          freezeMs += gap;
          longest = Math.max(longest, gap);
        }
      }
      const recoverMs: Record<string, number | undefined> = {};
      for (const [name, at] of Object.entries(raw.marks)) recoverMs[name] = recoveryAfter(frameTimes, at, last[0]!, freezeGapMs);
      video.push({
        key, fps: grown(1) / spanS, frames: grown(1), freezeCount, freezeMs, longestFreezeMs: longest,
        width: last[2]!, height: last[3]!, maxWidth: Math.max(...samples.map((s) => s[2]!)),
        kbit: (grown(4) * 8) / spanS / 1000, packetsLost: grown(5), nacks: grown(6), recoverMs,
      });
    } else {
      let dropouts = 0;
      let dropoutMs = 0;
      let inDropout = false;
      for (let i = 1; i < samples.length; i++) {
        const received = samples[i]![1]! - samples[i - 1]![1]!;
        const concealed = samples[i]![2]! - samples[i - 1]![2]!;
        const bad = received <= 0 || concealed > received / 2;
        if (bad) {
          if (!inDropout) dropouts++;
          dropoutMs += samples[i]![0]! - samples[i - 1]![0]!;
        }
        inDropout = bad;
      }
      const received = grown(1);
      audio.push({
        key, concealedRatio: received > 0 ? grown(2) / received : 1, dropouts, dropoutMs,
        kbit: (grown(4) * 8) / spanS / 1000, packetsLost: grown(5),
      });
    }
  }
  return { windowMs, video, audio, marks: raw.marks };
}

/** The first frame after `at` from which frames flow for 1 s with no gap over `gapMs`, as ms after `at`. */
function recoveryAfter(frameTimes: number[], at: number, end: number, gapMs: number): number | undefined {
  const after = frameTimes.filter((t) => t >= at);
  for (let i = 0; i < after.length; i++) {
    let j = i;
    while (j + 1 < after.length && after[j + 1]! - after[j]! <= gapMs && after[j]! - after[i]! < 1000) j++;
    if (after[j]! - after[i]! >= 1000 || (j === after.length - 1 && end - after[j]! <= gapMs && end - after[i]! >= 1000)) return after[i]! - at;
  }
  return undefined;
}

/** Totals over a window's videos: mean fps, summed freezes, the longest, and freeze time as a share of the window × streams. */
export function videoTotals(q: CallQuality): { streams: number; fps: number; freezeCount: number; freezeMs: number; longestFreezeMs: number; freezeShare: number; minWidth: number } {
  const v = q.video;
  const sum = (f: (x: VideoQuality) => number) => v.reduce((a, x) => a + f(x), 0);
  return {
    streams: v.length,
    fps: v.length ? sum((x) => x.fps) / v.length : 0,
    freezeCount: sum((x) => x.freezeCount),
    freezeMs: sum((x) => x.freezeMs),
    longestFreezeMs: Math.max(0, ...v.map((x) => x.longestFreezeMs)),
    freezeShare: v.length ? sum((x) => x.freezeMs) / (q.windowMs * v.length) : 1,
    minWidth: v.length ? Math.min(...v.map((x) => x.width)) : 0,
  };
}
