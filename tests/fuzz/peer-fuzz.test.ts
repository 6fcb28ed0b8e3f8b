/**
 * Issue 38 "Beyond the list": a fuzz of the signalling protocol and of the SDP, RTP and RTCP a connected peer sends
 * to the embedded engine (peer-fuzz.ts). The bounded run; the bench runs longer (bench/src/peer-fuzz.ts). A
 * failure names its seed: CONCLAVE_FUZZ_SEED=<seed> replays it, CONCLAVE_FUZZ_ITERATIONS sizes the run.
 */
import { startServer, type RunningServer } from '@conclave/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peerFuzzServerOverrides, runPeerFuzz, type PeerFuzzResult } from './peer-fuzz.js';
import { fuzzIterations, fuzzSeed, replayHint } from './prng.js';

const MB = 1024 * 1024;

describe('38.beyond fuzz of a connected peer: signalling, SDP, SRTP and SRTCP', () => {
  let server: RunningServer;
  let result: PeerFuzzResult;
  const seed = fuzzSeed(1);
  const replay = replayHint(seed);
  beforeAll(async () => {
    server = await startServer({ port: 0, host: '127.0.0.1', devMode: false, logLevel: 'silent', iceAddress: '127.0.0.1', storage: { path: ':memory:' }, ...peerFuzzServerOverrides() }, {});
    result = await runPeerFuzz(server, { seed, iterations: fuzzIterations(1_200) });
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    if (result) {
      const { signal, media, inputs, heapGrowth, seconds } = result;
      console.info(`[peer-fuzz] seed ${seed}: ${JSON.stringify({ inputs, crashes: result.crashes.length, heapGrowthMB: [heapGrowth.signal / MB, heapGrowth.media / MB].map((v) => v.toFixed(1)), seconds, signalCodes: signal.codes, rtp: media.rtp, rtcpUplink: media.rtcpUplink, rtcpDownlink: media.rtcpDownlink, sdp: media.sdp })}`);
    }
  });

  it('38.beyond every command of the protocol, each field broken every way, in every session state: a coded reply each; the other rooms see nothing', () => {
    const { signal, bystanders } = result;
    expect(signal.violations, replay).toEqual([]);
    expect(signal.byState['before-join'], replay).toBeGreaterThanOrEqual(1_200);
    expect(Object.keys(signal.byCommand).length).toBeGreaterThanOrEqual(20);
    expect(signal.invalid).toBeGreaterThan(signal.sent / 2); // most cases break the schema: the refusals are checked
    expect(bystanders.failures, replay).toEqual([]);
    expect(bystanders.strangers, replay).toEqual([]);
    expect(bystanders.removed, replay).toEqual([]);
  });

  it('38.beyond hostile SDP, SRTP and SRTCP from a connected peer: the node keeps serving a bystander pair, nothing crashes or stays behind', () => {
    const { media } = result;
    expect(result.crashes, replay).toEqual([]);
    expect(media.violations, replay).toEqual([]);
    expect(result.healthAfter).toBe(200);
    // Every category was tried, on both links.
    expect(Object.keys(media.rtp).length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(media.rtcpDownlink).length).toBeGreaterThanOrEqual(9);
    expect(Object.keys(media.sdp.publish).length + Object.keys(media.sdp.downlinkAnswer).length).toBeGreaterThanOrEqual(12);
    // The bystander's subscriber received media during every round, only its publisher's; nobody got the attack's
    // media where an honest sender's was due, while the attacker's viewer did get what the engine forwarded of it.
    expect(media.bystanderPerRound.every((n) => n > 0), replay).toBe(true);
    expect(media.bystanderReceived).toBeGreaterThan(media.bystanderSent / 4);
    expect(media.foreign, replay).toBe(0);
    expect(media.forwardedToViewer).toBeGreaterThan(0);
    // The regression inputs reached the engine's guards (counted in /metrics), not werift's loops.
    expect(result.refusedByGuards['rtp-header']).toBeGreaterThan(0);
    expect(result.refusedByGuards['transport-cc']).toBeGreaterThan(0);
  });

  it('38.beyond the heap after garbage collection stays bounded over the runs (no per-input or per-link leak)', () => {
    const { heapGrowth } = result;
    // Without a leak this is a few MB of noise; a leaked link (~200 KB) per round, or ~4 KB per input, would exceed it.
    const bound = (heapGrowth.collected ? 24 : 96) * MB;
    expect(heapGrowth.signal, replay).toBeLessThan(bound);
    expect(heapGrowth.media, replay).toBeLessThan(bound);
  });
});
