import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { genUserSig } from '@conclave/usersig';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { cdn, rect, useCdnPlugin } from './harness/cdn-client.js';
import { AppHost } from './harness/client-page.js';
import { join } from './harness/join.js';
import { colorAt, colorName, fakeMediaArgs, grabFrame, makeFakeMedia } from './harness/media-probe.js';
import { RtmpCdn } from './harness/rtmp-cdn.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

const ADMIN_KEY = 'conclave-e2e-admin-key-0123456789';
/** A second app on the same server: its users must not draw the first app's images. */
const APP_B = { sdkAppId: 1400700002, secretKey: 'conclave-e2e-secret-key-app-b-0123', adminKey: 'conclave-e2e-admin-key-app-b-01234' };
const W = 640, H = 360;

/** A PNG made by ffmpeg: `left` on the left half, `right` on the right, at `w`×`h` (smaller than the mix: it must be scaled). */
function makePng(dir: string, name: string, left: string, right: string, w = 64, h = 36): Uint8Array<ArrayBuffer> {
  const path = joinPath(dir, `${name}.png`);
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${left}:s=${w / 2}x${h}`, '-f', 'lavfi', '-i', `color=c=${right}:s=${w / 2}x${h}`,
    '-filter_complex', 'hstack', '-frames:v', '1', '-y', path]);
  return new Uint8Array(readFileSync(path));
}

describe('CDN mix background image (issue 14)', () => {
  let server: TestServer;
  let app: AppHost;
  let rtmp: RtmpCdn;
  let red: LaunchedBrowser;
  let folder: string;
  let images: string;

  beforeAll(async () => {
    const media = await makeFakeMedia('bg-red', 'red', 440);
    folder = mkdtempSync(joinPath(tmpdir(), 'conclave-mix-images-'));
    images = mkdtempSync(joinPath(tmpdir(), 'conclave-mix-png-'));
    // The loopback nginx-rtmp "CDN" is on 127.0.0.1: the operator lists it (docs/behaviour.md §5.5).
    server = await startTestServer({ apps: [{ ...TEST_APP, adminKey: ADMIN_KEY, rtmpHosts: ['127.0.0.1:*'] }, APP_B], media: { mixImagePath: folder } });
    app = await AppHost.start(server.url);
    rtmp = await RtmpCdn.start();
    red = await launchBrowser(fakeMediaArgs(media));
  });

  afterAll(async () => {
    await red?.close();
    await app?.close();
    await server?.close();
    await rtmp?.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(images, { recursive: true, force: true });
  });

  const admin = (path: string, init: RequestInit = {}, sdkAppId = TEST_APP.sdkAppId, key = ADMIN_KEY) =>
    fetch(`${server.url}/admin/v1/apps/${sdkAppId}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } });

  /** A user of the test app (or of `APP_B`) joins a room publishing the red camera and gets the plugin. */
  async function joined(userId: string, roomId: number, ofApp: 'A' | 'B' = 'A'): Promise<Page> {
    const page = await app.open(red.context);
    const sigs = ofApp === 'A' ? server : { sig: (id: string) => genUserSig({ sdkAppId: APP_B.sdkAppId, secretKey: APP_B.secretKey, userId: id }) };
    expect(await join(page, sigs, userId, { roomId }, ofApp === 'B' ? { enter: { sdkAppId: APP_B.sdkAppId } } : {})).toEqual({ ok: true });
    await useCdnPlugin(page, server.url);
    return page;
  }

  /** Polls frames of the live stream until the colours at the named points are as expected. */
  async function expectColours(url: string, points: Record<string, { x: number; y: number }>, want: Record<string, string>, timeout = 30_000): Promise<void> {
    await expect.poll(async () => {
      const frame = await grabFrame(url, W, H, { skip: 2 }).catch(() => undefined);
      if (!frame) return 'no frame';
      return Object.fromEntries(Object.entries(points).map(([name, p]) => [name, colorName(colorAt(frame, W, { x: p.x - 4, y: p.y - 4, w: 8, h: 8 }))]));
    }, { timeout, interval: 500 }).toEqual(want);
  }

  // The user in the middle; the canvas left and right of them is uncovered.
  const layout = [rect('alice', 240, 90, 160, 180, 1)];
  const points = { left: { x: 60, y: 180 }, user: { x: 320, y: 180 }, right: { x: 580, y: 180 } };
  const mixOptions = (url: string, backgroundImage?: string, userId = 'alice') => ({
    target: { publishMode: 'PublishMixStreamToCDN', url },
    encoding: { videoWidth: W, videoHeight: H, videoFramerate: 15, videoGOP: 1, videoBitrate: 800, audioBitrate: 64, audioChannels: 1 },
    mix: {
      backgroundColor: 0x00ff00, videoLayoutList: layout.map((l) => ({ ...l, fixedVideoUser: { userId } })),
      ...(backgroundImage === undefined ? {} : { backgroundImage }),
    },
  });

  it('mix.backgroundImage draws an image uploaded through the admin API under the users, scaled to the output; updatePlugin swaps and removes it live without a new RTMP connection; a restarted job draws the current one', async () => {
    const put = await admin('/mix-images/stage', { method: 'PUT', headers: { 'content-type': 'image/png' }, body: makePng(images, 'stage', 'yellow', 'white') });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ name: 'stage', type: 'png', width: 64, height: 36 });
    expect((await admin('/mix-images/plain', { method: 'PUT', body: makePng(images, 'plain', 'white', 'white') })).status).toBe(200);
    const listed = (await (await admin('/mix-images')).json()) as { images: { name: string }[] };
    expect(listed.images.map((i) => i.name)).toEqual(['plain', 'stage']);

    const alice = await joined('alice', 14201);
    const name = 'bg14201';
    const url = rtmp.url(name);
    expect(await cdn(alice, 'startPlugin', mixOptions(url, 'stage'))).toMatchObject({ ok: true });
    // Stretched from 64x36 to the whole output: its yellow half left of the user, its white half right.
    await expectColours(url, points, { left: 'yellow', user: 'red', right: 'white' });
    expect(await cdn(alice, 'updatePlugin', mixOptions(url, 'plain'))).toMatchObject({ ok: true });
    await expectColours(url, points, { left: 'white', user: 'red', right: 'white' });
    expect(rtmp.publishes(name)).toBe(1);
    expect(rtmp.publishesDone(name)).toHaveLength(0);
    // A job that dies comes back with the image of the last update (a new RTMP connection, then).
    const [job] = ((await (await admin('/jobs')).json()) as { jobs: { jobId: string; pid: number }[] }).jobs;
    process.kill(job.pid, 'SIGKILL');
    await expect.poll(async () => ((await (await admin('/jobs')).json()) as { jobs: { state: string; restarts: number }[] }).jobs[0], { timeout: 30_000, interval: 500 })
      .toMatchObject({ state: 'running', restarts: 1 });
    await expect.poll(() => rtmp.publishes(name), { timeout: 10_000 }).toBe(2);
    await expectColours(url, points, { left: 'white', user: 'red', right: 'white' });
    // No image: the background colour again.
    expect(await cdn(alice, 'updatePlugin', mixOptions(url))).toMatchObject({ ok: true });
    await expectColours(url, points, { left: 'green', user: 'red', right: 'green' });
    expect(rtmp.publishes(name)).toBe(2);
    expect(rtmp.publishesDone(name)).toHaveLength(1);
    expect(await cdn(alice, 'stopPlugin', { target: { publishMode: 'PublishMixStreamToCDN' } })).toMatchObject({ ok: true });
    await alice.close();
  });

  it('an unknown image name gives START_MIX_TRANSCODE_FAILED, a malformed one INVALID_PARAMETER; another app cannot use the image; the admin API refuses what is not an image', async () => {
    expect((await admin('/mix-images/stage', { method: 'PUT', body: makePng(images, 'stage', 'yellow', 'white') })).status).toBe(200);
    const alice = await joined('alice', 14202);
    const url = rtmp.url('bg14202');
    const unknown = await cdn(alice, 'startPlugin', mixOptions(url, 'nope'));
    expect(unknown).toMatchObject({ ok: false, name: 'RtcError', extraCode: 16455 });
    expect(unknown.message).toMatch(/START_MIX_TRANSCODE_FAILED.*mix\.backgroundImage 'nope' is not an image of this app/);
    const malformed = await cdn(alice, 'startPlugin', mixOptions(url, '../stage'));
    expect(malformed).toMatchObject({ ok: false, name: 'RtcError', code: 5000 });
    expect(malformed.message).toMatch(/backgroundImage/);

    // App B: same server, its own folder; app A's name is unknown there, whatever B's user or admin does.
    const carol = await joined('carol', 14202, 'B');
    const crossApp = await cdn(carol, 'startPlugin', mixOptions(rtmp.url('bgB14202'), 'stage', 'carol'));
    expect(crossApp).toMatchObject({ ok: false, extraCode: 16455 });
    expect(crossApp.message).toMatch(/'stage' is not an image of this app/);
    expect(await (await admin('/mix-images', {}, APP_B.sdkAppId, APP_B.adminKey)).json()).toEqual({ images: [] });
    expect((await admin('/mix-images/stage', { method: 'DELETE' }, APP_B.sdkAppId, APP_B.adminKey)).status).toBe(404);
    expect((await admin('/mix-images/stage', { method: 'DELETE' }, TEST_APP.sdkAppId, APP_B.adminKey)).status).toBe(403);
    expect(rtmp.publishes('bgB14202')).toBe(0);

    expect((await admin('/mix-images/fake', { method: 'PUT', headers: { 'content-type': 'image/png' }, body: '<svg/>' })).status).toBe(400);
    expect((await admin('/mix-images/big', { method: 'PUT', body: new Uint8Array(3 * 1024 * 1024) })).status).toBe(413);
    expect((await admin('/mix-images/a.png', { method: 'PUT', body: makePng(images, 'dot', 'white', 'white') })).status).toBe(400);
    expect((await admin('/mix-images/stage', { method: 'DELETE' })).status).toBe(200);
    expect(await cdn(alice, 'startPlugin', mixOptions(url, 'stage'))).toMatchObject({ ok: false, extraCode: 16455 });
    await carol.close();
    await alice.close();
  });
});
