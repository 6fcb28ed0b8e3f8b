/**
 * The floor forwarder's smoke test (issue 42): the generator's floor mode publishes plain SRTP to the floor and
 * subscribes three times; every packet the floor authenticated arrives three times, decryptable (the generator
 * reports any that fail SRTP authentication as an error), loss 0. The test builds the floor (cargo) and the
 * generator (go) itself, as the generator's e2e smoke test does (cached after the first build): a toolchain that
 * is missing fails here rather than skipping (.ci/run installs cargo and Go).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoadgen, LOADGEN_DIR, runLoadgen } from '../../tests/e2e/src/harness/loadgen.js';
import { buildFloor, FLOOR_BINARY, floorBuilt, floorStats, startFloor, type FloorProcess, type FloorStats } from './load-floor.js';

describe('floor forwarder', () => {
  let floor: FloorProcess;

  beforeAll(async () => {
    // One after the other: two compilers side by side on two cores slow both down.
    await buildFloor(580_000);
    await buildLoadgen({ timeoutMs: 580_000 });
    if (!floorBuilt()) throw new Error(`${FLOOR_BINARY} is missing after its build`);
    if (!existsSync(`${LOADGEN_DIR}bin/loadgen`)) throw new Error(`${LOADGEN_DIR}bin/loadgen is missing after its build`);
    floor = await startFloor();
  }, 1_200_000);
  afterAll(async () => {
    await floor?.close();
  });

  it('42 floor row: the floor forwards each packet to every subscriber, decryptable (packets in = packets out × N)', async () => {
    const n = 3;
    // The floor's counters at the window's edges: every subscriber is set up by then.
    const snapshots: Promise<FloorStats>[] = [];
    const report = await runLoadgen({
      url: floor.url, sdkAppId: 0, roomId: 'floor-smoke', warmupSeconds: 0.5, windowSeconds: 2,
      publishers: [{ userId: 'fp', userSig: '', audio: true, video: true, small: false }],
      subscribers: Array.from({ length: n }, (_, i) => ({ userId: `fs${i}`, userSig: '', sources: [{ userId: 'fp', audio: true, bigVideo: true, smallVideo: false }] })),
    }, { timeoutMs: 30_000, onEvent: (e) => { if (e.event === 'window-start' || e.event === 'window-end') snapshots.push(floorStats(floor.port)); } });
    expect(report.errors).toEqual([]);
    const { total, audio, video } = report.window;
    expect(audio.receivedPackets).toBeGreaterThan(0);
    expect(video.receivedPackets).toBeGreaterThan(0);
    expect(total.lostPackets).toBe(0);
    // Every received packet decrypted to a payload that was sent: its send time was found.
    expect(total.delay.samples).toBe(total.receivedPackets);
    const [start, end] = await Promise.all(snapshots);
    expect(end.auth_failed + end.replayed + end.unknown_ssrc + end.malformed + end.send_failed).toBe(0);
    expect(end.outputs).toBe(2 * n);
    const received = end.received - start.received;
    const forwarded = end.forwarded - start.forwarded;
    expect(received).toBeGreaterThan(100);
    expect(forwarded).toBe(received * n);
    // What the subscribers counted over the window is what the floor sent (give or take the packets in flight at its edges).
    expect(Math.abs(total.receivedPackets - forwarded)).toBeLessThan(0.05 * forwarded);
  }, 40_000);

  // The generator's SRTP, which decides "decryptable" above, is the standard's: Pion's own context reads it.
  it("42 floor row: the generator's SRTP interoperates with Pion's (go test)", async () => {
    const { stdout } = await promisify(execFile)('sh', ['-c', 'PATH="$PATH:/usr/local/go/bin" go test ./floor/'], { cwd: LOADGEN_DIR, timeout: 110_000 });
    expect(stdout).toMatch(/^ok\s/m);
  }, 120_000);
});
