import { createSocket, type Socket } from 'node:dgram';
import type { ForwardSource, PublisherSources, RtpPacket } from '../../webrtc/index.js';
import type { RtpForward, RtpForwardTargets } from '../media-engine.js';
import { RTP_FORWARD_PAYLOAD_TYPE } from '../media-engine.js';

/** Timestamp step inserted when a stream restarts (one frame at 30 fps, one 20 ms opus packet). */
const RESTART_STEP = { video: 3000, audio: 960 } as const;

/**
 * Sends one source stream's RTP to a loopback UDP port with a fixed payload type and SSRC, and with sequence
 * numbers and timestamps kept continuous across a republish, so the job's jitter buffer sees one stream.
 */
class StreamForward {
  readonly #kind: 'video' | 'audio';
  readonly #source: ForwardSource;
  readonly #socket: Socket;
  readonly #port: number;
  readonly #host: string;
  readonly #ssrc = (Math.random() * 0xffffffff) >>> 0;
  #seqOffset = 0;
  #tsOffset = 0;
  #lastSeq: number | undefined;
  #lastTs = 0;
  readonly #remove: () => void;

  constructor(kind: 'video' | 'audio', source: ForwardSource, socket: Socket, host: string, port: number) {
    this.#kind = kind;
    this.#source = source;
    this.#socket = socket;
    this.#host = host;
    this.#port = port;
    this.#remove = source.addSink((rtp, restarted) => this.#send(rtp, restarted));
  }

  #send(rtp: RtpPacket, restarted: boolean): void {
    const wanted = this.#kind === 'video' ? 'video/h264' : 'audio/opus';
    // Jobs decode H264 and opus only; a VP8 publisher is not mixed (its packets would not parse).
    if (this.#source.codecMimeType && this.#source.codecMimeType.toLowerCase() !== wanted) return;
    if (restarted && this.#lastSeq !== undefined) {
      this.#seqOffset = (this.#lastSeq + 1 - rtp.header.sequenceNumber) & 0xffff;
      this.#tsOffset = (this.#lastTs + RESTART_STEP[this.#kind] - rtp.header.timestamp) >>> 0;
      if (this.#kind === 'video') this.#source.requestKeyframe();
    }
    const seq = (rtp.header.sequenceNumber + this.#seqOffset) & 0xffff;
    const ts = (rtp.header.timestamp + this.#tsOffset) >>> 0;
    this.#lastSeq = seq;
    this.#lastTs = ts;
    const buf = rtp.serialize();
    buf[1] = (buf[1] & 0x80) | RTP_FORWARD_PAYLOAD_TYPE[this.#kind];
    buf.writeUInt16BE(seq, 2);
    buf.writeUInt32BE(ts, 4);
    buf.writeUInt32BE(this.#ssrc, 8);
    this.#socket.send(buf, this.#port, this.#host);
  }

  stop(): void {
    this.#remove();
  }
}

/**
 * Feeds a publisher's streams to a media job over loopback UDP (the embedded engine's side of
 * MediaEngine.forwardRtp). Asks for a key frame at once, so the job's decoder starts without waiting
 * for the publisher's next one.
 */
export function forwardRtp(sources: PublisherSources, targets: RtpForwardTargets): RtpForward {
  const socket = createSocket('udp4');
  socket.on('error', () => undefined); // a job that went away: its port refuses; nothing to do
  socket.unref();
  const host = targets.host ?? '127.0.0.1';
  const video = targets.stream === 'aux' ? sources.aux : sources.video;
  const forwards: StreamForward[] = [];
  if (targets.videoPort !== undefined) forwards.push(new StreamForward('video', video, socket, host, targets.videoPort));
  if (targets.audioPort !== undefined) forwards.push(new StreamForward('audio', sources.audio, socket, host, targets.audioPort));
  if (targets.videoPort !== undefined) video.requestKeyframe();
  let stopped = false;
  return {
    requestKeyframe: () => { if (!stopped && targets.videoPort !== undefined) video.requestKeyframe(); },
    stop: () => {
      if (stopped) return;
      stopped = true;
      for (const forward of forwards) forward.stop();
      socket.close();
    },
  };
}
