import { describe, expect, it } from 'vitest';
import { DownlinkAllocator, RETRANSMIT_SHARE, UP_HOLD_MS } from '../../../src/engine/embedded/downlink-allocator.js';
import { budgetCost, fitBudget, type BudgetItem } from '../../../src/engine/embedded/downlink-budget.js';
import type { DownlinkEstimate } from '../../../src/webrtc/index.js';
import { chooseLayer } from '../../../src/webrtc/layers.js';

/** Four cameras as a 600 kbit/s downlink gets them: 500 kbit/s big, 100 kbit/s small, 40 kbit/s of audio each. */
const camera = (id: string, ceiling: BudgetItem['ceiling'] = 'big'): BudgetItem => ({ id, ceiling, big: 500_000, small: 100_000, fixed: 40_000 });
const FOUR = ['a', 'b', 'c', 'd'].map((id) => camera(id));

const clean = (ackedBps: number): DownlinkEstimate => ({ source: 'transport-cc', ackedBps, sentBps: ackedBps, loss: 0, queueMs: 1, rembBps: undefined });
const overused = (ackedBps: number): DownlinkEstimate => ({ source: 'transport-cc', ackedBps, sentBps: 2 * ackedBps, loss: 0.4, queueMs: 200, rembBps: undefined });

/** Ticks the allocator every 300 ms from `from` for `ms` with `estimate` (a function of the caps' cost), returning the last caps. */
function run(allocator: DownlinkAllocator, items: BudgetItem[], from: number, ms: number, estimate: (cost: number) => DownlinkEstimate) {
  let caps = new Map<string, string>();
  const changes: { at: number; caps: string }[] = [];
  for (let t = from; t <= from + ms; t += 300) {
    caps = allocator.tick(t, estimate(allocator.cost(items)), items);
    const line = [...caps.values()].join(',');
    if (changes.at(-1)?.caps !== line) changes.push({ at: t, caps: line });
  }
  return { caps, changes };
}

describe('43 allocator: the budget', () => {
  it('43 allocator: the budget — audio first, then every camera small where it fits, then big ones in order', () => {
    // 600 kbit/s: 160 of audio, 4 × 100 small = 560; no big fits (+400 each).
    expect([...fitBudget(600_000, FOUR).values()]).toEqual(['small', 'small', 'small', 'small']);
    expect(budgetCost(FOUR, fitBudget(600_000, FOUR))).toBe(560_000);
    // 1 Mbit/s: one big besides.
    expect([...fitBudget(1_000_000, FOUR).values()]).toEqual(['big', 'small', 'small', 'small']);
    // 400 kbit/s: two small, two paused.
    expect([...fitBudget(400_000, FOUR).values()]).toEqual(['small', 'small', 'paused', 'paused']);
    // A publisher without a small stream: big or nothing.
    expect(fitBudget(560_000, [{ ...camera('x'), small: undefined }]).get('x')).toBe('big');
    expect(fitBudget(500_000, [{ ...camera('x'), small: undefined }]).get('x')).toBe('paused');
  });

  it('43 allocator: paused keeps audio — below every camera\'s cost the audio is still counted and carried, only the video pauses', () => {
    const caps = fitBudget(100_000, FOUR);
    expect([...caps.values()]).toEqual(['paused', 'paused', 'paused', 'paused']);
    // What is carried then is the audio alone (the fixed part is never dropped).
    expect(budgetCost(FOUR, caps)).toBe(160_000);
  });

  it('43 allocator: never above what was asked — a subscription for the small stream never goes to big, nor does one without a camera get any', () => {
    const items = [camera('small-only', 'small'), camera('audio-only', 'none')];
    const caps = fitBudget(100_000_000, items);
    expect(caps.get('small-only')).toBe('small');
    expect(caps.get('audio-only')).toBe('paused');
    const allocator = new DownlinkAllocator();
    const { caps: after } = run(allocator, items, 0, 60_000, () => clean(10_000_000));
    expect(after.get('small-only')).toBe('small');
    // And on the downlink: a cap of 'big' on a small-only subscription still forwards the small layer.
    expect(chooseLayer({ audio: true, bigVideo: false, smallVideo: true, auxVideo: false }, true, 'big')).toBe('small');
    expect(chooseLayer({ audio: true, bigVideo: true, smallVideo: false, auxVideo: false }, true, 'small')).toBe('small');
    // Without a small stream from the publisher the cap cannot lower the layer (it pauses instead).
    expect(chooseLayer({ audio: true, bigVideo: true, smallVideo: false, auxVideo: false }, false, 'small')).toBe('video');
  });
});

describe('43 allocator: hysteresis', () => {
  it('43 allocator: hysteresis — down at once on sustained overuse, up only after the estimate held a margin above the next step for a while', () => {
    const allocator = new DownlinkAllocator();
    // A clean link: everything at its ceiling, capacity not bounded.
    expect([...allocator.tick(0, clean(2_000_000), FOUR).values()]).toEqual(['big', 'big', 'big', 'big']);
    // The queue fills (200 ms) with 580 kbit/s going through: down at once, to what 95 % of it carries.
    const down = allocator.tick(300, overused(580_000), FOUR);
    expect(allocator.capacity).toBeCloseTo(551_000, -3);
    expect([...down.values()]).toEqual(['small', 'small', 'small', 'paused']);
    expect(allocator.retransmitBudgetBps).toBeCloseTo(551_000 * RETRANSMIT_SHARE, -2);
    // Clean again: the capacity grows gently, and the next step (the fourth small, 560 kbit/s with a 15 % margin)
    // is taken only after it fitted for UP_HOLD_MS — not before.
    const { changes } = run(allocator, FOUR, 600, 20_000, (cost) => clean(cost));
    expect(changes[0].caps).toBe('small,small,small,paused');
    const up = changes.find((c) => c.caps === 'small,small,small,small');
    expect(up).toBeDefined();
    expect(up!.at - 600).toBeGreaterThanOrEqual(UP_HOLD_MS);
    // One step at a time: never two changes in one tick.
    for (const [i, change] of changes.entries()) if (i > 0) expect(change.at).toBeGreaterThan(changes[i - 1].at);
  });

  it('43 allocator: random loss without a queue is not congestion (left to NACK, RED and FEC): 20 % and 50 % loss keep the layers', () => {
    for (const loss of [0.2, 0.5]) {
      const allocator = new DownlinkAllocator();
      const lossy = (cost: number): DownlinkEstimate => ({ ...clean(cost * (1 - loss)), loss });
      const { caps } = run(allocator, FOUR, 0, 10_000, lossy);
      expect([...caps.values()]).toEqual(['big', 'big', 'big', 'big']);
      expect(allocator.capacity).toBe(Number.POSITIVE_INFINITY);
    }
  });

  it('43 allocator: heavy loss with no queue (75 %) lowers to the small layers at most — never a pause — and comes back when it ends', () => {
    const allocator = new DownlinkAllocator();
    const lossy = (cost: number): DownlinkEstimate => ({ ...clean(cost * 0.25), loss: 0.75 });
    const { caps } = run(allocator, FOUR, 0, 10_000, lossy);
    expect([...caps.values()]).toEqual(['small', 'small', 'small', 'small']);
    const { caps: after } = run(allocator, FOUR, 10_300, 90_000, (cost) => clean(cost));
    expect([...after.values()]).toEqual(['big', 'big', 'big', 'big']);
  });

  it('43 allocator: a path that got longer (150 ms more, steady, no loss) is not a queue: the layers stay', () => {
    const allocator = new DownlinkAllocator();
    const longer = (cost: number): DownlinkEstimate => ({ ...clean(cost), queueMs: 150 });
    const { caps } = run(allocator, FOUR, 0, 10_000, longer);
    expect([...caps.values()]).toEqual(['big', 'big', 'big', 'big']);
    expect(allocator.capacity).toBe(Number.POSITIVE_INFINITY);
  });

  it('43 allocator: an upgrade the link refuses doubles the wait before the next', () => {
    const allocator = new DownlinkAllocator();
    allocator.tick(0, overused(580_000), FOUR);
    allocator.tick(300, overused(580_000), FOUR);
    const hold = allocator.holdMs;
    // The link takes 560 kbit/s and no more: every upgrade past it is met with a queue.
    const link = (cost: number) => (cost > 570_000 ? overused(570_000) : clean(cost));
    run(allocator, FOUR, 1500, 30_000, link);
    expect(allocator.holdMs).toBeGreaterThan(hold);
  });
});

describe('43 allocator: recovery after the cap lifts', () => {
  it('43 allocator: recovery after the cap lifts — back to every camera big within seconds of a clean, wide link', () => {
    const allocator = new DownlinkAllocator();
    allocator.tick(0, overused(300_000), FOUR);
    const low = allocator.tick(300, overused(300_000), FOUR);
    expect([...low.values()].filter((c) => c === 'paused').length).toBeGreaterThan(0);
    // The cap is lifted: the link carries whatever is sent.
    const { caps, changes } = run(allocator, FOUR, 1500, 120_000, (cost) => clean(cost));
    expect([...caps.values()]).toEqual(['big', 'big', 'big', 'big']);
    const allBig = changes.find((c) => c.caps === 'big,big,big,big')!;
    // Eight steps up (four unpauses or small → big), each held UP_HOLD_MS at least, growth 8 %/s: within a minute.
    expect(allBig.at - 1500).toBeLessThan(60_000);
  });
});
