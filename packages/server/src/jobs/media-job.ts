import { PRIVILEGE } from '@conclave/usersig';
import type { Logger } from 'pino';
import { allowedWants } from '../auth/privileges.js';
import type { MediaEngine, RtpForward } from '../engine/media-engine.js';
import type { Participant } from '../room/participant.js';
import type { Room } from '../room/room.js';
import { JobProcess, type InputPorts, type JobOutput, type PadLayout, type PipelineSpec } from './job-process.js';

/** What a job does; CDN jobs are started by a user's plugin, recordings by the configuration or the admin API. */
export type JobKind = 'cdn-mix' | 'cdn-main' | 'cdn-sub' | 'record-mix' | 'record-stream';
export type JobState = 'starting' | 'running' | 'restarting' | 'stopped' | 'failed';

/** One source of a job: a user's main or auxiliary video (and audio), with its rectangle in a mix. */
export interface JobInput {
  userId: string;
  stream: 'main' | 'aux';
  video: boolean;
  audio: boolean;
  /** The rectangle in a mix; absent for a relay. */
  layout?: PadLayout;
}

export interface MediaJobOptions {
  id: string;
  kind: JobKind;
  sdkAppId: number;
  roomKey: string;
  /** The room's name within its app (RoomRef). */
  roomRef: string;
  /** The participant (session id) whose leaving ends the job; none for recordings. */
  ownerId?: string;
  ownerUserId?: string;
  /**
   * The privileges of whoever the job's output is for, read at each binding: a job a user started takes from
   * the others only what that user may receive (docs/behaviour.md §6). None (a job of the operator or the
   * app's backend): the sources' own send bits only.
   */
  receiverPrivileges?(): number;
  /** A mix's streamId (CDNStreaming's target.streamId): its rtp output is played over WHEP under it. */
  streamId?: string;
  spec: Omit<PipelineSpec, 'outputs'>;
  /** Outputs of run `n` (0 first, then one per restart): a file output needs a new name after a crash. */
  outputs(run: number): JobOutput[];
  inputs: JobInput[];
  /** The media engine's RTP feed to the job (MediaEngine.forwardRtp). */
  forwardRtp: NonNullable<MediaEngine['forwardRtp']>;
  logger: Logger;
  /** Called after each automatic restart (for metrics). */
  onRestart?(job: MediaJob): void;
  /** Called when a run's process has exited (stopped or died), with that run's outputs (a recording repairs its file). */
  onRunExit?(outputs: JobOutput[]): void;
  /** Called once when the job ends for good. */
  onEnd?(job: MediaJob): void;
}

/** How the admin API shows a job. */
export interface JobInfo {
  jobId: string;
  kind: JobKind;
  roomKey: string;
  ownerUserId: string | null;
  state: JobState;
  restarts: number;
  fps: number;
  frames: number;
  pid: number | null;
  outputs: string[];
  inputs: { userId: string; stream: 'main' | 'aux'; bound: boolean; lastRtpSeq: number }[];
  startedAt: string;
  lastError: string | null;
}

/** How the admin API names an output (an RTMP URL without its query, which may hold a key). */
const outputName = (o: JobOutput): string => o.type === 'rtmp' ? o.url.replace(/\?.*$/, '') : o.type === 'file' ? o.path : `rtp://127.0.0.1:${o.videoPort}`;
const inputKey = (input: Pick<JobInput, 'userId' | 'stream'>) => `${input.userId}:${input.stream}`;
/** Restarts allowed in RESTART_WINDOW_MS before the job is given up as failed. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** What GStreamer says when a write fails for a full disk: restarting cannot help, the job fails at once. */
const DISK_FULL = /no space left/i;
/** Key-frame requests after binding a source: the first may reach the decoder before it is ready, or be lost. */
const KEYFRAME_RETRIES_MS = [800, 2000, 4000, 7000, 11_000];

interface Binding {
  input: JobInput;
  ports?: InputPorts;
  participantId?: string;
  /** What flows from the bound participant ('va', 'v-', '-a', '--'): the input less what privileges deny. */
  media?: string;
  forward?: RtpForward;
  timers: ReturnType<typeof setTimeout>[];
}

/**
 * A supervised media job: one controller process at a time, its inputs bound to the room's participants by
 * userId (re-bound when a user rejoins, hidden when they leave, without restarting the pipeline), and a
 * restart with the same layout when the process dies.
 */
export class MediaJob {
  readonly options: MediaJobOptions;
  readonly startedAt = Date.now();
  /** The pipeline settings: options.spec, with the background image the last update chose. */
  #spec: Omit<PipelineSpec, 'outputs'>;
  #process: JobProcess | undefined;
  #bindings = new Map<string, Binding>();
  #state: JobState = 'starting';
  #restarts = 0;
  #recentRestarts: number[] = [];
  #run = 0;
  #ran = false;
  #lastError: string | undefined;
  #room: Room | undefined;
  #periodic: ReturnType<typeof setInterval> | undefined;

  constructor(options: MediaJobOptions) {
    this.options = options;
    this.#spec = { ...options.spec };
    for (const input of options.inputs) this.#bindings.set(inputKey(input), { input, timers: [] });
  }

  get id(): string {
    return this.options.id;
  }

  get state(): JobState {
    return this.#state;
  }

  get restarts(): number {
    return this.#restarts;
  }

  /** True once the first run started (a job that failed to start never ran). */
  get ran(): boolean {
    return this.#ran;
  }

  get fps(): number {
    return this.#state === 'running' ? this.#process?.fps ?? 0 : 0;
  }

  /** Starts the first run; rejects (and ends the job) when the outputs do not start within `timeoutMs`. */
  async start(timeoutMs: number): Promise<void> {
    try {
      await this.#launch(timeoutMs);
      this.#state = 'running';
      this.#ran = true;
    } catch (error) {
      this.#lastError = error instanceof Error ? error.message : String(error);
      await this.#end('failed');
      throw error;
    }
    // A relay carries the publisher's own key frames: ask for one every GOP so CDN viewers can join.
    if (this.options.spec.kind === 'relay') {
      this.#periodic = setInterval(() => { for (const b of this.#bindings.values()) b.forward?.requestKeyframe(); }, this.options.spec.gop * 1000);
    }
  }

  async #launch(timeoutMs: number): Promise<void> {
    const outputs = this.options.outputs(this.#run);
    const process = new JobProcess({ ...this.#spec, outputs }, (message) => this.options.logger.warn({ job: this.id }, `media job: ${message}`));
    this.#process = process;
    void process.exited.then((code) => {
      try {
        this.options.onRunExit?.(outputs);
      } catch (error) {
        this.options.logger.warn({ job: this.id, err: error }, 'media job: could not tidy the outputs of an ended run');
      }
      this.#onExit(process, code);
    });
    // Forget the dead process's ports first, so a tick meanwhile cannot bind a source to them.
    for (const binding of this.#bindings.values()) {
      this.#unbind(binding);
      binding.ports = undefined;
    }
    await Promise.all([...this.#bindings.entries()].map(async ([key, binding]) => {
      binding.ports = await process.input(key, binding.input.layout && { ...binding.input.layout, visible: false });
    }));
    if (this.#room) this.reconcile(this.#room);
    await process.started(timeoutMs);
  }

  #onExit(process: JobProcess, code: number | null): void {
    if (process !== this.#process || this.#state === 'stopped' || this.#state === 'failed' || this.#state === 'starting') return;
    this.#lastError = process.lastError ?? `exited with code ${String(code)}`;
    if (DISK_FULL.test(this.#lastError)) {
      this.#lastError = `disk full: ${this.#lastError}`;
      this.options.logger.error({ job: this.id, error: this.#lastError }, 'media job: the disk is full; not restarted');
      void this.#end('failed');
      return;
    }
    const now = Date.now();
    this.#recentRestarts = this.#recentRestarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.#recentRestarts.length >= MAX_RESTARTS) {
      this.options.logger.error({ job: this.id, error: this.#lastError }, 'media job keeps dying; given up');
      void this.#end('failed');
      return;
    }
    this.#recentRestarts.push(now);
    this.#state = 'restarting';
    this.#restarts++;
    this.#run++;
    this.options.logger.warn({ job: this.id, error: this.#lastError, restarts: this.#restarts }, 'media job died; restarting');
    const delay = Math.min(500 * 2 ** (this.#recentRestarts.length - 1), 8000);
    setTimeout(() => {
      if (this.#state !== 'restarting') return;
      this.#launch(15_000).then(() => {
        if (this.#state === 'restarting') this.#state = 'running';
        this.options.onRestart?.(this);
      }, (error: unknown) => {
        this.#lastError = error instanceof Error ? error.message : String(error);
        // The dead process's exit handler schedules the next attempt.
      });
    }, delay).unref();
  }

  /** Replaces the inputs (a layout update): new ones are added to the running pipeline, gone ones hidden. */
  async setInputs(inputs: JobInput[]): Promise<void> {
    const wanted = new Map(inputs.map((input) => [inputKey(input), input]));
    for (const [key, binding] of this.#bindings) {
      if (!wanted.has(key)) {
        this.#unbind(binding);
        if (binding.input.layout) this.#process?.layout(key, { ...binding.input.layout, visible: false });
        this.#bindings.delete(key);
      }
    }
    const process = this.#process;
    await Promise.all([...wanted.entries()].map(async ([key, input]) => {
      const existing = this.#bindings.get(key);
      if (existing) {
        const before = existing.input;
        existing.input = input;
        // A source's forwarding is set up with the media it carries: a change of either re-binds it (reconcile,
        // below, with the new rectangle); a rectangle that is gone is hidden (an audio-only input shows nothing).
        if (before.audio !== input.audio || before.video !== input.video) this.#unbind(existing);
        if (before.layout && !input.layout) process?.layout(key, { ...before.layout, visible: false });
        // The rectangle moves on the running pipeline (hidden while its user is away).
        else if (input.layout) process?.layout(key, { ...input.layout, visible: existing.participantId !== undefined && existing.media?.startsWith('v') === true });
      } else {
        const binding: Binding = { input, timers: [] };
        this.#bindings.set(key, binding);
        if (process) binding.ports = await process.input(key, input.layout && { ...input.layout, visible: false });
      }
    }));
    if (this.#room) this.reconcile(this.#room);
  }

  /** A mix: another background colour (0xRRGGBB) and image (a file path; undefined: none), live, and after restarts. */
  setBackground(color: number, image: string | undefined): void {
    if (this.#spec.background === color && this.#spec.backgroundImage === image) return;
    this.#spec = { ...this.#spec, background: color, backgroundImage: image };
    this.#process?.background(color, image);
  }

  /**
   * Binds inputs to the room's current participants (a user who rejoined is a new participant), each with
   * what its privileges let flow now (a new privateMapKey re-binds it).
   */
  reconcile(room: Room): void {
    this.#room = room;
    const process = this.#process;
    if (!process) return;
    for (const [key, binding] of this.#bindings) {
      const participant = room.get(binding.input.userId);
      if (!binding.ports) continue;
      const media = participant && this.#media(binding.input, participant);
      if (participant?.id === binding.participantId && media === binding.media) continue;
      this.#unbind(binding);
      if (binding.input.layout) process.layout(key, { ...binding.input.layout, visible: media?.startsWith('v') === true });
      if (!participant || !media) continue;
      binding.participantId = participant.id;
      binding.media = media;
      if (media === '--') continue;
      binding.forward = this.options.forwardRtp(participant.id, {
        stream: binding.input.stream,
        ...(media[0] === 'v' ? { videoPort: binding.ports.videoPort } : {}),
        ...(media[1] === 'a' ? { audioPort: binding.ports.audioPort } : {}),
      });
      const forward = binding.forward;
      if (media[0] === 'v') binding.timers = KEYFRAME_RETRIES_MS.map((ms) => setTimeout(() => forward.requestKeyframe(), ms));
    }
  }

  /**
   * What of an input flows from `source` (auth/privileges.ts allowedWants): what the source may send and the
   * job's receiver may receive; the receiver's own stream needs only its send bits (it is its own media).
   */
  #media(input: JobInput, source: Participant): string {
    const own = input.userId === this.options.ownerUserId;
    const receiver = own ? PRIVILEGE.ALL : this.options.receiverPrivileges?.() ?? PRIVILEGE.ALL;
    const main = input.stream === 'main';
    const wants = allowedWants({ audio: input.audio, bigVideo: input.video && main, smallVideo: false, auxVideo: input.video && !main }, source.privileges, receiver);
    return `${wants.bigVideo || wants.auxVideo ? 'v' : '-'}${wants.audio ? 'a' : '-'}`;
  }

  #unbind(binding: Binding): void {
    binding.forward?.stop();
    binding.forward = undefined;
    binding.participantId = undefined;
    binding.media = undefined;
    for (const timer of binding.timers) clearTimeout(timer);
    binding.timers = [];
  }

  /** A mix: asks its encoder for a key frame now (a WHEP player of its rtp output is starting). */
  requestOutputKeyframe(): void {
    this.#process?.keyframe();
  }

  /** Kills the current process as a crash would (tests and the admin API's restart). */
  kill(): void {
    const pid = this.#process?.pid;
    if (pid !== undefined) process.kill(pid, 'SIGKILL');
  }

  /** Stops the job: streams end cleanly (files finalised). */
  stop(): Promise<void> {
    return this.#end('stopped');
  }

  async #end(state: 'stopped' | 'failed'): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'failed') return;
    this.#state = state;
    clearInterval(this.#periodic);
    for (const binding of this.#bindings.values()) this.#unbind(binding);
    await this.#process?.stop();
    this.options.onEnd?.(this);
  }

  /** The job as the admin API shows it. */
  info(): JobInfo {
    return {
      jobId: this.id,
      kind: this.options.kind,
      roomKey: this.options.roomRef,
      ownerUserId: this.options.ownerUserId ?? null,
      state: this.#state,
      restarts: this.#restarts,
      fps: this.fps,
      frames: this.#process?.frames ?? 0,
      pid: this.#process?.pid ?? null,
      outputs: this.options.outputs(this.#run).map(outputName),
      inputs: [...this.#bindings.entries()].map(([key, b]) => ({
        userId: b.input.userId, stream: b.input.stream, bound: b.forward !== undefined,
        lastRtpSeq: this.#process?.inputCounts[key]?.rtp ?? 0,
      })),
      startedAt: new Date(this.startedAt).toISOString(),
      lastError: this.#lastError ?? null,
    };
  }
}
