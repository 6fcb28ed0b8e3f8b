/**
 * "Publishers reach their profile" (issue 26): a camera published with the SDK's 720p profile (1280×720,
 * 1,500 kbps) into an empty room; from just before enterRoom(), how long until its encoder's target bitrate
 * reaches 90 % of the profile and its encoded frames 1280 wide. The target follows the browser's send-side
 * bandwidth estimate, which only the server's feedback (transport-cc, REMB) lets climb fast; the picture
 * size follows by the encoder's own quality steps.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { join } from '../../tests/e2e/src/harness/join.js';
import type { ServerProcess } from './server-process.js';
import type { Row } from './table.js';

const PROFILE_BPS = 1_500_000;
/** Longest wait for either figure. */
const BOUND_MS = 30_000;

export interface PublisherRamp {
  /** enterRoom() → target bitrate ≥ 90 % of the profile; undefined if not within BOUND_MS. */
  bitrateMs: number | undefined;
  /** enterRoom() → frames 1280 wide; undefined if not within BOUND_MS. */
  fullSizeMs: number | undefined;
  /** The last reading (target bitrate in bit/s, frame width, …). */
  last: Reading;
}

/** One reading of the publisher's main video (its widest outbound-rtp) and of its uplink's send-side estimate. */
interface Reading {
  targetBitrate: number;
  frameWidth: number;
  /** The selected candidate pair's availableOutgoingBitrate (the send-side bandwidth estimate), bit/s. */
  availableOutgoingBitrate: number;
  qualityLimitationReason: string;
  qualityLimitationResolutionChanges: number;
}

/** The main video's outbound-rtp of the page's peer connections (the one sending the widest frames), with its link's estimate. */
const outbound = (page: Page): Promise<Reading> => page.evaluate(async () => {
  type Stat = { type: string; kind?: string; targetBitrate?: number; frameWidth?: number; availableOutgoingBitrate?: number; nominated?: boolean; state?: string;
    qualityLimitationReason?: string; qualityLimitationResolutionChanges?: number };
  let best = { targetBitrate: 0, frameWidth: 0, availableOutgoingBitrate: 0, qualityLimitationReason: '', qualityLimitationResolutionChanges: 0 };
  for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    const stats: Stat[] = [];
    (await pc.getStats()).forEach((s: Stat) => { stats.push(s); });
    const pair = stats.find((s) => s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded');
    for (const s of stats) {
      if (s.type === 'outbound-rtp' && s.kind === 'video' && (s.frameWidth ?? 0) >= best.frameWidth) {
        best = { targetBitrate: s.targetBitrate ?? 0, frameWidth: s.frameWidth ?? 0, availableOutgoingBitrate: pair?.availableOutgoingBitrate ?? 0,
          qualityLimitationReason: s.qualityLimitationReason ?? '', qualityLimitationResolutionChanges: s.qualityLimitationResolutionChanges ?? 0 };
      }
    }
  }
  return best;
});

/** The uplink's remote description as the page applied it (the server's answer with the SDK's settings). */
const uplinkAnswer = (page: Page): Promise<string> => page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs
  .find((pc) => pc.getSenders().some((s) => s.track?.kind === 'video'))?.remoteDescription?.sdp ?? '');

/**
 * One publisher in room `roomId`, watched every 100 ms until both figures are in (or BOUND_MS). BENCH_RAMP_TRACE=1
 * prints every reading that changed (ms, target, estimate, width, limitation) and the uplink's answer SDP.
 */
export async function runPublisherRamp(context: BrowserContext, app: AppHost, server: ServerProcess, roomId = 9450): Promise<PublisherRamp> {
  const page = await app.open(context);
  try {
    const start = Date.now();
    const joined = await join(page, server, 'ramp-publisher', { roomId }, { publish: true, profile: '720p' });
    if (!joined.ok) throw new Error(`the publisher could not join: ${JSON.stringify(joined)}`);
    let bitrateMs: number | undefined;
    let fullSizeMs: number | undefined;
    let last: Reading = { targetBitrate: 0, frameWidth: 0, availableOutgoingBitrate: 0, qualityLimitationReason: '', qualityLimitationResolutionChanges: 0 };
    const trace = process.env.BENCH_RAMP_TRACE === '1';
    let traced = '';
    while (Date.now() - start < BOUND_MS && (bitrateMs === undefined || fullSizeMs === undefined)) {
      last = await outbound(page);
      const at = Date.now() - start;
      const line = `${(last.targetBitrate / 1000).toFixed(0)} kbps target, ${(last.availableOutgoingBitrate / 1000).toFixed(0)} kbps estimate, ${last.frameWidth} wide, ${last.qualityLimitationReason} (${last.qualityLimitationResolutionChanges} changes)`;
      if (trace && line !== traced) process.stderr.write(`ramp ${String(at).padStart(6)} ms: ${(traced = line)}\n`);
      if (bitrateMs === undefined && last.targetBitrate >= 0.9 * PROFILE_BPS) bitrateMs = at;
      if (fullSizeMs === undefined && last.frameWidth >= 1280) fullSizeMs = at;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (trace) process.stderr.write(`ramp: the uplink's answer\n${await uplinkAnswer(page)}\n`);
    return { bitrateMs, fullSizeMs, last };
  } finally {
    await page.close();
  }
}

export function publisherRampRows(engine: string, r: PublisherRamp): Row[] {
  const shown = (ms: number | undefined): string => (ms === undefined ? `> ${BOUND_MS / 1000}` : (ms / 1000).toFixed(1));
  return [
    { benchmark: 'media engines', figure: shown(r.bitrateMs), unit: `s publish → profile bitrate (${engine})`, notes: `720p profile (1,500 kbps), enterRoom() → encoder target ≥ 1,350 kbps; last ${(r.last.targetBitrate / 1000).toFixed(0)} kbps` },
    { benchmark: 'media engines', figure: shown(r.fullSizeMs), unit: `s publish → 1280×720 sent (${engine})`, notes: `the same publisher's frames 1280 wide (the encoder's quality steps follow the bitrate); last ${r.last.frameWidth} wide` },
  ];
}
