import type { MediaStats } from './options.js';

/** Counters of the previous report, for rates. */
interface Previous {
  at: number;
  audioBytes: number;
  videoBytes: number;
}

type Stat = Record<string, number | string | undefined>;
const num = (value: number | string | undefined): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Loss in percent of what was expected. */
const lossRate = (lost: number, received: number) => (lost + received > 0 ? Math.round((lost / (lost + received)) * 1000) / 10 : 0);
/** Jitter buffer delay per emitted sample, in ms. */
const jitterMs = (s: Stat | undefined) => (num(s?.jitterBufferEmittedCount) > 0 ? Math.round((num(s?.jitterBufferDelay) / num(s?.jitterBufferEmittedCount)) * 1000) : 0);

/**
 * The onStats report of a playback from its peer connection's statistics: kbit/s since the previous report,
 * loss, jitter-buffer delay, frame size and rate, the audio level and the round-trip time.
 */
export class MediaStatsReader {
  private _previous: Previous | undefined;

  async read(pc: RTCPeerConnection): Promise<MediaStats> {
    const report = await pc.getStats();
    let audio: Stat | undefined;
    let video: Stat | undefined;
    let rtt = 0;
    report.forEach((s: Stat) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') audio = s;
      if (s.type === 'inbound-rtp' && s.kind === 'video') video = s;
      if (s.type === 'candidate-pair' && s.nominated && s.currentRoundTripTime !== undefined) rtt = Math.round(num(s.currentRoundTripTime) * 1000);
    });
    const now = performance.now();
    const previous = this._previous;
    const seconds = previous ? (now - previous.at) / 1000 : 0;
    const kbps = (bytes: number, before: number) => (seconds > 0 ? Math.max(0, Math.round(((bytes - before) * 8) / 1000 / seconds)) : 0);
    const audioBytes = num(audio?.bytesReceived);
    const videoBytes = num(video?.bytesReceived);
    this._previous = { at: now, audioBytes, videoBytes };
    return {
      audio: {
        bitrate: kbps(audioBytes, previous?.audioBytes ?? 0), volume: num(audio?.audioLevel),
        packetLossRate: lossRate(num(audio?.packetsLost), num(audio?.packetsReceived)), jitterBufferDelay: jitterMs(audio),
        bytesReceived: audioBytes, packetsReceived: num(audio?.packetsReceived), packetsLost: num(audio?.packetsLost),
      },
      video: {
        bitrate: kbps(videoBytes, previous?.videoBytes ?? 0), frameRate: Math.round(num(video?.framesPerSecond)),
        width: num(video?.frameWidth), height: num(video?.frameHeight),
        packetLossRate: lossRate(num(video?.packetsLost), num(video?.packetsReceived)), jitterBufferDelay: jitterMs(video),
        bytesReceived: videoBytes, packetsReceived: num(video?.packetsReceived), packetsLost: num(video?.packetsLost),
        framesDecoded: num(video?.framesDecoded),
      },
      network: { rtt },
    };
  }
}
