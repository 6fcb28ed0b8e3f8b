import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROBE_MAX_MS, PROBE_MIN_MS, RetryWait, type WaitOutcome } from './retry-wait.js';

/** A pure unit (timers and the probe are the only inputs): fake timers, a scripted probe. */
describe('the wait before a reconnection attempt: the back-off is the ceiling, a probe ends it early', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A server that answers from `upAt` (ms after the wait starts); records when each probe went out. */
  function server(upAt: number) {
    const startedAt = Date.now();
    const probes: number[] = [];
    const probe = async () => {
      probes.push(Date.now() - startedAt);
      return Date.now() - startedAt >= upAt;
    };
    return { probes, probe, startedAt };
  }

  async function outcome(wait: RetryWait): Promise<{ outcome: WaitOutcome; at: number }> {
    const startedAt = Date.now();
    let result: WaitOutcome | undefined;
    void wait.done.then((o) => { result = o; });
    for (let t = 0; t < 120_000 && result === undefined; t += 10) await vi.advanceTimersByTimeAsync(10);
    return { outcome: result!, at: Date.now() - startedAt };
  }

  it('ends within one probe period (≤ 1 s) of the server answering again, long before the back-off step', async () => {
    const s = server(7_300);
    const { outcome: o, at } = await outcome(new RetryWait({ delayMs: 21_000, probe: s.probe, armed: true }));
    expect(o).toBe('probe');
    expect(at).toBeGreaterThanOrEqual(7_300);
    expect(at).toBeLessThanOrEqual(7_300 + PROBE_MAX_MS + 20);
  });

  it('probes are jittered: every gap is within 500–1000 ms, and two clients do not probe in step', async () => {
    const a = server(Infinity);
    const b = server(Infinity);
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const waits = [new RetryWait({ delayMs: 10_000, probe: a.probe, armed: true }), new RetryWait({ delayMs: 10_000, probe: b.probe, armed: true, random })];
    await Promise.all(waits.map(outcome));
    for (const { probes } of [a, b]) {
      const gaps = probes.map((t, i) => t - (probes[i - 1] ?? 0));
      expect(gaps.length).toBeGreaterThanOrEqual(9);
      for (const gap of gaps) {
        expect(gap).toBeGreaterThanOrEqual(PROBE_MIN_MS);
        expect(gap).toBeLessThanOrEqual(PROBE_MAX_MS + 20);
      }
    }
    expect(a.probes).not.toEqual(b.probes);
  });

  it('a dead server keeps the back-off: the wait ends on the clock', async () => {
    const s = server(Infinity);
    expect(await outcome(new RetryWait({ delayMs: 5_000, probe: s.probe, armed: true }))).toEqual({ outcome: 'clock', at: 5_000 });
  });

  it('disarmed (a shortcut attempt just failed), a server that answers probes all along does not shorten the wait', async () => {
    const s = server(0);
    expect(await outcome(new RetryWait({ delayMs: 3_000, probe: s.probe, armed: false }))).toEqual({ outcome: 'clock', at: 3_000 });
    expect(s.probes.length).toBeGreaterThan(1);
  });

  it('disarmed, a probe that finds the server down re-arms it: the next answer ends the wait', async () => {
    const s = server(2_500);
    const { outcome: o, at } = await outcome(new RetryWait({ delayMs: 13_000, probe: s.probe, armed: false }));
    expect(o).toBe('probe');
    expect(at).toBeLessThanOrEqual(2_500 + PROBE_MAX_MS + 20);
  });

  it('a wake-up (online, visible) ends the wait within 0–500 ms; cancel ends it at once', async () => {
    const woken = new RetryWait({ delayMs: 30_000, armed: true });
    setTimeout(() => woken.wake(), 4_000);
    const { outcome: o, at } = await outcome(woken);
    expect(o).toBe('wake');
    expect(at).toBeGreaterThanOrEqual(4_000);
    expect(at).toBeLessThanOrEqual(4_500 + 10);
    const cancelled = new RetryWait({ delayMs: 30_000, armed: true });
    cancelled.cancel();
    expect(await cancelled.done).toBe('cancelled');
  });
});
