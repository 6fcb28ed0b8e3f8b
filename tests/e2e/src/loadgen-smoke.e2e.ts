/**
 * The load generator's smoke test (issue 26): the Go generator (bench/loadgen) joins a real server on
 * loopback as one publisher and one subscriber, through Conclave's own signalling and WebRTC, and the
 * subscriber receives what was sent. Runs once per media engine project.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLoadgen, LOADGEN_DIR, runLoadgen } from './harness/loadgen.js';
import { E2E_ENGINE, startTestServer, TEST_APP, type TestServer } from './harness/server.js';

describe(`load generator (${E2E_ENGINE})`, () => {
  let server: TestServer;

  // The first build on a machine downloads the Go modules and compiles Pion (minutes); later ones are cached.
  beforeAll(async () => {
    await buildLoadgen({ timeoutMs: 590_000 });
    server = await startTestServer();
  }, 600_000);
  afterAll(async () => {
    await server?.close();
  });

  it("the generator's smoke test: one publisher, one subscriber, packets flow, loss 0", async () => {
    const report = await runLoadgen({
      url: server.url,
      sdkAppId: TEST_APP.sdkAppId,
      roomId: '9601',
      publishers: [{ userId: 'lg-pub', userSig: await server.sig('lg-pub'), audio: true, video: true, small: true }],
      subscribers: [{ userId: 'lg-sub', userSig: await server.sig('lg-sub'), sources: [{ userId: 'lg-pub', audio: true, bigVideo: true, smallVideo: false }] }],
      warmupSeconds: 1,
      windowSeconds: 4,
    }, { timeoutMs: 90_000 });
    expect(report.errors).toEqual([]);
    const { audio, video, total, seconds } = report.window;
    // Opus sends 50 packets/s; the 360p clip ~60–90. Both must arrive, all of them.
    expect(audio.receivedPackets).toBeGreaterThan(40 * seconds);
    expect(video.receivedPackets).toBeGreaterThan(40 * seconds);
    expect(video.receivedBytes).toBeGreaterThan(50_000 * seconds);
    expect(total.lostPackets).toBe(0);
    expect(total.lossRate).toBe(0);
    // Every received packet was matched to its send time: the forwarding delay is measured.
    expect(total.delay.samples).toBe(total.receivedPackets);
    expect(total.delay.p50Ms).toBeLessThan(50);
  }, 120_000);

  // Its counting (loss across a sequence wrap, delay matched by payload and source): Go unit tests, engine-independent.
  it.runIf(E2E_ENGINE === 'embedded')('the generator counts loss and delay right (go test)', async () => {
    const go = process.env.GO ?? 'go';
    const { stdout } = await promisify(execFile)('sh', ['-c', `PATH="$PATH:/usr/local/go/bin" nice -n 10 ${go} test ./stats/`], { cwd: LOADGEN_DIR, timeout: 110_000 });
    expect(stdout).toMatch(/^ok\s/m);
  }, 120_000);
});
