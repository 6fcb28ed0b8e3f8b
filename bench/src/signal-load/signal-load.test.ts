/**
 * Smoke of the headless signalling client (the capacity bench's, bench/src/signal-load) so it can't rot:
 * 200 users in 20 live rooms against a real server child join, heartbeat, change flags, switch roles,
 * leave and join again, and leave — with nothing failing and the pushes arriving.
 */
import { describe, expect, it } from 'vitest';
import { loadOptions } from './plan.js';
import { runSignalLoad } from './run-signal-load.js';
import { retryAfterMs } from './retry.js';

describe('signal-load: the headless protocol client', () => {
  it('200 users in 20 rooms join, heartbeat, change flags, switch roles, rejoin and leave without a failure', async () => {
    const result = await runSignalLoad(loadOptions(200, { rooms: 20, joinRate: 400, idleSeconds: 1, activeSeconds: 2, pin: false }));
    expect(result.connected).toBe(200);
    expect(result.join).toMatchObject({ count: 200, failures: 0 });
    expect(result.requestFailures).toBe(0);
    expect(result.rejoin.failures).toBe(0);
    expect(result.active.flagChanges).toBeGreaterThan(0);
    expect(result.active.roleSwitches).toBeGreaterThan(0);
    // Every flag change is pushed to the 9 others of its room (10 users a room): pushes did arrive.
    expect(result.active.pushesPerSecond).toBeGreaterThan(0);
    expect(result.idle.deliveredPerSecond).toBeGreaterThan(0);
  }, 60_000);

  it('a "retry later" answer is followed after the time it names; other refusals are not retried', () => {
    expect(retryAfterMs({ id: 1, code: -1019, message: 'busy', retryAfterMs: 250 })).toBe(250);
    expect(retryAfterMs({ id: 1, code: -1019, message: 'busy', data: { retryAfterMs: 400 } } as never)).toBe(400);
    expect(retryAfterMs({ id: 1, code: -1005, message: 'call frequency limit exceeded' })).toBe(1000);
    expect(retryAfterMs({ id: 1, code: -1007, message: 'room full' })).toBeUndefined();
  });
});
