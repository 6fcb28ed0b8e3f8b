import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { cdn, rect, useCdnPlugin } from './harness/cdn-client.js';
import { AppHost, call, eventsOf } from './harness/client-page.js';
import { join } from './harness/join.js';
import { colorAt, colorName, fakeMediaArgs, grabAudio, grabFrame, hasTone, makeFakeMedia, probe } from './harness/media-probe.js';
import { RtmpCdn } from './harness/rtmp-cdn.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

const ADMIN_KEY = 'conclave-e2e-admin-key-0123456789';
const W = 640, H = 360;
/** Alice is red with a 440 Hz beep, Bob blue with 1000 Hz. */
const TONE = { alice: 440, bob: 1000 };

interface AdminJob { jobId: string; kind: string; state: string; restarts: number; pid: number | null; fps: number }

describe('CDN publishing and mix transcode (issue 14)', () => {
  let server: TestServer;
  let app: AppHost;
  let rtmp: RtmpCdn;
  let red: LaunchedBrowser;
  let blue: LaunchedBrowser;

  beforeAll(async () => {
    const [redMedia, blueMedia] = await Promise.all([makeFakeMedia('red', 'red', TONE.alice), makeFakeMedia('blue', 'blue', TONE.bob)]);
    // The loopback nginx-rtmp "CDN" is on 127.0.0.1: the operator lists it (docs/behaviour.md §5.5).
    server = await startTestServer({ apps: [{ ...TEST_APP, adminKey: ADMIN_KEY, rtmpHosts: ['127.0.0.1:*'] }] });
    app = await AppHost.start(server.url);
    rtmp = await RtmpCdn.start();
    red = await launchBrowser(fakeMediaArgs(redMedia));
    blue = await launchBrowser(fakeMediaArgs(blueMedia));
  });

  afterAll(async () => {
    await red?.close();
    await blue?.close();
    await app?.close();
    await server?.close();
    await rtmp?.close();
  });

  const jobs = async (): Promise<AdminJob[]> => {
    const res = await fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}/jobs`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    return ((await res.json()) as { jobs: AdminJob[] }).jobs;
  };

  /** Alice (red) and Bob (blue) join a room, each publishing camera and microphone; Alice gets the plugin. */
  async function twoUsers(roomId: number): Promise<{ alice: Page; bob: Page }> {
    const alice = await app.open(red.context);
    const bob = await app.open(blue.context);
    expect(await join(alice, server, 'alice', { roomId })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId })).toEqual({ ok: true });
    await useCdnPlugin(alice, server.url);
    await useCdnPlugin(bob, server.url);
    // Both publish before the mix starts (the mix would show them once they do, too).
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    return { alice, bob };
  }

  /** Polls frames of the live stream until the colours at the named points are as expected. */
  async function expectColours(url: string, points: Record<string, { x: number; y: number }>, want: Record<string, string>, timeout = 30_000): Promise<void> {
    let last: Record<string, string> = {};
    await expect.poll(async () => {
      const frame = await grabFrame(url, W, H, { skip: 2 }).catch(() => undefined);
      if (!frame) return 'no frame';
      last = Object.fromEntries(Object.entries(points).map(([name, p]) => [name, colorName(colorAt(frame, W, { x: p.x - 4, y: p.y - 4, w: 8, h: 8 }))]));
      return last;
    }, { timeout, interval: 500 }).toEqual(want);
  }

  // A at the left half; B overlapping A's right edge and in front (z 2); the rest shows the green background.
  const layoutAB = [rect('alice', 0, 0, 320, 360, 1), rect('bob', 240, 60, 320, 180, 2)];
  const points = { aOnly: { x: 100, y: 180 }, bOnly: { x: 450, y: 150 }, overlap: { x: 280, y: 150 }, background: { x: 600, y: 330 } };
  const mixOptions = (url: string, videoLayoutList = layoutAB) => ({
    target: { publishMode: 'PublishMixStreamToCDN', url },
    encoding: { videoWidth: W, videoHeight: H, videoFramerate: 15, videoGOP: 1, videoBitrate: 800, audioBitrate: 64, audioChannels: 1 },
    mix: { backgroundColor: 0x00ff00, videoLayoutList, audioMixUserList: [{ userId: 'alice' }, { userId: 'bob' }] },
  });

  it('PublishMixStreamToCDN of two users with a layout: H264 + AAC at the configured size and frame rate, A and B in their rectangles with z-order, both audios present', async () => {
    const { alice, bob } = await twoUsers(14001);
    const url = rtmp.url('mix14001');
    expect(await cdn(alice, 'startPlugin', mixOptions(url))).toMatchObject({ ok: true });
    const { streams } = await probe(url);
    const video = streams.find((s) => s.codec_type === 'video');
    const audio = streams.find((s) => s.codec_type === 'audio');
    expect(video).toMatchObject({ codec_name: 'h264', width: W, height: H, r_frame_rate: '15/1' });
    expect(audio).toMatchObject({ codec_name: 'aac', sample_rate: '48000' });
    await expectColours(url, points, { aOnly: 'red', bOnly: 'blue', overlap: 'blue', background: 'green' });
    await expect.poll(async () => {
      const pcm = await grabAudio(url, 3);
      return { alice: hasTone(pcm, TONE.alice), bob: hasTone(pcm, TONE.bob) };
    }, { timeout: 30_000, interval: 1000 }).toEqual({ alice: true, bob: true });
    expect(await cdn(alice, 'stopPlugin', { target: { publishMode: 'PublishMixStreamToCDN' } })).toMatchObject({ ok: true });
    await alice.close();
    await bob.close();
  });

  it('updatePlugin with a new layout moves the rectangles in the live stream without a new RTMP connection; stopPlugin ends the stream within 5 s', async () => {
    const { alice, bob } = await twoUsers(14002);
    const name = 'mix14002';
    const url = rtmp.url(name);
    expect(await cdn(alice, 'startPlugin', mixOptions(url))).toMatchObject({ ok: true });
    await expectColours(url, points, { aOnly: 'red', bOnly: 'blue', overlap: 'blue', background: 'green' });
    // Swap: B on the left, A on the right and in front.
    const swapped = [rect('bob', 0, 0, 320, 360, 1), rect('alice', 240, 60, 320, 180, 2)];
    expect(await cdn(alice, 'updatePlugin', mixOptions(url, swapped))).toMatchObject({ ok: true });
    await expectColours(url, points, { aOnly: 'blue', bOnly: 'red', overlap: 'red', background: 'green' });
    expect(rtmp.publishes(name)).toBe(1);
    expect(rtmp.publishesDone(name)).toHaveLength(0);
    const stoppedAt = Date.now();
    expect(await cdn(alice, 'stopPlugin', { target: { publishMode: 'PublishMixStreamToCDN' } })).toMatchObject({ ok: true });
    await expect.poll(() => rtmp.publishesDone(name).length, { timeout: 5000, interval: 100 }).toBe(1);
    expect(rtmp.publishesDone(name)[0].at - stoppedAt).toBeLessThanOrEqual(5000);
    await alice.close();
    await bob.close();
  });

  it('PublishMainStreamToCDN relays one user\'s stream unmixed; PublishSubStreamToCDN the screen share', async () => {
    const { alice, bob } = await twoUsers(14003);
    const main = rtmp.url('main14003');
    expect(await cdn(bob, 'startPlugin', { target: { publishMode: 'PublishMainStreamToCDN', url: main } })).toMatchObject({ ok: true });
    const { streams } = await probe(main);
    // Unmixed: the camera's own H264 (480p profile) with its audio, not a re-encoded canvas.
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 640, height: 480 });
    expect(streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    await expect.poll(async () => {
      const frame = await grabFrame(main, 64, 48).catch(() => undefined);
      return frame ? colorName(colorAt(frame, 64, { x: 16, y: 12, w: 32, h: 24 })) : 'no frame';
    }, { timeout: 20_000, interval: 500 }).toBe('blue');
    await expect.poll(async () => hasTone(await grabAudio(main, 3), TONE.bob), { timeout: 20_000, interval: 1000 }).toBe(true);

    expect(await call(alice, 'startScreenShare', { option: { profile: '720p_2' } })).toMatchObject({ ok: true });
    const sub = rtmp.url('sub14003');
    expect(await cdn(alice, 'startPlugin', { target: { publishMode: 'PublishSubStreamToCDN', url: sub } })).toMatchObject({ ok: true });
    const subProbe = await probe(sub);
    const subVideo = subProbe.streams.find((s) => s.codec_type === 'video');
    expect(subVideo?.codec_name).toBe('h264');
    expect(subVideo?.width).toBeGreaterThan(0);
    const kinds = (await jobs()).map((j) => j.kind).sort();
    expect(kinds).toEqual(['cdn-main', 'cdn-sub']);
    expect(await cdn(bob, 'stopPlugin', { target: { publishMode: 'PublishMainStreamToCDN' } })).toMatchObject({ ok: true });
    // The starting user leaving ends the job, as in the original.
    await alice.close();
    await expect.poll(async () => (await jobs()).length, { timeout: 10_000 }).toBe(0);
    await bob.close();
  });

  it('invalid mix parameters give docs/behaviour.md §5\'s errors; an unreachable RTMP URL gives START_PUBLISH_CDN_FAILED; the job\'s death mid-stream is restarted', async () => {
    const { alice, bob } = await twoUsers(14004);
    const url = rtmp.url('mix14004');
    const bad = async (patch: (o: ReturnType<typeof mixOptions>) => unknown) => cdn(alice, 'startPlugin', patch(mixOptions(url)));
    const cases: [string, unknown, RegExp][] = [
      ['videoFramerate 31', await bad((o) => ({ ...o, encoding: { ...o.encoding, videoFramerate: 31 } })), /videoFramerate must be an integer between \[1, 30\]/],
      ['videoGOP 9', await bad((o) => ({ ...o, encoding: { ...o.encoding, videoGOP: 9 } })), /videoGOP must be an integer between \[1, 8\]/],
      ['audioBitrate 16', await bad((o) => ({ ...o, encoding: { ...o.encoding, audioBitrate: 16 } })), /audioBitrate must be an integer between \[32, 192\]/],
      ['zOrder 16', await bad((o) => ({ ...o, mix: { ...o.mix, videoLayoutList: [rect('alice', 0, 0, 320, 360, 16)] } })), /zOrder must be an integer between \[1, 15\]/],
      ['no zOrder', await bad((o) => ({ ...o, mix: { ...o.mix, videoLayoutList: [{ ...rect('alice', 0, 0, 320, 360, 1), zOrder: undefined }] } })), /zOrder is required/],
      ['without self', await bad((o) => ({ ...o, mix: { videoLayoutList: [rect('bob', 0, 0, 320, 360, 1)], audioMixUserList: [{ userId: 'bob' }] } })), /must include yourself/],
      ['outside the output', await bad((o) => ({ ...o, mix: { ...o.mix, videoLayoutList: [rect('alice', 400, 0, 320, 360, 1)] } })), /must contain/],
    ];
    for (const [label, result, message] of cases) {
      expect(result, label).toMatchObject({ ok: false, name: 'RtcError', code: 5000 });
      expect((result as { message: string }).message, label).toMatch(message);
    }
    expect(await jobs()).toEqual([]);

    const unreachable = await cdn(bob, 'startPlugin', { target: { publishMode: 'PublishMainStreamToCDN', url: 'rtmp://127.0.0.1:1/live/nowhere' } });
    expect(unreachable).toMatchObject({ ok: false, name: 'RtcError', extraCode: 16453 });
    expect(unreachable.message).toMatch(/START_PUBLISH_CDN_FAILED/);

    expect(await cdn(alice, 'startPlugin', mixOptions(url))).toMatchObject({ ok: true });
    await expectColours(url, points, { aOnly: 'red', bOnly: 'blue', overlap: 'blue', background: 'green' });
    const [job] = await jobs();
    expect(job).toMatchObject({ kind: 'cdn-mix', state: 'running', restarts: 0 });
    process.kill(job.pid!, 'SIGKILL');
    await expect.poll(async () => (await jobs())[0], { timeout: 30_000, interval: 500 }).toMatchObject({ jobId: job.jobId, state: 'running', restarts: 1 });
    expect((await jobs())[0].pid).not.toBe(job.pid);
    // The stream is back (a new publish connection) with the same layout.
    await expect.poll(() => rtmp.publishes('mix14004'), { timeout: 10_000 }).toBe(2);
    await expectColours(url, points, { aOnly: 'red', bOnly: 'blue', overlap: 'blue', background: 'green' });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/conclave_media_job_restarts_total 1/);
    expect(metrics).toMatch(/conclave_media_jobs\{kind="cdn-mix"\} 1/);
    expect(await cdn(alice, 'stopPlugin', { target: { publishMode: 'PublishMixStreamToCDN' } })).toMatchObject({ ok: true });
    await alice.close();
    await bob.close();
  });
});
