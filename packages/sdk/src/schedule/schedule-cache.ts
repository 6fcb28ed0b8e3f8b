import type { Schedule } from './schedule.js';

/** How long a scheduling result stays usable (docs/behaviour.md §9: 7 days). */
export const SCHEDULE_CACHE_MS = 7 * 24 * 3600 * 1000;

/** A stored cache item (docs/behaviour.md §3): when it expires, and the value. */
interface CacheItem {
  expiresIn: number;
  value: Schedule;
}

/** Minimal storage the cache needs (localStorage in browsers). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

function defaultStorage(): KeyValueStorage | undefined {
  try {
    return typeof localStorage !== 'undefined' ? localStorage : undefined;
  } catch {
    return undefined; // storage can be blocked (privacy settings, sandboxed frames)
  }
}

/** Caches scheduling results per server, app and user; the server can forbid caching (config.scheduleCache false). */
export class ScheduleCache {
  private readonly _storage: KeyValueStorage | undefined;
  private readonly _now: () => number;

  constructor(storage: KeyValueStorage | undefined = defaultStorage(), now: () => number = () => Date.now()) {
    this._storage = storage;
    this._now = now;
  }

  static key(base: string, sdkAppId: number, userId: string): string {
    return `conclave_schedule_${base}_${sdkAppId}_${userId}`;
  }

  get(key: string): Schedule | undefined {
    try {
      const raw = this._storage?.getItem(key);
      if (!raw) return undefined;
      const item = JSON.parse(raw) as CacheItem;
      if (typeof item.expiresIn !== 'number' || item.expiresIn <= this._now()) {
        this._storage?.removeItem(key);
        return undefined;
      }
      return item.value;
    } catch {
      return undefined; // storage blocked or an entry not ours: not cached, the scheduler is asked
    }
  }

  set(key: string, value: Schedule): void {
    try {
      if (value.config.scheduleCache === false) {
        this._storage?.removeItem(key);
        return;
      }
      const item: CacheItem = { expiresIn: this._now() + SCHEDULE_CACHE_MS, value };
      this._storage?.setItem(key, JSON.stringify(item));
    } catch {
      // a full or blocked storage only costs a fresh schedule next time
    }
  }

  delete(key: string): void {
    try {
      this._storage?.removeItem(key);
    } catch {
      // ignore
    }
  }
}
