import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { MediaEngine } from '../engine/media-engine.js';
import type { Room, RoomRegistry } from '../room/room.js';
import { MediaJob, type JobInfo, type JobKind, type MediaJobOptions } from './media-job.js';

/** How often jobs are matched against their rooms (users joining, leaving, rejoining). */
const TICK_MS = 500;
/** How long a start may take until the outputs write (RTMP connected, first frame encoded). */
export const START_TIMEOUT_MS = 12_000;
/** How long a job that failed after running (kept dying, or the disk filled) stays listed with its error. */
export const FAILED_KEPT_MS = 10 * 60_000;

/** Which cap refused a job. */
export type JobLimit = 'user' | 'app' | 'node';

/** How many media jobs may run at once (config limits.jobsPerUser, jobsPerApp, jobsPerNode). */
export interface JobLimits {
  perUser: number;
  perApp: number;
  perNode: number;
}

/** Jobs anyone in a room can start (CDN relays and mixes): the caps refuse these only. */
const CAPPED: ReadonlySet<JobKind> = new Set(['cdn-mix', 'cdn-main', 'cdn-sub']);

/** A job refused by a cap: the user, its app or this node runs as many as it may. */
export class JobLimitError extends Error {
  override name = 'JobLimitError';
  constructor(readonly limit: JobLimit, message: string) {
    super(message);
  }
}

/** The jobs as metrics see them. */
export interface JobsSnapshot {
  jobs: Record<string, number>;
  restarts: number;
  /** Jobs refused by each cap since the server started. */
  refused: Record<JobLimit, number>;
  fps: { jobId: string; kind: string; fps: number }[];
}

/** Something that wants to see every room on each tick (the recording manager). */
export type RoomWatcher = (rooms: Room[]) => void;

/**
 * Every media job of the server. Each tick binds jobs to their rooms' participants and ends the jobs whose
 * room emptied or whose starting user left, as the original does.
 */
export class JobManager {
  readonly #jobs = new Map<string, MediaJob>();
  /** Jobs that failed after running, with when: listed (state 'failed', lastError) for FAILED_KEPT_MS. */
  readonly #failed = new Map<string, { job: MediaJob; at: number }>();
  readonly #endListeners = new Set<(job: MediaJob) => void>();
  readonly #engine: MediaEngine;
  readonly #rooms: RoomRegistry;
  readonly #logger: Logger;
  readonly #timer: ReturnType<typeof setInterval>;
  readonly #watchers: RoomWatcher[] = [];
  readonly #limits: JobLimits | undefined;
  readonly #refused: Record<JobLimit, number> = { user: 0, app: 0, node: 0 };
  #restarts = 0;

  /** `limits`: none, no cap (tests of one job). */
  constructor(parts: { engine: MediaEngine; rooms: RoomRegistry; logger: Logger; limits?: JobLimits }) {
    this.#engine = parts.engine;
    this.#rooms = parts.rooms;
    this.#logger = parts.logger;
    this.#limits = parts.limits;
    this.#timer = setInterval(() => this.tick(), TICK_MS);
    this.#timer.unref();
  }

  /** What metrics read of the jobs when scraped: running jobs by kind, restarts so far, each job's frame rate. */
  snapshot(): JobsSnapshot {
    return {
      jobs: this.list().reduce<Record<string, number>>((acc, job) => {
        if (job.state !== 'stopped' && job.state !== 'failed') acc[job.kind] = (acc[job.kind] ?? 0) + 1;
        return acc;
      }, {}),
      restarts: this.#restarts,
      refused: { ...this.#refused },
      fps: [...this.#jobs.values()].map((job) => ({ jobId: job.id, kind: job.options.kind, fps: job.fps })),
    };
  }

  /** Adds a listener told of every job that ended (stopped, or failed for good). */
  onJobEnd(listener: (job: MediaJob) => void): void {
    this.#endListeners.add(listener);
  }

  /** Adds a watcher called with every room on each tick. */
  watch(watcher: RoomWatcher): void {
    this.#watchers.push(watcher);
  }

  /**
   * The cap a new job would break (docs/behaviour.md §5.5): CDN jobs of the same user of the app, CDN jobs of
   * the app, every job of the node (recordings count towards it; only CDN jobs are refused).
   */
  #capBroken(options: Pick<MediaJobOptions, 'kind' | 'sdkAppId' | 'ownerUserId'>): JobLimit | undefined {
    const limits = this.#limits;
    if (!limits || !CAPPED.has(options.kind)) return undefined;
    const live = [...this.#jobs.values()];
    const capped = live.filter((job) => CAPPED.has(job.options.kind) && job.options.sdkAppId === options.sdkAppId);
    if (options.ownerUserId !== undefined && capped.filter((job) => job.options.ownerUserId === options.ownerUserId).length >= limits.perUser) return 'user';
    if (capped.length >= limits.perApp) return 'app';
    if (live.length >= limits.perNode) return 'node';
    return undefined;
  }

  /**
   * Starts a job; resolves once its outputs write, rejects (job ended) when they do not. A CDN job past a cap
   * is refused with JobLimitError (counted), before anything starts.
   */
  async start(options: Omit<MediaJobOptions, 'id' | 'forwardRtp' | 'logger' | 'onRestart' | 'onEnd'>): Promise<MediaJob> {
    const engine = this.#engine;
    if (!engine.forwardRtp) throw new Error('this media engine cannot feed media jobs: it has no RTP forwarding');
    const broken = this.#capBroken(options);
    if (broken) {
      this.#refused[broken]++;
      const whose = broken === 'user' ? 'this user runs' : broken === 'app' ? 'this app runs' : 'this server runs';
      const most = broken === 'user' ? this.#limits!.perUser : broken === 'app' ? this.#limits!.perApp : this.#limits!.perNode;
      this.#logger.warn({ kind: options.kind, app: options.sdkAppId, user: options.ownerUserId, limit: broken }, 'media job refused: a cap is reached');
      throw new JobLimitError(broken, `too many media jobs: ${whose} ${most}, the most it may`);
    }
    const job = new MediaJob({
      ...options,
      id: randomUUID(),
      forwardRtp: engine.forwardRtp.bind(engine),
      logger: this.#logger,
      onRestart: () => { this.#restarts++; },
      onEnd: (ended) => {
        if (this.#jobs.get(ended.id) === ended) this.#jobs.delete(ended.id);
        if (ended.state === 'failed' && ended.ran) this.#failed.set(ended.id, { job: ended, at: Date.now() });
        for (const listener of this.#endListeners) {
          try {
            listener(ended);
          } catch (error) {
            this.#logger.error({ err: error, job: ended.id }, 'a job-end listener failed');
          }
        }
      },
    });
    this.#jobs.set(job.id, job);
    const room = this.#rooms.find(options.roomKey);
    if (room) job.reconcile(room);
    try {
      await job.start(START_TIMEOUT_MS);
    } catch (error) {
      this.#jobs.delete(job.id);
      throw error;
    }
    this.#logger.info({ job: job.id, kind: options.kind, room: options.roomKey }, 'media job started');
    return job;
  }

  get(jobId: string): MediaJob | undefined {
    return this.#jobs.get(jobId);
  }

  /** The live jobs matching a filter. */
  find(match: (job: MediaJob) => boolean): MediaJob[] {
    return [...this.#jobs.values()].filter(match);
  }

  /** Jobs that failed after running in the last `withinMs` (at most FAILED_KEPT_MS), matching a filter. */
  failed(match: (job: MediaJob) => boolean, withinMs = FAILED_KEPT_MS): MediaJob[] {
    const now = Date.now();
    for (const [id, entry] of this.#failed) if (entry.at < now - FAILED_KEPT_MS) this.#failed.delete(id);
    return [...this.#failed.values()].filter((entry) => entry.at >= now - withinMs).map((entry) => entry.job).filter(match);
  }

  /** Jobs of one app (or all), as the admin API shows them: the live ones, then those that failed lately. */
  list(sdkAppId?: number): JobInfo[] {
    return [...this.#jobs.values(), ...this.failed(() => true)].filter((job) => sdkAppId === undefined || job.options.sdkAppId === sdkAppId).map((job) => job.info());
  }

  /** Binds jobs to their rooms and ends orphaned ones; then the watchers. */
  tick(): void {
    for (const job of this.#jobs.values()) {
      const room = this.#rooms.find(job.options.roomKey);
      const ownerGone = job.options.ownerId !== undefined && room?.get(job.options.ownerUserId ?? '')?.id !== job.options.ownerId;
      if (!room || room.size === 0 || ownerGone) {
        this.#logger.info({ job: job.id, room: job.options.roomKey }, ownerGone ? 'media job ends: its user left' : 'media job ends: the room is empty');
        this.#jobs.delete(job.id);
        void job.stop();
        continue;
      }
      job.reconcile(room);
    }
    const rooms = [...this.#rooms.rooms()];
    for (const watcher of this.#watchers) {
      try {
        watcher(rooms);
      } catch (error) {
        this.#logger.error({ err: error }, 'room watcher failed');
      }
    }
  }

  /** Stops one job. */
  async stop(jobId: string): Promise<boolean> {
    const job = this.#jobs.get(jobId);
    if (!job) return false;
    this.#jobs.delete(jobId);
    await job.stop();
    return true;
  }

  /** Stops every job (server shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    const jobs = [...this.#jobs.values()];
    this.#jobs.clear();
    await Promise.all(jobs.map((job) => job.stop()));
  }
}
