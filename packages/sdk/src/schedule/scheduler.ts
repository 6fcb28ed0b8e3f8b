import { ScheduleCache } from './schedule-cache.js';
import { scheduleParallel, type Schedule, type ScheduleParams } from './schedule.js';

/** The http(s) origin serving scheduling beside a signalling URL (ws → http, wss → https). */
export function httpOrigin(signalUrl: string | undefined): string | undefined {
  if (!signalUrl) return undefined;
  try {
    const url = new URL(signalUrl);
    url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
    return url.origin;
  } catch {
    return undefined; // not a URL: no scheduler, the signalling URL is used as it is
  }
}

/**
 * Scheduling for a room session (docs/behaviour.md §7): a cached result when allowed (the cache rules of
 * ScheduleCache), else the main host — the proxy's, else the SDK's own server — and the backup host in
 * parallel. The backup host is the one serving the backup signalling domain of the last schedule (a
 * Conclave node serves scheduling beside signalling); before any schedule there is only the main host.
 */
export class Scheduler {
  private readonly _cache: ScheduleCache;
  private _last: Schedule | undefined;

  constructor(cache: ScheduleCache = new ScheduleCache()) {
    this._cache = cache;
  }

  /** The hosts asked, main first. */
  hosts(main: string, cached?: Schedule): string[] {
    const backup = httpOrigin((this._last ?? cached)?.domains.backup);
    return backup && backup !== new URL(main).origin ? [main, backup] : [main];
  }

  /** A schedule for `params` from `main` (and the backup host); `useCache` allows a cached one. */
  async get(main: string, params: ScheduleParams, useCache: boolean): Promise<Schedule> {
    const key = ScheduleCache.key(main, params.sdkAppId, params.userId);
    const cached = this._cache.get(key);
    if (useCache && cached) return cached;
    const schedule = await scheduleParallel(this.hosts(main, cached), params);
    this._cache.set(key, schedule);
    this._last = schedule;
    return schedule;
  }
}
