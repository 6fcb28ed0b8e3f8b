import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig, MediaConfig } from '../config/config.js';
import type { JobManager } from '../jobs/job-manager.js';
import type { JobOutput } from '../jobs/job-process.js';
import type { JobInput, MediaJob } from '../jobs/media-job.js';
import type { Room } from '../room/room.js';
import { RecordingFiles, type RecordingFile, type RecordingKind } from './recording-files.js';
import { mixInputs, publishersOf, sentMedia, takes, type RecordingOptions } from './recording-layout.js';

/** A recording began (its job runs) or ended (its files are final), for whoever reports it (event callbacks). */
export interface RecordingEvent {
  type: 'started' | 'ended';
  sdkAppId: number;
  roomKey: string;
  roomRef: string;
  /** The task (userDefineRecordId, the cloud API's TaskId) or the room's ref. */
  recordId: string;
  kind: RecordingKind;
  /** The user of a per-stream recording. */
  userId?: string;
  /** The recording's files (every part after restarts), when it ended. */
  files: RecordingFile[];
  /** ms since the epoch. */
  at: number;
}

/** How a room is recorded: the mode, the task's record id, what it takes and its layout. */
type Wanted = { mode: RecordingMode; recordId?: string; options: RecordingOptions };

/** What names a recording's files. */
type RecordingMeta = { recordId: string; roomRef: string; kind: RecordingKind; userId?: string; startedAt: number };

/** A recording mode: per app in the configuration, or per room from the admin API. */
export type RecordingMode = 'mixed' | 'per-stream';

/** The mixed recording's picture: 640×360 at 15 fps, a grid of every user with video. */
const MIX = { width: 640, height: 360, fps: 15, videoBitrate: 900, gop: 2, audioBitrate: 64, audioSampleRate: 48000, audioChannels: 1 as const, background: 0 };
/** A per-stream recording keeps the stream's own video; only audio is encoded (opus → AAC). */
const RELAY = { ...MIX, kind: 'relay' as const };
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** A recording whose job failed (the disk filled, it kept dying) is not started again for this long. */
const RETRY_AFTER_FAILURE_MS = 60_000;

/** A mix of the room's publishers as a grid, everyone's audio (the mixed recording's default, and the cloud API's mixes). */
export function gridInputs(room: Room, width: number, height: number): JobInput[] {
  return mixInputs(room, width, height);
}

export { gridLayout } from './recording-layout.js';

/**
 * Records rooms to MP4 in the recordings folder: the room's mix (one file per room session, a grid of every
 * user with video and everyone's audio, updated live as users come and go) or one file per published stream.
 * Started by the app's `recording` setting or by the admin API; a mixed recording ends when the room
 * empties, a per-stream one when its user unpublishes or leaves. Old files are deleted after the retention.
 */
export class RecordingManager {
  readonly files: RecordingFiles;
  readonly #jobs: JobManager;
  readonly #apps: Map<number, AppConfig>;
  readonly #logger: Logger;
  readonly #media: MediaConfig;
  /** Rooms the admin API or the cloud API started recording, with the mode, record id and options. */
  readonly #forced = new Map<string, Wanted>();
  /** Recordings a restart interrupted, waiting (until a deadline) for their rooms' users to come back. */
  readonly #waiting = new Map<string, Wanted & { until: number }>();
  /** Jobs being started (so a tick does not start the same one twice). */
  readonly #starting = new Set<string>();
  /** The inputs each mixed recording last got (a change re-lays the picture). */
  readonly #lastInputs = new Map<string, JobInput[]>();
  readonly #purgeTimer: ReturnType<typeof setInterval>;
  /** What each running recording job records (its events name it). */
  readonly #recording = new Map<string, RecordingMeta & { sdkAppId: number; roomKey: string }>();
  readonly #listeners = new Set<(event: RecordingEvent) => void>();

  constructor(parts: { jobs: JobManager; apps: AppConfig[]; media: MediaConfig; logger: Logger }) {
    this.#jobs = parts.jobs;
    this.#apps = new Map(parts.apps.map((app) => [app.sdkAppId, app]));
    this.#logger = parts.logger;
    this.#media = parts.media;
    this.files = new RecordingFiles(parts.media.recordingPath);
    // Recordings left by a server that was killed end in a partial fragment: cut it so they play to the end.
    const repaired = this.files.repair();
    if (repaired > 0) this.#logger.warn({ repaired }, 'recordings cut short by a crash were repaired');
    parts.jobs.watch((rooms) => this.#tick(rooms));
    parts.jobs.onJobEnd((job) => {
      const meta = this.#recording.get(job.id);
      if (!meta) return;
      this.#recording.delete(job.id);
      // The job's files: every part of it (a restart writes the next one), named from the same base.
      const base = basename(this.files.path(meta.sdkAppId, meta, 0), '.mp4');
      const files = this.files.list(meta.sdkAppId).filter((file) => file.recordingId.startsWith(base)).reverse();
      this.#emit({ type: 'ended', ...this.#described(meta), files, at: Date.now() });
    });
    const purge = () => {
      const removed = this.files.purge(Date.now() - this.#media.recordingRetentionDays * 24 * 3600 * 1000);
      if (removed > 0) this.#logger.info({ removed }, 'old recordings deleted');
    };
    purge();
    this.#purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
    this.#purgeTimer.unref();
  }

  /** Adds a listener told when a recording starts and when it ends with its files. */
  onEvent(listener: (event: RecordingEvent) => void): void {
    this.#listeners.add(listener);
  }

  #emit(event: RecordingEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.error({ err: error, room: event.roomKey }, 'a recording listener failed');
      }
    }
  }

  #described(meta: RecordingMeta & { sdkAppId: number; roomKey: string }): Omit<RecordingEvent, 'type' | 'files' | 'at'> {
    return { sdkAppId: meta.sdkAppId, roomKey: meta.roomKey, roomRef: meta.roomRef, recordId: meta.recordId, kind: meta.kind, ...(meta.userId ? { userId: meta.userId } : {}) };
  }

  /** Starts recording a room now (admin API, cloud API); it goes on until the room empties. */
  startRoom(room: Room, mode: RecordingMode, recordId?: string, options: RecordingOptions = {}): void {
    this.#forced.set(room.key, { mode, recordId, options });
    this.#tick([room]);
  }

  /**
   * Changes what a recording startRoom started takes (`filter`) and how its mix is laid out (`layout`), live:
   * the fields given replace the recording's. The running mix is re-laid on the next tick; a per-stream
   * recording starts and stops its users' files to match. False when the room is not recorded (or waiting) under `recordId`.
   */
  modifyRoom(roomKey: string, recordId: string, changes: RecordingOptions): boolean {
    const wanted = this.#forced.get(roomKey) ?? this.#waiting.get(roomKey);
    if (wanted?.recordId !== recordId) return false;
    wanted.options = { ...wanted.options, ...changes };
    return true;
  }

  /**
   * A recording startRoom started before the server restarted starts again (as startRoom, a new file) when
   * its room has users again before `until` (ms); else it is given up.
   */
  resumeRoom(roomKey: string, mode: RecordingMode, recordId: string, options: RecordingOptions, until: number): void {
    this.#waiting.set(roomKey, { mode, recordId, options, until });
  }

  /** What startRoom (or resumeRoom, `waiting`) records in a room now, if anything. */
  started(roomKey: string): { recordId?: string; waiting: boolean } | undefined {
    const forced = this.#forced.get(roomKey);
    if (forced) return { recordId: forced.recordId, waiting: false };
    const waiting = this.#waiting.get(roomKey);
    return waiting && { recordId: waiting.recordId, waiting: true };
  }

  /**
   * Stops what startRoom started for a room: its recording jobs end (files finalised) and are not started
   * again, unless the app's own `recording` setting records the room anyway.
   */
  async stopRoom(roomKey: string): Promise<void> {
    this.#forced.delete(roomKey);
    this.#waiting.delete(roomKey);
    await Promise.all(this.jobsOf(roomKey).map((job) => this.#jobs.stop(job.id)));
  }

  /** Jobs of a room that record. */
  jobsOf(roomKey: string): MediaJob[] {
    return this.#jobs.find((job) => job.options.roomKey === roomKey && job.options.kind.startsWith('record-'));
  }

  #wanted(room: Room): Wanted | undefined {
    const forced = this.#forced.get(room.key);
    if (forced) return forced;
    const setting = this.#apps.get(room.sdkAppId)?.recording;
    return setting && setting !== 'off' ? { mode: setting, options: {} } : undefined;
  }

  #tick(rooms: Room[]): void {
    const live = new Set(rooms.map((room) => room.key));
    for (const id of this.#lastInputs.keys()) if (!this.#jobs.get(id)) this.#lastInputs.delete(id);
    for (const key of this.#forced.keys()) if (!live.has(key)) this.#forced.delete(key);
    const now = Date.now();
    for (const [key, { until, ...wanted }] of this.#waiting) {
      if (until < now) this.#waiting.delete(key);
      else if (rooms.some((room) => room.key === key && room.size > 0)) {
        this.#waiting.delete(key);
        this.#forced.set(key, wanted);
        this.#logger.info({ room: key, recordId: wanted.recordId }, 'recording resumed after a restart');
      }
    }
    for (const room of rooms) {
      const wanted = this.#wanted(room);
      if (!wanted || room.size === 0) continue;
      if (wanted.mode === 'mixed') this.#mixed(room, wanted);
      else this.#perStream(room, wanted);
    }
  }

  #mixed(room: Room, wanted: Wanted): void {
    const key = `mix:${room.key}`;
    const inputs = mixInputs(room, MIX.width, MIX.height, wanted.options);
    const background = wanted.options.layout?.background ?? 0;
    const job = this.jobsOf(room.key).find((j) => j.options.kind === 'record-mix');
    if (job) {
      job.setBackground(background, undefined);
      const last = this.#lastInputs.get(job.id) ?? [];
      if (JSON.stringify(last) === JSON.stringify(inputs)) return;
      this.#lastInputs.set(job.id, inputs);
      // An input whose audio or video changed is re-bound by the job itself (MediaJob.setInputs).
      void job.setInputs(inputs);
      return;
    }
    if (inputs.length === 0 || this.#starting.has(key) || this.#failedLately((j) => j.options.kind === 'record-mix' && j.options.roomKey === room.key)) return;
    const meta = { recordId: wanted.recordId ?? room.ref, roomRef: room.ref, kind: 'mixed' as const, startedAt: Date.now() };
    this.#start(key, meta, {
      kind: 'record-mix', sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref,
      spec: { kind: 'mix', ...MIX, background }, inputs, outputs: (run) => [{ type: 'file', path: this.files.path(room.sdkAppId, meta, run) }],
    });
  }

  #perStream(room: Room, wanted: Wanted): void {
    const { filter } = wanted.options;
    const jobs = this.jobsOf(room.key).filter((j) => j.options.kind === 'record-stream');
    for (const p of publishersOf(room)) {
      const key = `stream:${p.id}`;
      // What the user may send (its SEND bits) and the filter takes; a change of either starts a new file.
      const sent = sentMedia(p);
      const input: JobInput = { userId: p.userId, stream: 'main', video: sent.video && takes(filter, p.userId, 'video'), audio: sent.audio && takes(filter, p.userId, 'audio') };
      const running = jobs.find((j) => j.options.ownerId === p.id);
      // The filter changed what this user's file takes: that file ends, a new one starts with the new choice.
      if (running && (running.options.inputs[0]?.video !== input.video || running.options.inputs[0]?.audio !== input.audio)) void this.#jobs.stop(running.id);
      else if (running) continue;
      if ((!input.video && !input.audio) || this.#starting.has(key) || this.#failedLately((j) => j.options.ownerId === p.id)) continue;
      const meta = { recordId: wanted.recordId ?? room.ref, roomRef: room.ref, kind: 'stream' as const, userId: p.userId, startedAt: Date.now() };
      this.#start(key, meta, {
        kind: 'record-stream', sdkAppId: room.sdkAppId, roomKey: room.key, roomRef: room.ref, ownerId: p.id, ownerUserId: p.userId,
        spec: RELAY, inputs: [input],
        outputs: (run) => [{ type: 'file', path: this.files.path(room.sdkAppId, meta, run) }],
      });
    }
    // A user who stopped publishing (or may send nothing any more): the recording of that stream ends (a new publish starts a new file).
    for (const job of jobs) {
      const owner = room.get(job.options.ownerUserId ?? '');
      const sent = owner && sentMedia(owner);
      if (owner && sent && owner.id === job.options.ownerId && !sent.audio && !sent.video) void this.#jobs.stop(job.id);
    }
  }

  /** A recording job like this one failed lately: it is not started again yet (its error stays listed). */
  #failedLately(match: (job: MediaJob) => boolean): boolean {
    return this.#jobs.failed((job) => job.options.kind.startsWith('record-') && match(job), RETRY_AFTER_FAILURE_MS).length > 0;
  }

  #start(key: string, meta: RecordingMeta, options: Parameters<JobManager['start']>[0]): void {
    this.#starting.add(key);
    const files = this.files;
    // Each run that ends (a crash included) leaves a file that plays to its end.
    const onRunExit = (outputs: JobOutput[]) => files.repair(outputs.flatMap((o) => o.type === 'file' ? [o.path] : []));
    this.#jobs.start({ ...options, onRunExit }).then(
      (job) => {
        this.#logger.info({ job: job.id, room: options.roomKey, kind: options.kind }, 'recording started');
        const described = { ...meta, sdkAppId: options.sdkAppId, roomKey: options.roomKey };
        this.#recording.set(job.id, described);
        this.#emit({ type: 'started', ...this.#described(described), files: [], at: Date.now() });
      },
      (error: unknown) => this.#logger.warn({ err: error, room: options.roomKey }, 'recording failed to start'),
    ).finally(() => this.#starting.delete(key));
  }

  close(): void {
    clearInterval(this.#purgeTimer);
  }
}
