import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { RTP_FORWARD_PAYLOAD_TYPE } from '../engine/media-engine.js';
import { RECOGNIZER_SAMPLE_RATE } from './recognizer.js';

/** GStreamer's command-line launcher (Debian's gstreamer1.0-tools). */
const GST_LAUNCH = process.env.CONCLAVE_GST_LAUNCH ?? 'gst-launch-1.0';

/**
 * Opus RTP in (RFC 4571 framing on stdin) → 16 kHz mono s16le PCM out (stdout). Depayloading from a stream
 * rather than a UDP source lets Node own the socket: its port is known before anything starts and nothing
 * else can take it.
 */
const PIPELINE = [
  'fdsrc', 'fd=0', '!', `application/x-rtp-stream,media=audio,clock-rate=48000,encoding-name=OPUS,payload=${RTP_FORWARD_PAYLOAD_TYPE.audio}`,
  '!', 'rtpstreamdepay', '!', 'rtpopusdepay', '!', 'opusdec', 'plc=true', '!', 'audioconvert', '!', 'audioresample', '!',
  `audio/x-raw,format=S16LE,rate=${RECOGNIZER_SAMPLE_RATE},channels=1`, '!', 'fdsink', 'fd=1', 'sync=false',
];

/**
 * One speaker's audio: a loopback UDP port the media engine's forwardRtp sends opus RTP to, decoded to the PCM a
 * recognizer takes. `onPcm` gets the decoded audio as it comes.
 */
export class RtpAudioDecoder {
  readonly #socket: Socket;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #exited: Promise<void>;
  /** RTP packets received (the bench and the admin view read it). */
  packets = 0;

  private constructor(socket: Socket, onPcm: (pcm: Buffer) => void, onExit: (reason: string) => void) {
    this.#socket = socket;
    this.#child = spawn(GST_LAUNCH, ['-q', ...PIPELINE], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    this.#child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-2000); });
    this.#child.stdin.on('error', () => undefined);
    this.#child.stdout.on('data', (pcm: Buffer) => onPcm(pcm));
    this.#exited = new Promise((resolve) => {
      this.#child.on('exit', (code, signal) => { onExit(`audio decoder exited (${signal ?? String(code)})${stderr ? `: ${stderr.trim().split('\n').pop() ?? ''}` : ''}`); resolve(); });
      this.#child.on('error', (error) => { onExit(`audio decoder: ${error.message}`); resolve(); });
    });
    socket.on('message', (packet) => {
      if (packet.length < 12 || (packet[1]! & 0x7f) !== RTP_FORWARD_PAYLOAD_TYPE.audio) return;
      this.packets++;
      const length = Buffer.alloc(2);
      length.writeUInt16BE(packet.length);
      if (this.#child.stdin.writable) this.#child.stdin.write(Buffer.concat([length, packet]));
    });
  }

  /** Binds a loopback port and starts the decoder. */
  static async open(onPcm: (pcm: Buffer) => void, onExit: (reason: string) => void): Promise<RtpAudioDecoder> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => { socket.off('error', reject); resolve(); });
    });
    return new RtpAudioDecoder(socket, onPcm, onExit);
  }

  /** The UDP port to forward the speaker's RTP to. */
  get port(): number {
    return this.#socket.address().port;
  }

  /** Stops receiving and ends the decoder. */
  async close(): Promise<void> {
    try {
      this.#socket.close();
    } catch {
      // already closed
    }
    this.#child.stdin.end();
    const kill = setTimeout(() => this.#child.kill('SIGKILL'), 2000);
    await this.#exited;
    clearTimeout(kill);
  }
}
