import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SCHEDULE_RETRIES, scheduleParallel, scheduleTimeoutMs, ScheduleRefused, type Schedule } from './schedule.js';
import { Scheduler } from './scheduler.js';
import { ScheduleCache, type KeyValueStorage } from './schedule-cache.js';

/**
 * Scheduling on two hosts (docs/behaviour.md §7) against a scripted fetch (the only part faked: no server in a unit
 * test), under fake timers so the time-outs take no real time.
 */
const params = { sdkAppId: 1, userId: 'u', userSig: 's', roomId: '1', isStringRoomId: false, sdkVersion: '5.10.1' };
const result = (main: string): Schedule => ({
  domains: { main, backup: 'wss://backup.example/signal' }, iceServers: [], iceTransportPolicy: 'all',
  trtcAutoConf: { enable2k4k: false }, config: {},
});

type Reply = 'ok' | 'hang' | 'refuse' | 'http500';
interface Call { host: string; signal: AbortSignal; at: number }

function scriptFetch(script: (host: string, attempt: number) => { reply: Reply; afterMs?: number }) {
  const calls: Call[] = [];
  const attempts = new Map<string, number>();
  vi.stubGlobal('fetch', (url: string, init: { signal: AbortSignal }) => {
    const host = new URL(url).origin;
    const attempt = attempts.get(host) ?? 0;
    attempts.set(host, attempt + 1);
    calls.push({ host, signal: init.signal, at: Date.now() });
    const { reply, afterMs = 10 } = script(host, attempt);
    return new Promise((resolve, reject) => {
      init.signal.addEventListener('abort', () => reject(init.signal.reason ?? new Error('aborted')));
      if (reply === 'hang') return;
      setTimeout(() => {
        if (reply === 'http500') resolve(new Response('', { status: 500 }));
        else resolve(new Response(JSON.stringify(reply === 'ok' ? { code: 0, msg: 'ok', data: result(host) } : { code: 70001, msg: 'bad userSig' })));
      }, afterMs);
    });
  });
  return calls;
}

class MemoryStorage implements KeyValueStorage {
  readonly map = new Map<string, string>();
  getItem(key: string) { return this.map.get(key) ?? null; }
  setItem(key: string, value: string) { this.map.set(key, value); }
  removeItem(key: string) { this.map.delete(key); }
}

const MAIN = 'https://main.example';
const BACKUP = 'https://backup.example';

describe('scheduling on the main and the backup host (docs/behaviour.md §7)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks both hosts at once; the first answer wins and the slower request is aborted', async () => {
    const calls = scriptFetch((host) => ({ reply: 'ok', afterMs: host === BACKUP ? 50 : 500 }));
    const scheduling = scheduleParallel([MAIN, BACKUP], params);
    await vi.advanceTimersByTimeAsync(60);
    await expect(scheduling).resolves.toMatchObject({ domains: { main: BACKUP } });
    expect(calls.map((c) => [c.host, c.at])).toEqual([[MAIN, calls[0]!.at], [BACKUP, calls[0]!.at]]);
    expect(calls.find((c) => c.host === MAIN)!.signal.aborted).toBe(true);
    expect(calls.find((c) => c.host === BACKUP)!.signal.aborted).toBe(false);
  });

  it('3 retries per host with Fibonacci(2 + count) s time-outs (2, 3, 5, 8 s), then the last failure', async () => {
    expect([0, 1, 2, 3].map(scheduleTimeoutMs)).toEqual([2000, 3000, 5000, 8000]);
    expect(SCHEDULE_RETRIES).toBe(3);
    const calls = scriptFetch(() => ({ reply: 'hang' }));
    const start = Date.now();
    const scheduling = scheduleParallel([MAIN, BACKUP], params);
    scheduling.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2000 + 3000 + 5000 + 8000 + 10);
    await expect(scheduling).rejects.toThrow(/time-out \(8000 ms\)/);
    for (const host of [MAIN, BACKUP]) {
      expect(calls.filter((c) => c.host === host).map((c) => c.at - start)).toEqual([0, 2000, 5000, 10000]);
    }
    expect(calls.every((c) => c.signal.aborted)).toBe(true);
  });

  it('a host that fails is retried while the other still tries; one success is enough', async () => {
    const calls = scriptFetch((host, attempt) => ({ reply: host === MAIN ? 'http500' : attempt < 2 ? 'hang' : 'ok' }));
    const scheduling = scheduleParallel([MAIN, BACKUP], params);
    await vi.advanceTimersByTimeAsync(2000 + 3000 + 20);
    await expect(scheduling).resolves.toMatchObject({ domains: { main: BACKUP } });
    expect(calls.filter((c) => c.host === MAIN)).toHaveLength(4);
    expect(calls.filter((c) => c.host === BACKUP)).toHaveLength(3);
  });

  it('a refusal (non-zero code) is final: no retry, the other host is aborted', async () => {
    const calls = scriptFetch((host) => ({ reply: host === MAIN ? 'refuse' : 'hang' }));
    const scheduling = scheduleParallel([MAIN, BACKUP], params);
    scheduling.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(20);
    await expect(scheduling).rejects.toBeInstanceOf(ScheduleRefused);
    expect(calls).toHaveLength(2);
    expect(calls.find((c) => c.host === BACKUP)!.signal.aborted).toBe(true);
  });

  it('the backup host is the one serving the last schedule\'s backup domain; the cache rules are unchanged', async () => {
    const calls = scriptFetch(() => ({ reply: 'ok' }));
    const storage = new MemoryStorage();
    const scheduler = new Scheduler(new ScheduleCache(storage));
    const first = scheduler.get(MAIN, params, true);
    await vi.advanceTimersByTimeAsync(20);
    await first;
    expect(calls.map((c) => c.host)).toEqual([MAIN]);
    // Cached (the server allowed it): no request with useCache, both hosts without.
    await scheduler.get(MAIN, params, true);
    expect(calls).toHaveLength(1);
    const second = scheduler.get(MAIN, params, false);
    await vi.advanceTimersByTimeAsync(20);
    await second;
    expect(calls.slice(1).map((c) => c.host).sort()).toEqual([BACKUP, MAIN]);
  });
});
