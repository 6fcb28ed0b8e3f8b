import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, DESKTOP, PHONE, startDemoFixture, videoWidthIn } from './demo-helpers.js';
import { axeViolations, joinDemo, joinDemoUrl } from './harness/demo-page.js';
import type { LaunchedBrowser } from './harness/browser.js';
import { RtmpCdn } from './harness/rtmp-cdn.js';
import { TEST_APP, type TestServer } from './harness/server.js';

const run = promisify(execFile);

/**
 * Issue 27's live-room and host items, and the plugins the demo shows, in real Chromium: the pre-join device
 * check (DeviceDetector), the Chinese UI, the voice changer, raise hand → invitation → on stage, ask to mute,
 * recording through the admin API, the CDN relay switch (a loopback nginx-rtmp ingest, read back with
 * ffmpeg), the admin page in Chinese in both themes; axe-core on the new screens.
 */
describe('the demo: device check, Chinese, live stage and host controls (issue 27)', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let rtmp: RtmpCdn;
  /** The CDN test's user, still in room 7701 for the admin page's screenshot. */
  let relayer: Page | undefined;

  beforeAll(async () => {
    [{ server, browser }, rtmp] = await Promise.all([startDemoFixture(), RtmpCdn.start()]);
    // Every page counts its peer connections' setLocalDescription calls: each is a negotiation.
    await browser.context.addInitScript(() => {
      const proto = RTCPeerConnection.prototype;
      const original = proto.setLocalDescription;
      (window as unknown as { __negotiations: number }).__negotiations = 0;
      proto.setLocalDescription = function (this: RTCPeerConnection, ...args: Parameters<typeof original>) {
        (window as unknown as { __negotiations: number }).__negotiations++;
        return original.apply(this, args);
      } as typeof original;
    });
  });

  /** The room's recording jobs as the admin API lists them (the demo fixture's admin key). */
  const recordJobs = async () => {
    const response = await fetch(`${server.url}/admin/v1/apps/${TEST_APP.sdkAppId}/jobs`, { headers: { authorization: 'Bearer demo-e2e-admin-key-0123456789abcdef' } });
    const { jobs } = (await response.json()) as { jobs: { jobId: string; kind: string; roomKey: string; state: string }[] };
    return jobs.filter((job) => job.kind === 'record-mix' && job.roomKey === '7700' && job.state !== 'stopped' && job.state !== 'failed');
  };

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await rtmp?.close();
  });

  it('zh UI renders, and the pre-join device check runs the DeviceDetector (in Chinese) and shows its result; axe clean at both sizes', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.url}/?lang=zh`);
    await page.getByTestId('join-form').waitFor();
    expect(await page.locator('#join-title').textContent()).toBe('准备好加入了吗？');
    expect(await page.getByTestId('join-button').textContent()).toBe('立即加入');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByTestId('run-device-check').click();
    const dialog = page.locator('#trtc-device-detector');
    await dialog.waitFor({ timeout: 10_000 });
    // The plugin got the demo's language.
    expect(await dialog.locator('h2').textContent()).toBe('设备检测');
    for (const step of ['camera', 'microphone', 'speaker']) {
      await expect.poll(() => dialog.getAttribute('data-step'), { timeout: 10_000 }).toBe(step);
      await dialog.locator('[data-dd="yes"]').click();
    }
    await expect.poll(() => dialog.getAttribute('data-step'), { timeout: 10_000 }).toBe('report');
    await dialog.locator('[data-dd="finish"]').click();
    const result = page.getByTestId('device-check-result');
    await result.waitFor({ timeout: 10_000 });
    expect(await result.locator('li[data-ok="true"]').count()).toBe(3);
    expect(await result.textContent()).toContain('摄像头: 正常');
    // A form error in words, in Chinese, from the same table.
    await page.getByTestId('input-roomid').fill('abc');
    await page.getByTestId('join-button').click();
    expect(await page.getByTestId('join-error').textContent()).toBe('房间号必须是 1 到 4294967294 之间的整数。');
    await page.getByTestId('input-roomid').fill('7799');
    await page.screenshot({ path: `${ARTIFACTS}demo-zh-prejoin.png` });
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Back to English from the picker, for the rest of this browser's pages (the choice is remembered).
    await page.getByTestId('pick-language').selectOption('en');
    expect(await page.locator('#join-title').textContent()).toBe('Ready to join?');
    await page.close();
  });

  it('live: raise hand → the host sees it and invites → the hand-raiser is on stage; voice changer without renegotiation; ask to mute; recording start/stop', async () => {
    const room = '7700';
    const host = await joinDemo(browser.context, server.url, 'host', room, { role: 'anchor' });
    const viewer = await joinDemo(browser.context, server.url, 'viewer', room, { role: 'audience' });
    // The audience watches the host (no tile of its own, no camera button) and is counted as watching.
    await expect.poll(() => videoWidthIn(viewer, '[data-testid="remote-tile"][data-user-id="host"] [data-testid="remote-video"]'), { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    expect(await viewer.locator('[data-testid="local-tile"]:not([hidden])').count()).toBe(0);
    expect(await viewer.getByTestId('toggle-camera').isDisabled()).toBe(true);
    await expect.poll(() => host.getByTestId('viewer-count').textContent(), { timeout: 15_000 }).toBe('1');

    // Raise hand: the viewer becomes an anchor who publishes nothing, still counted as watching.
    await viewer.getByTestId('raise-hand').click();
    await expect.poll(() => viewer.getByTestId('my-role').getAttribute('data-role'), { timeout: 15_000 }).toBe('hand');
    const notice = host.locator('[data-testid="hand-notice"][data-user-id="viewer"]');
    await notice.waitFor({ timeout: 15_000 });
    await host.getByTestId('toggle-people').click();
    const row = host.locator('[data-testid="participant"][data-user-id="viewer"]');
    await row.getByTestId('hand-raised').waitFor({ timeout: 5_000 });
    // The count settles on 1 (one CI run read 2 just after the role switch: the hand-raiser counted twice for a moment).
    await expect.poll(() => host.getByTestId('viewer-count').textContent(), { timeout: 10_000 }).toBe('1');
    await host.screenshot({ path: `${ARTIFACTS}demo-live-hand.png` });

    // The host invites: the viewer's demo takes it up (hand up), goes on stage and publishes.
    await row.getByTestId('invite-user').click();
    await expect.poll(() => viewer.getByTestId('my-role').getAttribute('data-role'), { timeout: 15_000 }).toBe('anchor');
    const viewerVideo = '[data-testid="remote-tile"][data-user-id="viewer"] [data-testid="remote-video"]';
    await expect.poll(() => videoWidthIn(host, viewerVideo), { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(() => host.getByTestId('viewer-count').textContent(), { timeout: 15_000 }).toBe('0');
    await expect.poll(() => row.getByTestId('hand-raised').count(), { timeout: 10_000 }).toBe(0);

    // Voice changer: a voice by name, then another; the microphone's sender keeps its track (no new offer).
    const micTile = host.locator('[data-testid="remote-tile"][data-user-id="viewer"] [data-testid="tile-mic"]');
    await expect.poll(() => micTile.getAttribute('data-state'), { timeout: 15_000 }).toBe('on');
    const offers = await negotiations(viewer);
    await viewer.getByTestId('effects-menu').click();
    const voice = viewer.getByTestId('pick-voice');
    expect(await voice.locator('option[value="2"]').textContent()).toBe('Little girl');
    await voice.selectOption('2');
    await expect.poll(() => voice.getAttribute('data-busy'), { timeout: 15_000 }).toBe('false');
    await voice.selectOption('3');
    await expect.poll(() => voice.getAttribute('data-busy'), { timeout: 15_000 }).toBe('false');
    expect(await voice.inputValue()).toBe('3');
    expect(await viewer.getByTestId('effect-error').count()).toBe(0);
    expect(await negotiations(viewer)).toBe(offers);
    await viewer.keyboard.press('Escape');

    // Ask to mute: the viewer's demo turns its microphone off and says why; the host's tile shows it.
    await row.getByTestId('ask-mute').click();
    await viewer.getByTestId('mute-notice').waitFor({ timeout: 10_000 });
    await expect.poll(() => viewer.getByTestId('toggle-mic').getAttribute('data-state'), { timeout: 10_000 }).toBe('off');
    await expect.poll(() => micTile.getAttribute('data-state'), { timeout: 15_000 }).toBe('off');
    await viewer.screenshot({ path: `${ARTIFACTS}demo-live-asked-to-mute.png` });

    // Recording through the admin API: the host starts it (the server lists a recording job of the room), then
    // stops it: the room has no recording job any more and the switch shows "off".
    const state = host.getByTestId('recording-state');
    await host.getByTestId('toggle-recording').click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 30_000, interval: 250 }).toBe('on');
    const first = (await recordJobs()).map((job) => job.jobId);
    expect(first.length).toBeGreaterThan(0);
    await host.getByTestId('toggle-recording').click();
    await expect.poll(async () => (await recordJobs()).length, { timeout: 20_000, interval: 250 }).toBe(0);
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 20_000, interval: 250 }).toBe('off');
    // Not started again: the recording manager's next ticks (every 500 ms) leave the room unrecorded, and the
    // demo's next read of the job list (every 2 s) still shows "off".
    const polls = Number(await state.getAttribute('data-polls'));
    await expect.poll(async () => Number(await state.getAttribute('data-polls')), { timeout: 10_000, interval: 250 }).toBeGreaterThan(polls + 1);
    expect(await recordJobs()).toEqual([]);
    expect(await state.getAttribute('data-state')).toBe('off');
    expect(await host.getByTestId('recording-error').count()).toBe(0);
    expect(await axeViolations(host)).toEqual([]);

    // Leaving the stage: back in the audience, counted as watching again.
    await viewer.getByTestId('switch-role').click();
    await expect.poll(() => viewer.getByTestId('my-role').getAttribute('data-role'), { timeout: 15_000 }).toBe('audience');
    await expect.poll(() => host.getByTestId('viewer-count').textContent(), { timeout: 15_000 }).toBe('1');
    await host.close();
    await viewer.close();
  });

  it('the CDN relay switch: the host turns it on in Settings and ffmpeg reads frames from the RTMP URL; off, and the stream ends', async () => {
    const name = 'demo7701';
    relayer = await joinDemoUrl(browser.context, server.url, { userId: 'relayer', roomId: '7701', camera: true, mic: true });
    await expect.poll(() => relayer?.getByTestId('toggle-camera').getAttribute('data-state'), { timeout: 15_000 }).toBe('on');
    await relayer.getByTestId('toggle-settings').click();
    await relayer.getByTestId('cdn-url').fill(rtmp.url(name));
    const toggle = relayer.getByTestId('toggle-cdn');
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('data-state'), { timeout: 20_000, interval: 250 }).toBe('on');
    expect(await relayer.getByTestId('cdn-state').textContent()).toContain(rtmp.url(name));
    expect(rtmp.publishes(name)).toBe(1);
    // What a CDN viewer gets: decoded frames of the camera (the fake device's picture is not black).
    const frame = await firstFrame(rtmp.url(name));
    expect(frame.length).toBe(64 * 36 * 3);
    expect(Math.max(...frame)).toBeGreaterThan(40);
    const stoppedAt = Date.now();
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('data-state'), { timeout: 10_000, interval: 100 }).toBe('off');
    await expect.poll(() => rtmp.publishesDone(name).length, { timeout: 5_000, interval: 100 }).toBe(1);
    expect(rtmp.publishesDone(name)[0].at - stoppedAt).toBeLessThanOrEqual(5_000);
    expect(await relayer.getByTestId('cdn-error').count()).toBe(0);
  });

  it('the admin page in Chinese, light and dark: signs in with the dev app, lists the room and its user; axe clean; no horizontal scroll on a phone', async () => {
    relayer ??= await joinDemoUrl(browser.context, server.url, { userId: 'relayer', roomId: '7701', camera: true, mic: false });
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => console.error('[admin page error]', error.message));
    await page.setViewportSize(DESKTOP);
    await page.goto(`${server.url}/admin.html?lang=zh`);
    expect(await page.locator('h1').textContent()).toBe('Conclave 管理');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByTestId('admin-use-dev').click();
    await page.getByTestId('admin-app-summary').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('admin-app-counts').textContent()).toMatch(/个房间 · \d+ 个用户$/);
    await page.getByTestId('admin-room-7701').click();
    const row = page.getByTestId('admin-user-relayer');
    await row.waitFor({ timeout: 10_000 });
    expect(await row.getByTestId('admin-kick-relayer').textContent()).toBe('踢出');
    expect(await page.locator('[data-testid="admin-users"] th').allTextContents()).toContain('推流');
    expect(await axeViolations(page)).toEqual([]);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor), { timeout: 5_000 })
        .toBe(colorScheme === 'light' ? 'rgb(244, 246, 250)' : 'rgb(15, 17, 23)');
      await page.screenshot({ path: `${ARTIFACTS}demo-admin-zh-${colorScheme}.png` });
    }
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    // Back to English for the rest of this browser's pages (the choice is remembered).
    await page.getByTestId('admin-language').selectOption('en');
    expect(await page.locator('h1').textContent()).toBe('Conclave admin');
    await page.close();
    await relayer.close();
  });
});

/**
 * The first decoded video frame (64×36 RGB) of a live RTMP stream, read as a CDN viewer would. Probes only a
 * little of the stream (the relay's FLV header names its codecs): ffmpeg's default analysis waits seconds.
 */
async function firstFrame(url: string): Promise<Buffer> {
  // A relay just started may not have sent its first video frame within that little probe ("does not contain any
  // stream"): read again until a frame decodes, for at most 20 s.
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const { stdout } = await run('ffmpeg', ['-v', 'error', '-analyzeduration', '500000', '-probesize', '131072', '-i', url, '-an',
        '-vf', 'scale=64:36', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { encoding: 'buffer', timeout: 15_000 });
      if (stdout.length > 0) return stdout;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`no video frame from ${url} within 20 s`);
    await new Promise((resolve) => setTimeout(resolve, 200)); // between attempts, not before an assertion
  }
}

function negotiations(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __negotiations: number }).__negotiations);
}
