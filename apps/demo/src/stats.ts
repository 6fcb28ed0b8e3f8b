import type TRTC from '@conclave/sdk';
import type { NetworkQuality, TRTCStatistics } from '@conclave/sdk';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/** Per-video figures for the statistics overlay. */
export interface VideoFigures {
  readonly width: number;
  readonly height: number;
  readonly frameRate: number;
  readonly bitrate: number;
  readonly audioBitrate: number;
}

export interface StatsSnapshot {
  readonly quality: NetworkQuality | null;
  readonly rtt: number;
  /** The main video's figures by userId ('' is me). */
  readonly videos: ReadonlyMap<string, VideoFigures>;
  /** Volume 0–100 by userId ('' is my microphone). */
  readonly volumes: ReadonlyMap<string, number>;
}

/** A participant speaks above this volume. */
export const SPEAKING_VOLUME = 8;

/**
 * The room's figures: statistics per video, network quality, who speaks (audio-volume). Subscribes to the
 * client's events; read with useSyncExternalStore. Apart from the chat (chat.ts), which changes at another pace.
 */
export class RoomStats {
  private readonly listeners = new Set<() => void>();
  private snapshot: StatsSnapshot = { quality: null, rtt: 0, videos: new Map(), volumes: new Map() };

  constructor(trtc: TRTCInstance) {
    trtc.on('statistics', (stats) => this.onStatistics(stats));
    trtc.on('network-quality', (quality) => this.update({ quality }));
    trtc.on('audio-volume', ({ result }) => this.update({ volumes: new Map(result.map((r) => [r.userId, r.volume])) }));
    try {
      trtc.enableAudioVolumeEvaluation(500);
    } catch (error) {
      console.warn('[conclave-demo] audio volume evaluation unavailable', error);
    }
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = (): StatsSnapshot => this.snapshot;

  private onStatistics(stats: TRTCStatistics): void {
    const videos = new Map<string, VideoFigures>();
    const main = stats.localStatistics.video.find((v) => v.videoType === 'big');
    if (main) videos.set('', { ...main, audioBitrate: stats.localStatistics.audio.bitrate });
    for (const remote of stats.remoteStatistics) {
      const video = remote.video.find((v) => v.videoType === 'big');
      if (video) videos.set(remote.userId, { ...video, audioBitrate: remote.audio.bitrate });
    }
    this.update({ videos, rtt: stats.rtt });
  }

  private update(change: Partial<StatsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
