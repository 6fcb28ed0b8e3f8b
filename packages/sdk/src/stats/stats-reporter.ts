import { UPLINK_SLOTS } from '@conclave/protocol';
import type { Emitter } from '../common/emitter.js';
import { log } from '../log/logger.js';
import { LocalMeter } from './local-meter.js';
import type { FreezeStats } from '../playback/freeze.js';
import type { NetworkQuality, RemoteStreamStatistic, StreamStatistic, TRTCEventTypes, TRTCStatistics } from '../types.js';
import {
  mean, QUALITY, qualityOf, receiveFigures, receivedSlots, rttOf, sendFigures, sortLoudestFirst, volumeOf, levelOf,
  type DirectionFigures, type Stat,
} from './compute.js';

/** Statistics and network quality are reported every 2 s (docs/behaviour.md §9). */
export const STATS_INTERVAL_MS = 2000;

/** Downlink slot names by transceiver index in a group (the uplink's are UPLINK_SLOTS). */
const DOWNLINK_ORDER = ['audio', 'video', 'aux'];

/** Where the reporter finds the peer connections of the room. */
export interface StatsSources {
  joined(): boolean;
  uplink(): RTCPeerConnection | undefined;
  /** The downlink with, per remote user, the mids of the m-lines carrying that user (when one link carries several). */
  downlinks(): { userId: string; pc: RTCPeerConnection; mids?: { audio: string; video: string; aux: string }; smallVideo?: boolean }[];
  /** The data link (its RTT stands in when no media flows). */
  dataLink(): RTCPeerConnection | undefined;
  /** Freeze figures of the remote videos being played. */
  freezes?(): FreezeStats[];
  /** The local microphone: its track (measured directly when it is not published) and mute state (volume 0). */
  localAudio?(): { track: MediaStreamTrack; muted: boolean } | undefined;
}

/** Reads a peer connection's stats as plain entries, with a map from mid to slot name. */
async function read(pc: RTCPeerConnection, order: readonly string[]): Promise<{ stats: Stat[]; slotOf: (mid: string | undefined) => string | undefined }> {
  const report = await pc.getStats();
  const stats: Stat[] = [];
  report.forEach((value: Stat) => stats.push(value));
  const mids = new Map<string, string>();
  pc.getTransceivers().forEach((t, index) => {
    if (t.mid !== null && order[index]) mids.set(t.mid, order[index]);
  });
  return { stats, slotOf: (mid) => (mid === undefined ? undefined : mids.get(mid)) };
}

/** A peer connection's stats now and at the previous read. */
interface Snapshot {
  stats: Stat[];
  before: Stat[];
  slotOf: (mid: string | undefined) => string | undefined;
}

/** One remote user's part of a shared downlink's stats: its m-lines' RTP entries and every other entry. */
function viewOf(stats: Stat[], mids: { audio: string; video: string; aux: string }): Stat[] {
  const own = new Set([mids.audio, mids.video, mids.aux]);
  return stats.filter((s) => s.type !== 'inbound-rtp' || own.has(String(s.mid)));
}

/** Slot names of a shared downlink's m-lines for one user. */
const slotsOf = (mids: { audio: string; video: string; aux: string }) => (mid: string | undefined) =>
  mid === mids.audio ? 'audio' : mid === mids.video ? 'video' : mid === mids.aux ? 'aux' : undefined;

const toStatistic = (f: DirectionFigures | undefined): StreamStatistic => ({
  audio: { bitrate: f?.audio.bitrate ?? 0, audioLevel: Math.round((f?.audio.audioLevel ?? 0) * 1000) / 1000 },
  video: f?.video ?? [],
});

/** A remote user's figures, with the receive delay (5.12+: jitterBufferDelay, ms) of its audio and each video. */
const toRemoteStatistic = (userId: string, f: DirectionFigures): RemoteStreamStatistic => {
  const { audio, video } = toStatistic(f);
  return {
    userId,
    audio: { ...audio, jitterBufferDelay: f.audio.jitterBufferDelay ?? 0 },
    video: video.map((v, i) => ({ ...v, jitterBufferDelay: f.video[i]?.jitterBufferDelay ?? 0 })),
  };
};

const isDown = (pc: RTCPeerConnection) => pc.connectionState === 'failed' || pc.connectionState === 'disconnected';

/**
 * The statistics and network-quality events every 2 s while in the room, and the audio-volume event
 * at its own interval, all from getStats() of the room's peer connections.
 */
export class StatsReporter {
  private readonly _events: Emitter<TRTCEventTypes>;
  private readonly _sources: StatsSources;
  /** Previous snapshots by peer connection, one map per loop (their intervals differ). */
  private readonly _prevStats = new WeakMap<RTCPeerConnection, Stat[]>();
  private readonly _prevVolume = new WeakMap<RTCPeerConnection, Stat[]>();
  private _statsTimer: ReturnType<typeof setInterval> | undefined;
  private _volumeTimer: ReturnType<typeof setInterval> | undefined;
  private _volumeInterval = 0;
  private _volumeInBackground = false;
  private _busy = false;
  private readonly _meter = new LocalMeter();

  constructor(events: Emitter<TRTCEventTypes>, sources: StatsSources) {
    this._events = events;
    this._sources = sources;
  }

  /** Starts the 2-second loop (after joining); it stops by itself once the room is left. */
  start(): void {
    this._statsTimer ??= setInterval(() => {
      if (!this._sources.joined()) {
        this._stopStats();
        return;
      }
      if (this._busy) return;
      this._busy = true;
      this._tick().catch((error: unknown) => log.debug('statistics failed', error)).finally(() => {
        this._busy = false;
      });
    }, STATS_INTERVAL_MS);
    this._applyVolume();
  }

  private _stopStats(): void {
    clearInterval(this._statsTimer);
    this._statsTimer = undefined;
  }

  /** Sets the audio-volume interval (0 turns it off). */
  setVolumeInterval(interval: number, enableInBackground: boolean): void {
    this._volumeInterval = interval;
    this._volumeInBackground = enableInBackground;
    clearInterval(this._volumeTimer);
    this._volumeTimer = undefined;
    if (interval <= 0) this._meter.stop();
    this._applyVolume();
  }

  private _applyVolume(): void {
    if (this._volumeInterval <= 0 || this._volumeTimer) return;
    this._volumeTimer = setInterval(() => {
      if (!this._volumeInBackground && typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
      this._volumeTick().catch((error: unknown) => log.debug('audio volume failed', error));
    }, this._volumeInterval);
  }

  /** Stops everything (destroy). */
  stop(): void {
    this._stopStats();
    clearInterval(this._volumeTimer);
    this._volumeTimer = undefined;
    this._meter.stop();
  }

  private async _snapshot(pc: RTCPeerConnection, order: readonly string[], store: WeakMap<RTCPeerConnection, Stat[]>): Promise<Snapshot> {
    const { stats, slotOf } = await read(pc, order);
    const before = store.get(pc) ?? [];
    store.set(pc, stats);
    return { stats, before, slotOf };
  }

  private async _tick(): Promise<void> {
    const uplinkPc = this._sources.uplink();
    const up = uplinkPc && uplinkPc.connectionState !== 'closed'
      ? await this._snapshot(uplinkPc, UPLINK_SLOTS, this._prevStats).then(({ stats, before, slotOf }) => sendFigures(stats, before, slotOf))
      : undefined;
    const remotes: { userId: string; figures: DirectionFigures; down: boolean }[] = [];
    const shared = new Map<RTCPeerConnection, Promise<Snapshot>>();
    for (const { userId, pc, mids, smallVideo } of this._sources.downlinks()) {
      if (pc.connectionState === 'closed') continue;
      // A downlink carrying several users is read once per tick and split by mid.
      let snapshot = shared.get(pc);
      if (!snapshot) {
        snapshot = this._snapshot(pc, DOWNLINK_ORDER, this._prevStats);
        shared.set(pc, snapshot);
      }
      const { stats, before, slotOf } = await snapshot;
      const slots = receivedSlots(mids ? slotsOf(mids) : slotOf, smallVideo === true);
      const figures = mids ? receiveFigures(viewOf(stats, mids), viewOf(before, mids), slots) : receiveFigures(stats, before, slots);
      remotes.push({ userId, figures, down: isDown(pc) });
    }
    const dataPc = this._sources.dataLink();
    const dataRtt = dataPc && dataPc.connectionState === 'connected' ? rttOf(await read(dataPc, []).then((r) => r.stats)) : 0;

    const measuredDown = remotes.filter((r) => r.figures.measured);
    const upRtt = up?.rtt || dataRtt;
    const downRtt = Math.round(mean(measuredDown.map((r) => r.figures.rtt).filter((rtt) => rtt > 0))) || dataRtt;
    const upLoss = up?.loss ?? 0;
    const downLoss = Math.round(mean(measuredDown.map((r) => r.figures.loss)) * 10) / 10;
    const statistics: TRTCStatistics = {
      rtt: upRtt || downRtt,
      upLoss,
      downLoss,
      bytesSent: up?.bytes ?? 0,
      bytesReceived: remotes.reduce((sum, r) => sum + r.figures.bytes, 0),
      localStatistics: toStatistic(up),
      remoteStatistics: remotes.map((r) => toRemoteStatistic(r.userId, r.figures)),
    };
    this._addFreezes(statistics);
    this._events.emit('statistics', statistics);

    const uplinkQuality = uplinkPc && isDown(uplinkPc) ? QUALITY.DISCONNECTED
      : qualityOf(upRtt, upLoss, (up?.measured ?? false) || dataRtt > 0);
    const downlinkQuality = remotes.length > 0 && remotes.every((r) => r.down) ? QUALITY.DISCONNECTED
      : qualityOf(downRtt, downLoss, measuredDown.length > 0 || dataRtt > 0);
    const quality: NetworkQuality = {
      uplinkNetworkQuality: uplinkQuality,
      downlinkNetworkQuality: downlinkQuality,
      uplinkRTT: upRtt,
      uplinkLoss: upLoss,
      downlinkRTT: downRtt,
      downlinkLoss: downLoss,
    };
    this._events.emit('network-quality', quality);
  }

  /** Adds the freeze figures of each played remote video to its entry. */
  private _addFreezes(statistics: TRTCStatistics): void {
    for (const freeze of this._sources.freezes?.() ?? []) {
      const remote = statistics.remoteStatistics.find((r) => r.userId === freeze.userId);
      const video = remote?.video.find((v) => (freeze.streamType === 'main') === (v.videoType !== 'sub'));
      if (!video) continue;
      video.freeze = {
        videoFreezeCount: freeze.videoFreeze.count,
        videoFreezeDuration: Math.round(freeze.videoFreeze.durationMs),
        renderFreezeCount: freeze.renderFreeze.count,
        renderFreezeDuration: Math.round(freeze.renderFreeze.durationMs),
      };
    }
  }

  private async _volumeTick(): Promise<void> {
    const result: { userId: string; volume: number; floatVolume: number }[] = [];
    const uplinkPc = this._sources.uplink();
    let local = 0;
    let measured = false;
    if (uplinkPc && uplinkPc.connectionState !== 'closed') {
      const { stats, before } = await this._snapshot(uplinkPc, UPLINK_SLOTS, this._prevVolume);
      const prev = new Map(before.map((s) => [s.id, s]));
      for (const s of stats) {
        if (s.type === 'media-source' && s.kind === 'audio' && prev.has(s.id)) {
          measured = true;
          local = Math.max(local, levelOf(s, prev.get(s.id)));
        }
      }
    }
    // Not published (not joined, an audience, or a muted slot): measure the captured track itself.
    const mic = this._sources.localAudio?.();
    if (!measured && mic?.track.enabled) local = this._meter.level(mic.track);
    if (mic?.muted) local = 0;
    result.push({ userId: '', volume: volumeOf(local), floatVolume: Math.round(local * 1000) / 1000 });
    const sharedVolume = new Map<RTCPeerConnection, Promise<Snapshot>>();
    for (const { userId, pc, mids } of this._sources.downlinks()) {
      if (pc.connectionState === 'closed') continue;
      let snapshot = sharedVolume.get(pc);
      if (!snapshot) {
        snapshot = this._snapshot(pc, DOWNLINK_ORDER, this._prevVolume);
        sharedVolume.set(pc, snapshot);
      }
      const read = await snapshot;
      const stats = mids ? viewOf(read.stats, mids) : read.stats;
      const before = mids ? viewOf(read.before, mids) : read.before;
      const prev = new Map(before.map((s) => [s.id, s]));
      let level = 0;
      let hasAudio = false;
      for (const s of stats) {
        if (s.type === 'inbound-rtp' && s.kind === 'audio') {
          hasAudio = true;
          level = Math.max(level, levelOf(s, prev.get(s.id)));
        }
      }
      if (hasAudio) result.push({ userId, volume: volumeOf(level), floatVolume: Math.round(level * 1000) / 1000 });
    }
    this._events.emit('audio-volume', { result: sortLoudestFirst(result) });
  }
}
