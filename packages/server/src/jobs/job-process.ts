import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Debian's Python, which has the GStreamer bindings (python3-gi, gir1.2-gstreamer-1.0). */
export const JOB_PYTHON = process.env.CONCLAVE_JOB_PYTHON ?? '/usr/bin/python3';
/** The controller script; resolves from both src/jobs (tests) and dist/jobs (built server). */
const SCRIPT = fileURLToPath(new URL('../../src/jobs/gst-job.py', import.meta.url));

/**
 * One output of a job: an RTMP ingest, an MP4 file, or (a mix) RTP to two loopback UDP ports of the server,
 * H264 payload type 96 and opus 111, which it plays over WHEP (whep/mix-streams.ts).
 */
export type JobOutput = { type: 'rtmp'; url: string } | { type: 'file'; path: string } | { type: 'rtp'; videoPort: number; audioPort: number };

/** The controller's job spec (see gst-job.py). */
export interface PipelineSpec {
  kind: 'mix' | 'relay';
  width: number;
  height: number;
  fps: number;
  /** kbps */
  videoBitrate: number;
  /** seconds */
  gop: number;
  /** kbps */
  audioBitrate: number;
  audioSampleRate: number;
  audioChannels: 1 | 2;
  /** 0xRRGGBB */
  background: number;
  /** A mix: an image file drawn over the background colour, under every user, scaled to the output. */
  backgroundImage?: string;
  outputs: JobOutput[];
}

/** Where one input of a running pipeline takes RTP. */
export interface InputPorts {
  videoPort: number;
  audioPort: number;
}

/** A rectangle of the mix, in output pixels. */
export interface PadLayout {
  x: number;
  y: number;
  w: number;
  h: number;
  z: number;
  fill: 0 | 1 | 2;
  visible: boolean;
}

interface ControllerEvent {
  event: string;
  id?: string;
  videoPort?: number;
  audioPort?: number;
  fps?: number | null;
  frames?: number;
  message?: string;
  inputs?: Record<string, { rtp: number }>;
}

/**
 * One run of the GStreamer controller process: sends it commands, turns its output lines into calls.
 * It does not restart itself; MediaJob supervises.
 */
export class JobProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pendingInputs = new Map<string, (ports: InputPorts) => void>();
  readonly #exited: Promise<number | null>;
  #started!: Promise<void>;
  #lastError: string | undefined;
  #stderr = '';
  /** Encoded frames per second over the last 2 s (a mix; a relay encodes no video: 0). */
  fps = 0;
  /** Frames encoded (mix) or video RTP packets relayed since start. */
  frames = 0;
  /** Per input: the last video RTP sequence number received (it moves while media flows). */
  inputCounts: Record<string, { rtp: number }> = {};

  /** `onWarning`: what the pipeline reports and carries on from (e.g. a background image it cannot read). */
  constructor(spec: PipelineSpec, onWarning?: (message: string) => void) {
    // CONCLAVE_JOB_GST_DEBUG: a GST_DEBUG spec for the job processes (their stderr then goes to the server's).
    const debug = process.env.CONCLAVE_JOB_GST_DEBUG;
    this.#child = spawn(JOB_PYTHON, [SCRIPT], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: debug ? { ...process.env, GST_DEBUG: debug, GST_DEBUG_NO_COLOR: '1' } : process.env,
    });
    if (debug) this.#child.stderr.pipe(process.stderr);
    this.#child.stdin.on('error', () => undefined);
    // The spec is the first line on stdin, not an argument: its RTMP URLs hold stream keys, and a process's
    // command line (and environment) is what `ps` shows every local user.
    this.#child.stdin.write(`${JSON.stringify(spec)}\n`);
    this.#child.stderr.on('data', (chunk: Buffer) => { this.#stderr = (this.#stderr + chunk.toString()).slice(-4000); });
    let resolveStarted!: () => void;
    let rejectStarted!: (error: Error) => void;
    this.#started = new Promise<void>((resolve, reject) => { resolveStarted = resolve; rejectStarted = reject; });
    this.#started.catch(() => undefined); // awaited by start(), which reports it: no unhandled rejection before
    createInterface({ input: this.#child.stdout }).on('line', (line) => {
      let event: ControllerEvent;
      try {
        event = JSON.parse(line) as ControllerEvent;
      } catch {
        return; // the controller writes one JSON event a line; a library's stray output on stdout is no event
      }
      if (event.event === 'input' && event.id !== undefined) {
        this.#pendingInputs.get(event.id)?.({ videoPort: event.videoPort ?? 0, audioPort: event.audioPort ?? 0 });
        this.#pendingInputs.delete(event.id);
      } else if (event.event === 'started') {
        resolveStarted();
      } else if (event.event === 'stats') {
        this.fps = event.fps ?? 0;
        this.frames = event.frames ?? this.frames;
        this.inputCounts = event.inputs ?? this.inputCounts;
      } else if (event.event === 'warning' && event.message) {
        onWarning?.(event.message);
      } else if (event.event === 'error') {
        this.#lastError = event.message;
      }
    });
    this.#exited = new Promise((resolve) => {
      this.#child.on('exit', (code) => {
        rejectStarted(new Error(this.#lastError ?? (`media job exited with code ${String(code)}${this.#stderr ? `: ${this.#stderr.trim().split('\n').pop() ?? ''}` : ''}`)));
        resolve(code);
      });
      this.#child.on('error', (error) => {
        rejectStarted(error);
        resolve(null);
      });
    });
  }

  /** The process id (for the admin API and for tests that kill a job). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The last error the pipeline reported. */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** Resolves once every output is writing (RTMP connected and media flowing); rejects when the process dies first. */
  started(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no output within ${timeoutMs} ms`)), timeoutMs);
      this.#started.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  /** Resolves with the exit code when the process ends. */
  get exited(): Promise<number | null> {
    return this.#exited;
  }

  #send(command: object): void {
    if (this.#child.exitCode === null && this.#child.stdin.writable) this.#child.stdin.write(`${JSON.stringify(command)}\n`);
  }

  /** Adds an input (resolves with its UDP ports) or, for an existing one, applies a new layout. */
  input(id: string, layout: PadLayout | undefined): Promise<InputPorts> {
    const ports = new Promise<InputPorts>((resolve, reject) => {
      this.#pendingInputs.set(id, resolve);
      this.#exited.then(() => reject(new Error('media job ended')), () => undefined); // #exited never rejects; typed as if
    });
    this.#send({ cmd: 'input', id, layout });
    return ports;
  }

  /** Moves an existing input. */
  layout(id: string, layout: PadLayout): void {
    this.#send({ cmd: 'input', id, layout });
  }

  /** A mix: another background colour and image (none: the colour only), live. */
  background(color: number, image: string | undefined): void {
    this.#send({ cmd: 'background', color, image: image ?? null });
  }

  /** A mix: the encoder sends a key frame now (a new WHEP player of its rtp output). */
  keyframe(): void {
    this.#send({ cmd: 'keyframe' });
  }

  /** Ends the streams cleanly (files finalised); kills the process if it has not ended after `graceMs`. */
  async stop(graceMs = 6000): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#send({ cmd: 'stop' });
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}
