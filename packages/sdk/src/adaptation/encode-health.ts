import { log } from '../log/logger.js';

/** Heartbeats in a row that must look bad; the event fires on the one after (docs/behaviour.md §4: "more than 3"). */
export const BAD_ENCODE_HEARTBEATS = 3;
/** Frame-rate ratio above which the encoder keeps pace (docs/behaviour.md §4). */
export const ENCODE_FPS_RATIO = 0.9;
/** Bitrate ratio below which the encoder under-delivers (docs/behaviour.md §4). */
export const ENCODE_BITRATE_RATIO = 0.5;
/** At least this long between two bad-health events (docs/behaviour.md §9: bad-health spacing 30000 ms). */
export const BAD_HEALTH_SPACING_MS = 30_000;

/** One heartbeat's figures of the published main video. */
export interface EncodeSample {
  /** Frames per second sent. */
  fps: number;
  /** The frame rate asked of the encoder. */
  targetFps: number;
  /** Bits per second sent. */
  bitrate: number;
  /** The bitrate asked of the encoder. */
  targetBitrate: number;
  /** True when the browser reports a hardware (power-efficient) encoder. */
  hardware: boolean;
  /** The codec's mime type (video/H264…). */
  mimeType: string;
}

/**
 * The encode-health rule (docs/behaviour.md §4): a hardware H264 encoder that keeps its frame rate (ratio > 0.9) but
 * delivers under half its bitrate (ratio < 0.5) for more than 3 heartbeats in a row is bad; events are at
 * least 30 s apart. Other encoders never count.
 */
export class EncodeHealthRule {
  private _bad = 0;
  private _lastEventAt = -Infinity;

  /** Feeds one heartbeat at time `now` (ms); true when it raises a bad-health event. */
  check(sample: EncodeSample, now: number): boolean {
    const counted = sample.hardware && /h264/i.test(sample.mimeType) && sample.targetFps > 0 && sample.targetBitrate > 0 &&
      sample.fps / sample.targetFps > ENCODE_FPS_RATIO && sample.bitrate / sample.targetBitrate < ENCODE_BITRATE_RATIO;
    this._bad = counted ? this._bad + 1 : 0;
    if (this._bad <= BAD_ENCODE_HEARTBEATS || now - this._lastEventAt < BAD_HEALTH_SPACING_MS) return false;
    this._lastEventAt = now;
    this._bad = 0;
    return true;
  }
}

/** The entries of an outbound-rtp stat read here. */
interface OutboundStat {
  type: string;
  kind?: string;
  codecId?: string;
  id: string;
  bytesSent?: number;
  framesPerSecond?: number;
  powerEfficientEncoder?: boolean;
  encoderImplementation?: string;
  timestamp: number;
  mimeType?: string;
}

/**
 * Turns two successive getStats reads of a video sender into a sample (bitrate from the bytes sent
 * between them); undefined when nothing was sent or the reads do not match.
 */
export function encodeSampleOf(now: readonly OutboundStat[], before: readonly OutboundStat[] | undefined,
  target: { fps: number; bitrate: number }): EncodeSample | undefined {
  const out = now.find((s) => s.type === 'outbound-rtp' && s.kind === 'video');
  const prev = before?.find((s) => s.type === 'outbound-rtp' && s.id === out?.id);
  if (!out || !prev || out.timestamp <= prev.timestamp) return undefined;
  const bitrate = ((out.bytesSent ?? 0) - (prev.bytesSent ?? 0)) * 8 * 1000 / (out.timestamp - prev.timestamp);
  const mimeType = now.find((s) => s.id === out.codecId)?.mimeType ?? '';
  return { fps: out.framesPerSecond ?? 0, targetFps: target.fps, bitrate, targetBitrate: target.bitrate, hardware: out.powerEfficientEncoder === true, mimeType };
}

/** A published video the monitor watches: its uplink slot, sender, and the frame rate and bitrate (kbit/s) asked of it. */
export interface WatchedVideo {
  slot: 'video' | 'aux';
  sender: RTCRtpSender;
  targetFps: number;
  targetKbps: number;
}

/** What the encode-health monitor reads. */
export interface EncodeHealthHost {
  /** The published videos (camera, screen) now. */
  videos(): readonly WatchedVideo[];
  /** A bad-health event of `slot`'s encoder (at most one per sender). */
  unhealthy(slot: WatchedVideo['slot'], sample: EncodeSample): void;
}

/** Encode health is checked every heartbeat (2 s, as the statistics). */
export const ENCODE_CHECK_MS = 2000;

/**
 * Checks the published videos every heartbeat with an EncodeHealthRule per slot and reports a bad-health
 * event to the host, once per sender.
 */
export class EncodeHealthMonitor {
  private readonly _host: EncodeHealthHost;
  private readonly _rules = { video: new EncodeHealthRule(), aux: new EncodeHealthRule() };
  private _timer: ReturnType<typeof setInterval> | undefined;
  private _before: Partial<Record<WatchedVideo['slot'], { sender: RTCRtpSender; stats: OutboundStat[] }>> = {};
  /** Senders already reported. */
  private readonly _switched = new WeakSet<RTCRtpSender>();
  /** The encoder each slot's sender used at the last heartbeat (logged when it changes, as the original). */
  private readonly _implementation: Partial<Record<WatchedVideo['slot'], string>> = {};

  constructor(host: EncodeHealthHost) {
    this._host = host;
  }

  start(): void {
    this._timer ??= setInterval(() => {
      this._checkAll().catch((error: unknown) => log.debug('encode health check failed:', error));
    }, ENCODE_CHECK_MS);
  }

  stop(): void {
    clearInterval(this._timer);
    this._timer = undefined;
    this._before = {};
    for (const slot of ['video', 'aux'] as const) delete this._implementation[slot];
  }

  private async _checkAll(): Promise<void> {
    const videos = this._host.videos();
    for (const slot of ['video', 'aux'] as const) {
      const video = videos.find((v) => v.slot === slot);
      if (video) await this._check(video);
      else delete this._before[slot];
    }
  }

  private async _check(video: WatchedVideo): Promise<void> {
    const { slot, sender } = video;
    if (!sender.track) {
      delete this._before[slot];
      return;
    }
    const stats: OutboundStat[] = [];
    (await sender.getStats()).forEach((s: OutboundStat) => stats.push(s));
    const out = stats.find((s) => s.type === 'outbound-rtp' && s.kind === 'video');
    const implementation = out?.encoderImplementation;
    if (implementation && implementation !== this._implementation[slot]) {
      this._implementation[slot] = implementation;
      log.info(`${slot === 'aux' ? 'aux ' : ''}encoderImplementation change to ${implementation} HWEncoder: ${out.powerEfficientEncoder === true}`);
    }
    if (this._switched.has(sender)) {
      delete this._before[slot];
      return;
    }
    const before = this._before[slot]?.sender === sender ? this._before[slot].stats : undefined;
    this._before[slot] = { sender, stats };
    const sample = encodeSampleOf(stats, before, { fps: video.targetFps, bitrate: video.targetKbps * 1000 });
    if (sample && this._rules[slot].check(sample, Date.now())) {
      this._switched.add(sender);
      this._host.unhealthy(slot, sample);
    }
  }
}
