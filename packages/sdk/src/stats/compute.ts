/**
 * Pure computations over getStats() entries (plain objects), shared by the statistics, network-quality
 * and audio-volume events. Nothing here touches the browser.
 */

/** One getStats() entry. */
export type Stat = { type: string; id: string; timestamp?: number } & Record<string, unknown>;

const num = (stat: Stat | undefined, key: string): number => {
  const value = stat?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
};

/** Network quality levels (docs/behaviour.md §3). */
export const QUALITY = Object.freeze({ UNKNOWN: 0, EXCELLENT: 1, GOOD: 2, POOR: 3, BAD: 4, VERY_BAD: 5, DISCONNECTED: 6 } as const);

/** The maximum RTT reported (docs/behaviour.md §9). */
export const MAX_RTT_MS = 10_000;

/**
 * Quality 1–5 from round-trip time (ms) and loss (percent): the worse of the two decides.
 * 0 when nothing was measured.
 */
export function qualityOf(rttMs: number, lossPercent: number, measured = true): number {
  if (!measured) return QUALITY.UNKNOWN;
  const byLoss = lossPercent <= 1 ? 1 : lossPercent <= 3 ? 2 : lossPercent <= 8 ? 3 : lossPercent <= 15 ? 4 : 5;
  const byRtt = rttMs <= 100 ? 1 : rttMs <= 200 ? 2 : rttMs <= 400 ? 3 : rttMs <= 800 ? 4 : 5;
  return Math.max(byLoss, byRtt);
}

/** Round-trip time (ms) of the selected candidate pair, else of remote-inbound-rtp reports; 0 if unknown. */
export function rttOf(stats: readonly Stat[]): number {
  const transport = stats.find((s) => s.type === 'transport');
  const pairId = transport?.selectedCandidatePairId;
  const pair = stats.find((s) => s.type === 'candidate-pair' && (s.id === pairId || (pairId === undefined && (s.nominated === true || s.selected === true))) && typeof s.currentRoundTripTime === 'number');
  let seconds = num(pair, 'currentRoundTripTime');
  if (seconds === 0) {
    const remote = stats.filter((s) => s.type === 'remote-inbound-rtp' && typeof s.roundTripTime === 'number');
    if (remote.length > 0) seconds = remote.reduce((sum, s) => sum + num(s, 'roundTripTime'), 0) / remote.length;
  }
  if (seconds <= 0) return 0;
  return Math.min(MAX_RTT_MS, Math.max(1, Math.round(seconds * 1000)));
}

/** Bits per second between two byte counters taken `ms` apart (kbit/s, rounded). */
export function kbps(bytesNow: number, bytesBefore: number, ms: number): number {
  if (ms <= 0 || bytesNow < bytesBefore) return 0;
  return Math.round(((bytesNow - bytesBefore) * 8) / ms);
}

/** Loss in percent between two counter snapshots. */
export function lossPercent(lostNow: number, lostBefore: number, receivedNow: number, receivedBefore: number): number {
  const lost = Math.max(0, lostNow - lostBefore);
  const received = Math.max(0, receivedNow - receivedBefore);
  if (lost + received === 0) return 0;
  return Math.round((lost / (lost + received)) * 1000) / 10;
}

/** Audio level 0–1 over an interval from energy counters (RMS), else the instantaneous level. */
export function levelOf(now: Stat | undefined, before: Stat | undefined): number {
  const energy = num(now, 'totalAudioEnergy') - num(before, 'totalAudioEnergy');
  const duration = num(now, 'totalSamplesDuration') - num(before, 'totalSamplesDuration');
  if (duration > 0 && energy >= 0) return Math.min(1, Math.sqrt(energy / duration));
  return Math.min(1, num(now, 'audioLevel'));
}

/** Volume 0–100 from a 0–1 level. */
export const volumeOf = (level: number): number => Math.round(Math.min(1, Math.max(0, level)) * 100);

/** A stream slot by its transceiver's mid. */
export type SlotOf = (mid: string | undefined) => string | undefined;

/** One video entry of a statistics report. */
export interface VideoFigures {
  width: number;
  height: number;
  frameRate: number;
  bitrate: number;
  videoType: 'big' | 'small' | 'sub';
  /** Receive side: mean time a frame waited in the jitter buffer over the interval, ms. */
  jitterBufferDelay?: number;
}

/** Mean jitter-buffer wait over the interval in ms (inbound-rtp's jitterBufferDelay per emitted sample). */
export function jitterBufferMs(now: Stat, before: Stat | undefined): number {
  const emitted = num(now, 'jitterBufferEmittedCount') - num(before, 'jitterBufferEmittedCount');
  const delay = num(now, 'jitterBufferDelay') - num(before, 'jitterBufferDelay');
  return emitted > 0 && delay >= 0 ? Math.round((delay / emitted) * 1000) : 0;
}

/** A direction's figures. */
export interface DirectionFigures {
  bytes: number;
  rtt: number;
  loss: number;
  /** True when there were RTP streams to measure. */
  measured: boolean;
  audio: { bitrate: number; audioLevel: number; jitterBufferDelay?: number };
  video: VideoFigures[];
}

const VIDEO_TYPE: Record<string, VideoFigures['videoType']> = { video: 'big', small: 'small', aux: 'sub' };

/**
 * The slots of a remote user's downlink as received: the main video's m-line carries the big stream or, once
 * the small one is subscribed (setRemoteVideoStreamType, CPU pressure, SmallStreamAutoSwitcher), the small
 * one — reported as 'small', as the original does for the stream actually received.
 */
export function receivedSlots(slotOf: SlotOf, smallVideo: boolean): SlotOf {
  return smallVideo ? (mid) => { const slot = slotOf(mid); return slot === 'video' ? 'small' : slot; } : slotOf;
}

/** Adds a video rtp stat's figures (either direction), once it has a size and its slot a video type. */
function addVideo(figures: DirectionFigures, s: Stat, slot: string | undefined, bitrate: number): VideoFigures | undefined {
  const videoType = slot ? VIDEO_TYPE[slot] : undefined;
  if (!videoType || num(s, 'frameWidth') <= 0) return undefined;
  const entry: VideoFigures = {
    width: num(s, 'frameWidth'), height: num(s, 'frameHeight'), frameRate: Math.round(num(s, 'framesPerSecond')),
    bitrate, videoType,
  };
  figures.video.push(entry);
  return entry;
}

/**
 * The send side of one peer connection: outbound-rtp per slot, loss from remote-inbound-rtp
 * (packetsLost against packetsSent), RTT. `before` is the previous snapshot (same ids).
 */
export function sendFigures(now: readonly Stat[], before: readonly Stat[], slotOf: SlotOf): DirectionFigures {
  const prev = new Map(before.map((s) => [s.id, s]));
  const figures: DirectionFigures = { bytes: 0, rtt: rttOf(now), loss: 0, measured: false, audio: { bitrate: 0, audioLevel: 0 }, video: [] };
  let lost = 0, lostBefore = 0, sent = 0, sentBefore = 0;
  for (const s of now) {
    if (s.type === 'remote-inbound-rtp') {
      lost += num(s, 'packetsLost');
      lostBefore += num(prev.get(s.id), 'packetsLost');
    }
    if (s.type !== 'outbound-rtp') continue;
    figures.measured = true;
    const p = prev.get(s.id);
    figures.bytes += num(s, 'bytesSent');
    sent += num(s, 'packetsSent');
    sentBefore += num(p, 'packetsSent');
    const ms = num(s, 'timestamp') - num(p, 'timestamp');
    const bitrate = p ? kbps(num(s, 'bytesSent'), num(p, 'bytesSent'), ms) : 0;
    const slot = slotOf(typeof s.mid === 'string' ? s.mid : undefined);
    if (s.kind === 'audio') {
      figures.audio.bitrate += bitrate;
      const source = now.find((m) => m.id === s.mediaSourceId);
      figures.audio.audioLevel = Math.max(figures.audio.audioLevel, levelOf(source, source ? prev.get(source.id) : undefined));
    } else if (s.kind === 'video') {
      addVideo(figures, s, slot, bitrate);
    }
  }
  // Packets the far end got = sent − lost; loss = lost / sent over the interval.
  figures.loss = lossPercent(lost, lostBefore, sent - lost, sentBefore - lostBefore);
  return figures;
}

/** The receive side of one peer connection: inbound-rtp per slot, loss from packetsLost against packetsReceived, RTT. */
export function receiveFigures(now: readonly Stat[], before: readonly Stat[], slotOf: SlotOf): DirectionFigures {
  const prev = new Map(before.map((s) => [s.id, s]));
  const figures: DirectionFigures = { bytes: 0, rtt: rttOf(now), loss: 0, measured: false, audio: { bitrate: 0, audioLevel: 0 }, video: [] };
  let lost = 0, lostBefore = 0, received = 0, receivedBefore = 0;
  for (const s of now) {
    if (s.type !== 'inbound-rtp') continue;
    figures.measured = true;
    const p = prev.get(s.id);
    figures.bytes += num(s, 'bytesReceived');
    lost += num(s, 'packetsLost');
    lostBefore += num(p, 'packetsLost');
    received += num(s, 'packetsReceived');
    receivedBefore += num(p, 'packetsReceived');
    const ms = num(s, 'timestamp') - num(p, 'timestamp');
    const bitrate = p ? kbps(num(s, 'bytesReceived'), num(p, 'bytesReceived'), ms) : 0;
    const slot = slotOf(typeof s.mid === 'string' ? s.mid : undefined);
    if (s.kind === 'audio') {
      figures.audio.bitrate += bitrate;
      figures.audio.audioLevel = Math.max(figures.audio.audioLevel, levelOf(s, p));
      figures.audio.jitterBufferDelay = Math.max(figures.audio.jitterBufferDelay ?? 0, jitterBufferMs(s, p));
    } else if (s.kind === 'video') {
      const added = addVideo(figures, s, slot, bitrate);
      if (added) added.jitterBufferDelay = jitterBufferMs(s, p);
    }
  }
  figures.loss = lossPercent(lost, lostBefore, received, receivedBefore);
  return figures;
}

/** Mean of the measured values (0 when none). */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Sorts a volume list loudest first (stable for equal volumes). */
export function sortLoudestFirst<T extends { volume: number; floatVolume: number }>(list: T[]): T[] {
  return [...list].sort((a, b) => b.floatVolume - a.floatVolume || b.volume - a.volume);
}
