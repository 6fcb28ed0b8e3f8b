import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImpairedLink, kernelHasNetem } from './harness/impair.js';
import { NetNamespace } from './harness/netns.js';
import { probeUdp } from './harness/udp-probe.js';

/** This file's network namespace (others: 1, 2, 7, 25; the bad-links file 43 and 44). */
const NS_INDEX = 42;

describe('Must show 43: the impairment harness — each impairment measured on UDP probes across a namespace\'s link', () => {
  let ns: NetNamespace;
  let link: ImpairedLink;

  beforeAll(() => {
    ns = NetNamespace.create(NS_INDEX);
    link = ImpairedLink.create(ns);
    console.log(`[impair] netem in this kernel: ${kernelHasNetem(ns)}`);
  });

  afterAll(() => {
    link?.close();
    ns?.destroy();
  });

  it('43 harness: 20 % random loss both ways measures 14–26 % on each direction, and a clean link loses nothing', async () => {
    const clean = await probeUdp(ns, 'down', { count: 200, intervalMs: 3 });
    expect(clean.loss).toBe(0);
    await link.set('both', { loss: 0.2 });
    const [up, down] = await Promise.all([probeUdp(ns, 'up', { count: 600, intervalMs: 3, port: 46_001 }), probeUdp(ns, 'down', { count: 600, intervalMs: 3, port: 46_002 })]);
    console.log(`[impair] 20 % loss: up ${(up.loss * 100).toFixed(1)} %, down ${(down.loss * 100).toFixed(1)} %`);
    for (const r of [up, down]) {
      expect(r.loss).toBeGreaterThan(0.14);
      expect(r.loss).toBeLessThan(0.26);
    }
    await link.clear();
  });

  it('43 harness: one direction only — 30 % uplink loss leaves the downlink whole', async () => {
    await link.set('up', { loss: 0.3 });
    const up = await probeUdp(ns, 'up', { count: 400, intervalMs: 3 });
    const down = await probeUdp(ns, 'down', { count: 200, intervalMs: 3 });
    expect(up.loss).toBeGreaterThan(0.22);
    expect(up.loss).toBeLessThan(0.38);
    expect(down.loss).toBe(0);
    await link.clear();
  });

  it('43 harness: Gilbert–Elliott bursts lose the configured share in runs (mean run ≥ 2 packets, random loss ~1.2)', async () => {
    // Stationary loss pGB / (pGB + pBG) = 0.04 / 0.24 ≈ 17 %; a bad state lasts 1 / pBG = 5 packets on average.
    await link.set('down', { bursts: { pGoodToBad: 0.04, pBadToGood: 0.2, lossBad: 1 } });
    const r = await probeUdp(ns, 'down', { count: 1000, intervalMs: 2 });
    const meanRun = (r.sent - r.received) / r.lossRuns;
    console.log(`[impair] bursts: loss ${(r.loss * 100).toFixed(1)} %, ${r.lossRuns} runs, mean ${meanRun.toFixed(1)}, longest ${r.longestLossRun}`);
    expect(r.loss).toBeGreaterThan(0.08);
    expect(r.loss).toBeLessThan(0.3);
    expect(meanRun).toBeGreaterThan(2);
    expect(r.longestLossRun).toBeGreaterThanOrEqual(6);
    expect(await link.programStats('down')).toMatchObject({ dropped: expect.any(Number) as number });
    await link.clear();
  });

  it('43 harness: 150 ms ± 30 ms delay on the uplink measures a median of 140–220 ms one way, the downlink stays fast', async () => {
    await link.set('up', { delayMs: 150, jitterMs: 30 });
    const up = await probeUdp(ns, 'up', { count: 200, intervalMs: 5 });
    const down = await probeUdp(ns, 'down', { count: 100, intervalMs: 5 });
    console.log(`[impair] delay: up p50 ${up.delayP50Ms.toFixed(1)} ms p95 ${up.delayP95Ms.toFixed(1)}, down p50 ${down.delayP50Ms.toFixed(1)} ms`);
    expect(up.loss).toBe(0);
    expect(up.delayP50Ms).toBeGreaterThan(140);
    expect(up.delayP50Ms).toBeLessThan(220);
    expect(down.delayP50Ms).toBeLessThan(40);
    await link.clear();
  });

  it('43 harness: a 600 kbit/s downlink cap passes 450–700 kbit/s of a 1.3 Mbit/s train and drops the rest', async () => {
    await link.set('down', { rateKbit: 600, queueMs: 100 });
    // 1000-byte datagrams every 6 ms: ~1.37 Mbit/s on the wire.
    const r = await probeUdp(ns, 'down', { count: 500, intervalMs: 6, size: 1000 });
    console.log(`[impair] 600 kbit/s cap: received ${r.receivedKbit.toFixed(0)} kbit/s, loss ${(r.loss * 100).toFixed(1)} %`);
    expect(r.receivedKbit).toBeGreaterThan(450);
    expect(r.receivedKbit).toBeLessThan(700);
    expect(r.loss).toBeGreaterThan(0.3);
    await link.clear();
    const after = await probeUdp(ns, 'down', { count: 200, intervalMs: 6, size: 1000 });
    expect(after.loss).toBe(0);
  });

  it('43 harness: a blackout drops everything both ways; after it the link is whole again', async () => {
    await link.blackout();
    const [up, down] = await Promise.all([probeUdp(ns, 'up', { count: 50, intervalMs: 5, port: 46_003 }), probeUdp(ns, 'down', { count: 50, intervalMs: 5, port: 46_004 })]);
    expect(up.received + down.received).toBe(0);
    await link.endBlackout();
    expect((await probeUdp(ns, 'up', { count: 50, intervalMs: 5 })).loss).toBe(0);
  });
});
