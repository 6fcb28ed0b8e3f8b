import { describe, expect, it } from 'vitest';
import type { Schedule } from './schedule.js';
import { SCHEDULE_CACHE_MS, ScheduleCache, type KeyValueStorage } from './schedule-cache.js';

class MemoryStorage implements KeyValueStorage {
  readonly map = new Map<string, string>();
  getItem(key: string) { return this.map.get(key) ?? null; }
  setItem(key: string, value: string) { this.map.set(key, value); }
  removeItem(key: string) { this.map.delete(key); }
}

const schedule = (scheduleCache?: boolean): Schedule => ({
  domains: { main: 'ws://a/signal', backup: 'ws://b/signal' }, iceServers: [], iceTransportPolicy: 'all',
  trtcAutoConf: { enable2k4k: false }, config: { scheduleCache },
});

describe('ScheduleCache (docs/behaviour.md §9: 7 days unless the server says not to)', () => {
  it('keeps a result for 7 days', () => {
    let now = 1_000;
    const cache = new ScheduleCache(new MemoryStorage(), () => now);
    const key = ScheduleCache.key('http://s', 1, 'u');
    cache.set(key, schedule(true));
    now += SCHEDULE_CACHE_MS - 1;
    expect(cache.get(key)?.domains.main).toBe('ws://a/signal');
    now += 2;
    expect(cache.get(key)).toBeUndefined();
  });

  it('does not cache when the server says scheduleCache false, and drops an older entry', () => {
    const storage = new MemoryStorage();
    const cache = new ScheduleCache(storage);
    const key = ScheduleCache.key('http://s', 1, 'u');
    cache.set(key, schedule(true));
    cache.set(key, schedule(false));
    expect(cache.get(key)).toBeUndefined();
    expect(storage.map.size).toBe(0);
  });

  it('ignores corrupt entries and works without storage', () => {
    const storage = new MemoryStorage();
    storage.setItem('k', '{bad json');
    expect(new ScheduleCache(storage).get('k')).toBeUndefined();
    const none = new ScheduleCache(undefined);
    none.set('k', schedule(true));
    expect(none.get('k')).toBeUndefined();
  });
});
