import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, resolveSettings } from './options.js';
import { SwitchPolicy } from './policy.js';

const errors = (init: { code: number; message: string }) => Object.assign(new Error(init.message), { code: init.code });
const settings = { ...DEFAULT_SETTINGS, poorDuration: 4000, goodDuration: 6000, sleepTime: 2000 };

/** Feeds a sample every 2 s from `from` to `to` (inclusive) and returns the actions decided at each. */
function run(policy: SwitchPolicy, from: number, to: number, rtt: number, loss: number) {
  const out: { at: number; userId: string; small: boolean }[] = [];
  for (let t = from; t <= to; t += 2000) {
    policy.sample({ rtt, loss }, t);
    for (const a of policy.decide(t)) out.push({ at: t, ...a });
  }
  return out;
}

describe('SmallStreamAutoSwitcher policy', () => {
  it('switches a big video to small after poorDuration of loss over the limit, and back after goodDuration of good network', () => {
    const policy = new SwitchPolicy(settings);
    policy.observe(new Map([['alice', false]]));
    expect(run(policy, 0, 10_000, 50, 1)).toEqual([]);
    expect(run(policy, 12_000, 20_000, 50, 30)).toEqual([{ at: 16_000, userId: 'alice', small: true }]);
    expect(run(policy, 22_000, 30_000, 50, 1)).toEqual([{ at: 28_000, userId: 'alice', small: false }]);
  });

  it('RTT over its limit alone is poor; between the good and poor limits nothing happens', () => {
    const policy = new SwitchPolicy(settings);
    policy.observe(new Map([['bob', false]]));
    expect(run(policy, 0, 10_000, 150, 15)).toEqual([]);
    expect(run(policy, 12_000, 16_000, 250, 0)).toEqual([{ at: 16_000, userId: 'bob', small: true }]);
    // Middling network: not good, so it stays small.
    expect(run(policy, 18_000, 40_000, 150, 0)).toEqual([]);
  });

  it('stops switching to small after maxAutoSwitchToSmallCount, and waits sleepTime between switches', () => {
    const policy = new SwitchPolicy({ ...settings, maxAutoSwitchToSmallCount: 1, sleepTime: 10_000 });
    policy.observe(new Map([['c', false]]));
    expect(run(policy, 0, 4000, 500, 0)).toEqual([{ at: 4000, userId: 'c', small: true }]);
    // Good at once, but asleep until 14 s.
    expect(run(policy, 6000, 16_000, 10, 0)).toEqual([{ at: 14_000, userId: 'c', small: false }]);
    policy.observe(new Map([['c', false]]));
    expect(run(policy, 18_000, 40_000, 500, 0)).toEqual([]);
  });

  it('never switches back a video the app put on the small stream', () => {
    const policy = new SwitchPolicy(settings);
    policy.observe(new Map([['d', true]]));
    expect(run(policy, 0, 20_000, 10, 0)).toEqual([]);
  });

  it('checks options: non-negative numbers over the defaults', () => {
    expect(resolveSettings({ poorDuration: 5000 }, DEFAULT_SETTINGS, 'startPlugin', errors)).toMatchObject({ poorDuration: 5000, rttPoorLimit: 200 });
    expect(() => resolveSettings({ sleepTime: -1 }, DEFAULT_SETTINGS, 'startPlugin', errors)).toThrow(/sleepTime/);
    expect(() => resolveSettings('x', DEFAULT_SETTINGS, 'startPlugin', errors)).toThrow(/object/);
  });
});
