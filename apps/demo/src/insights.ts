import type TRTC from '@conclave/sdk';
import type { NetworkQuality, TRTCStatistics } from '@conclave/sdk';
import { getLang, translate } from './i18n';

type TRTCInstance = ReturnType<typeof TRTC.create>;

/** One chat line (a custom message with cmdId CHAT_CMD_ID). */
export interface ChatLine {
  readonly id: number;
  readonly userId: string;
  readonly text: string;
  readonly mine: boolean;
  readonly at: number;
}

/** Per-video figures for the statistics overlay. */
export interface VideoFigures {
  readonly width: number;
  readonly height: number;
  readonly frameRate: number;
  readonly bitrate: number;
  readonly audioBitrate: number;
}

export interface InsightsSnapshot {
  readonly chat: readonly ChatLine[];
  readonly quality: NetworkQuality | null;
  readonly rtt: number;
  /** '' is me. */
  readonly stats: ReadonlyMap<string, VideoFigures>;
  /** Volume 0–100 by userId ('' is my microphone). */
  readonly volumes: ReadonlyMap<string, number>;
}

/** The custom-message command id the chat uses. */
export const CHAT_CMD_ID = 1;
const MAX_LINES = 200;
/** A participant speaks above this volume. */
export const SPEAKING_VOLUME = 8;

/**
 * What the room shows besides media: chat over custom messages, statistics per video, network quality,
 * who speaks (audio-volume). Subscribes to the client's events; read with useSyncExternalStore.
 */
export class RoomInsights {
  private readonly trtc: TRTCInstance;
  private readonly userId: string;
  private readonly listeners = new Set<() => void>();
  private nextId = 1;
  private snapshot: InsightsSnapshot = { chat: [], quality: null, rtt: 0, stats: new Map(), volumes: new Map() };

  constructor(trtc: TRTCInstance, userId: string) {
    this.trtc = trtc;
    this.userId = userId;
    trtc.on('custom-message', (message) => {
      if (message.cmdId !== CHAT_CMD_ID) return;
      this.addLine(message.userId, new TextDecoder().decode(message.data), false);
    });
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

  readonly getSnapshot = (): InsightsSnapshot => this.snapshot;

  /** Sends a chat line; returns the error message when the SDK refuses (rate limit, not joined…). */
  sendChat(text: string): string | null {
    const bytes = new TextEncoder().encode(text);
    if (bytes.length === 0) return null;
    if (bytes.length > 1000) return translate(getLang(), 'chat.tooLong');
    try {
      this.trtc.sendCustomMessage({ cmdId: CHAT_CMD_ID, data: bytes.buffer });
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    this.addLine(this.userId, text, true);
    return null;
  }

  private addLine(userId: string, text: string, mine: boolean): void {
    const line: ChatLine = { id: this.nextId++, userId, text, mine, at: Date.now() };
    this.update({ chat: [...this.snapshot.chat, line].slice(-MAX_LINES) });
  }

  private onStatistics(stats: TRTCStatistics): void {
    const figures = new Map<string, VideoFigures>();
    const main = stats.localStatistics.video.find((v) => v.videoType === 'big');
    if (main) figures.set('', { ...main, audioBitrate: stats.localStatistics.audio.bitrate });
    for (const remote of stats.remoteStatistics) {
      const video = remote.video.find((v) => v.videoType === 'big');
      if (video) figures.set(remote.userId, { ...video, audioBitrate: remote.audio.bitrate });
    }
    this.update({ stats: figures, rtt: stats.rtt });
  }

  private update(change: Partial<InsightsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
