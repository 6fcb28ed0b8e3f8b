import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, joinDemo, joinDemoUrl, stageGeometry, type StageGeometry } from './harness/demo-page.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

/**
 * Issue 27's "Must show" items, each tried in real Chromium as a user would, and asserted by what the
 * page shows: the geometry of the tiles, decoded frames, the badge's count, the focus ring.
 */
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** The largest width of the videos decoded inside the element that `selector` names (0 before a frame). */
const videoWidthIn = (page: Page, selector: string) =>
  page.evaluate((sel) => Math.max(0, ...[...document.querySelectorAll(`${sel} video`)].map((v) => (v as HTMLVideoElement).videoWidth)), selector);

const framesIn = (page: Page, selector: string) =>
  page.evaluate((sel) => Math.max(0, ...[...document.querySelectorAll(`${sel} video`)].map((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames)), selector);

/** Asserts the tiles are inside the viewport, do not overlap, and the page scrolls in no direction. */
function expectFitted(geometry: StageGeometry) {
  const { viewport, scroll, tiles, controlBar } = geometry;
  expect(scroll.width).toBeLessThanOrEqual(viewport.width);
  expect(scroll.height).toBeLessThanOrEqual(viewport.height);
  for (const tile of tiles) {
    expect(tile.x).toBeGreaterThanOrEqual(0);
    expect(tile.y).toBeGreaterThanOrEqual(0);
    expect(tile.x + tile.width).toBeLessThanOrEqual(viewport.width + 0.5);
    // Tiles end above the control bar.
    expect(tile.y + tile.height).toBeLessThanOrEqual(controlBar.y + 0.5);
  }
  for (let i = 0; i < tiles.length; i++) {
    for (let j = i + 1; j < tiles.length; j++) {
      const a = tiles[i];
      const b = tiles[j];
      const overlapX = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const overlapY = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      expect(overlapX <= 0.5 || overlapY <= 0.5, `tiles ${a.key} and ${b.key} overlap`).toBe(true);
    }
  }
  expect(controlBar.y + controlBar.height).toBeLessThanOrEqual(viewport.height + 0.5);
}

/**
 * The geometry once the layout's animation has ended (no running animation, and two reads 150 ms apart
 * agree). The page is brought to the front first: a background tab's transitions do not advance.
 */
async function settledGeometry(page: Page): Promise<StageGeometry> {
  await page.bringToFront();
  await expect.poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length), { timeout: 5_000, interval: 100 }).toBe(0);
  let last = '';
  let geometry = await stageGeometry(page);
  await expect.poll(async () => {
    geometry = await stageGeometry(page);
    const now = JSON.stringify(geometry);
    const same = now === last;
    last = now;
    return same;
  }, { timeout: 5_000, interval: 150 }).toBe(true);
  return geometry;
}

const coverage = (geometry: StageGeometry) =>
  geometry.tiles.reduce((sum, tile) => sum + tile.width * tile.height, 0) / (geometry.viewport.width * geometry.viewport.height);

describe('the demo as a meeting app (issue 27, Must show)', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    // Dev mode, and an admin key for the app: the demo's host tools use it.
    server = await startTestServer({ devMode: true, apps: [{ ...TEST_APP, adminKey: 'demo-e2e-admin-key-0123456789abcdef' }] });
    browser = await launchBrowser(['--use-fake-device-for-media-stream=device-count=3']);
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('pre-join with a playing preview and device pickers; the time from opening the URL to seeing yourself', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    const opened = Date.now();
    await page.goto(server.url + '/');
    const preview = page.getByTestId('preview-video');
    await expect.poll(() => preview.evaluate((v) => (v as HTMLVideoElement).videoWidth), { timeout: 15_000, interval: 50 }).toBeGreaterThan(0);
    const seeYourselfMs = Date.now() - opened;
    // Playing: frames keep coming.
    const frames = () => preview.evaluate((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames);
    const before = await frames();
    await expect.poll(frames, { timeout: 5_000, interval: 100 }).toBeGreaterThan(before + 5);
    // The fake microphone beeps: the meter moves.
    await expect.poll(async () => Number(await page.getByTestId('prejoin-mic-level').getAttribute('data-level')), { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    // Three fake cameras and microphones are offered (plus the default).
    await expect.poll(() => page.getByTestId('prejoin-camera').locator('option').count(), { timeout: 10_000 }).toBe(4);
    await expect.poll(() => page.getByTestId('prejoin-microphone').locator('option').count()).toBeGreaterThan(1);
    expect(await page.getByTestId('prejoin-speaker').count()).toBe(1);
    await page.screenshot({ path: `${ARTIFACTS}demo-prejoin.png` });
    // Another camera: the preview follows.
    const cameras = await page.getByTestId('prejoin-camera').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    await page.getByTestId('prejoin-camera').selectOption(cameras[2]);
    await expect.poll(() => preview.evaluate((v) => ((v as HTMLVideoElement).srcObject as MediaStream | null)?.getVideoTracks()[0]?.getSettings().deviceId), { timeout: 10_000 }).toBe(cameras[2]);
    expect(await axeViolations(page)).toEqual([]);
    // Camera off before joining: no preview, and the room starts without the camera.
    await page.getByTestId('join-camera').click();
    await expect.poll(() => page.getByTestId('prejoin-preview').getAttribute('data-state')).toBe('off');
    await page.getByTestId('input-userid').fill('prejoin-user');
    await page.getByTestId('input-roomid').fill('7100');
    await page.getByTestId('join-button').click();
    await page.getByTestId('room-view').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByTestId('toggle-mic').getAttribute('data-state'), { timeout: 10_000 }).toBe('on');
    expect(await page.getByTestId('toggle-camera').getAttribute('data-state')).toBe('off');
    console.log(`[demo bench] open URL → see yourself: ${seeYourselfMs} ms`);
    expect(seeYourselfMs).toBeLessThan(15_000);
    await page.close();
  });

  it('a denied camera is explained in words', async () => {
    // A browser that asks before giving the camera (no fake consent); headless, nobody answers: refused.
    const asking = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true,
      args: CHROMIUM_ARGS.filter((arg) => arg !== '--use-fake-ui-for-media-stream') });
    const page = await asking.newPage();
    await page.goto(server.url + '/');
    const error = page.getByTestId('preview-error');
    await error.waitFor({ timeout: 15_000 });
    const text = await error.textContent();
    expect(text).toMatch(/blocked the camera/i);
    expect(text).toMatch(/allow/i);
    expect(text).not.toMatch(/\b5\d{3}\b/);
    await page.screenshot({ path: `${ARTIFACTS}demo-prejoin-denied.png` });
    await asking.close();
  });

  it('a 1-, 2-, 6- and 12-user meeting at 1440×900: videos cover most of the viewport and nothing scrolls or overlaps; Join to the first remote frame', async () => {
    const room = '7200';
    const host = await joinDemo(browser.context, server.url, 'host', room);
    await host.setViewportSize(DESKTOP);
    const others: Page[] = [];
    const coverages: string[] = [];
    for (const count of [1, 2, 6, 12]) {
      while (others.length + 1 < count) {
        // The second user publishes a camera; the rest join with camera and microphone off (cheap on 2 cores).
        const withCamera = others.length === 0;
        const joined = Date.now();
        const guest = await joinDemoUrl(browser.context, server.url, { userId: `guest${others.length + 1}`, roomId: room, camera: withCamera, mic: false });
        others.push(guest);
        if (withCamera) {
          const hostTile = `[data-testid="remote-tile"][data-user-id="host"] [data-testid="remote-video"]`;
          await expect.poll(() => videoWidthIn(guest, hostTile), { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
          console.log(`[demo bench] Join → first remote frame: ${Date.now() - joined} ms (from opening the invite URL)`);
        }
      }
      await expect.poll(() => host.locator('[data-testid="remote-tile"]').count(), { timeout: 30_000 }).toBe(count - 1);
      if (count >= 2) {
        await expect.poll(() => videoWidthIn(host, '[data-testid="remote-tile"][data-user-id="guest1"]'), { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
      }
      await expect.poll(async () => (await stageGeometry(host)).tiles.length, { timeout: 10_000 }).toBe(count);
      const geometry = await settledGeometry(host);
      expectFitted(geometry);
      expect(coverage(geometry)).toBeGreaterThan(0.5);
      coverages.push(`${count}: ${Math.round(coverage(geometry) * 100)} %`);
      await host.screenshot({ path: `${ARTIFACTS}demo-meeting-${count}-users.png` });
      expect(await axeViolations(host)).toEqual([]);
    }
    console.log(`[demo bench] share of the 1440×900 viewport covered by video tiles: ${coverages.join(', ')}`);
    // A small window: tiles would get smaller than a face, so the grid pages; every user is on one page.
    await host.setViewportSize({ width: 600, height: 500 });
    await expect.poll(async () => Number(await host.getByTestId('stage').getAttribute('data-pages')), { timeout: 5_000 }).toBeGreaterThan(1);
    const pages = Number(await host.getByTestId('stage').getAttribute('data-pages'));
    const seen = new Set<string>();
    for (let page = 0; page < pages; page++) {
      if (page > 0) await host.getByTestId('stage-next').click();
      await expect.poll(() => host.getByTestId('stage').getAttribute('data-page')).toBe(String(page));
      const geometry = await settledGeometry(host);
      expectFitted(geometry);
      for (const tile of geometry.tiles) expect(tile.width).toBeGreaterThanOrEqual(180);
      const shown = await host.locator('[data-testid="local-tile"]:not([hidden]), [data-testid="remote-tile"]:not([hidden])')
        .evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('data-user-id') ?? 'me'));
      for (const id of shown) seen.add(id);
    }
    expect(seen.size).toBe(12);
    await host.screenshot({ path: `${ARTIFACTS}demo-meeting-paged.png` });
    for (const page of [host, ...others]) await page.close();
  }, 240_000); // Twelve pages join one by one: on a loaded 2-core machine this took up to 100 s.

  it('screen share in focus: a remote screen share shows big on the other page, with a film strip', async () => {
    const room = '7300';
    const ada = await joinDemo(browser.context, server.url, 'ada', room);
    const grace = await joinDemo(browser.context, server.url, 'grace', room);
    await grace.setViewportSize(DESKTOP);
    await grace.locator('[data-testid="remote-tile"][data-user-id="ada"]').waitFor({ timeout: 15_000 });
    await ada.getByTestId('toggle-screen').click();
    await ada.getByTestId('presenting').waitFor({ timeout: 15_000 });
    const screen = grace.locator('[data-testid="screen-tile"][data-user-id="ada"]');
    await screen.waitFor({ timeout: 20_000 });
    await expect.poll(() => framesIn(grace, '[data-testid="screen-tile"]'), { timeout: 30_000, interval: 250 }).toBeGreaterThan(5);
    expect(await videoWidthIn(grace, '[data-testid="screen-tile"]')).toBeGreaterThan(0);
    await expect.poll(() => grace.getByTestId('stage').getAttribute('data-layout')).toBe('focus');
    await expect.poll(async () => {
      const geometry = await stageGeometry(grace);
      const focus = geometry.tiles.find((tile) => tile.key === 'screen-tile');
      const rest = geometry.tiles.filter((tile) => tile.key !== 'screen-tile');
      return focus !== undefined && rest.length === 2 && rest.every((tile) => tile.width * tile.height * 4 < focus.width * focus.height);
    }, { timeout: 5_000, interval: 200 }).toBe(true);
    expectFitted(await settledGeometry(grace));
    await grace.screenshot({ path: `${ARTIFACTS}demo-screen-share-focus.png` });
    expect(await axeViolations(grace)).toEqual([]);
    // Pinning a camera tile puts it in focus instead; unpinning gives the focus back to the screen.
    await grace.locator('[data-testid="local-tile"]').hover();
    await grace.locator('[data-testid="local-tile"] [data-testid="pin-tile"]').click();
    await expect.poll(() => grace.locator('[data-testid="local-tile"]').getAttribute('data-pinned')).toBe('true');
    await grace.getByTestId('unpin').click();
    await expect.poll(() => grace.locator('[data-testid="screen-tile"]').getAttribute('data-pinned')).toBe('true');
    // Sharing stops: the screen tile goes, the grid comes back.
    await ada.getByTestId('toggle-screen').click();
    await expect.poll(() => grace.locator('[data-testid="screen-tile"]').count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => grace.getByTestId('stage').getAttribute('data-layout')).toBe('grid');
    await ada.close();
    await grace.close();
  });

  it('active speaker highlighted; big or small stream chosen by the size of the tile', async () => {
    const room = '7350';
    const ada = await joinDemo(browser.context, server.url, 'ada', room);
    await ada.setViewportSize(DESKTOP);
    const grace = await joinDemo(browser.context, server.url, 'grace', room);
    const graceTile = ada.locator('[data-testid="remote-tile"][data-user-id="grace"]');
    await graceTile.waitFor({ timeout: 15_000 });
    // Grace's fake microphone beeps: her tile on ada's page gets the speaker ring (from the audio-volume event).
    await expect.poll(() => graceTile.getAttribute('data-active-speaker'), { timeout: 20_000, interval: 100 }).toBe('true');
    // A big tile receives the big stream.
    const width = () => videoWidthIn(ada, '[data-testid="remote-tile"][data-user-id="grace"]');
    await expect.poll(width, { timeout: 20_000, interval: 250 }).toBeGreaterThan(160);
    expect(await graceTile.getByTestId('remote-playback').getAttribute('data-small')).toBe('false');
    // Ada pins herself: grace's tile goes to the film strip, under 400 px wide, and gets the small stream.
    await ada.locator('[data-testid="local-tile"]').hover();
    await ada.locator('[data-testid="local-tile"] [data-testid="pin-tile"]').click();
    await expect.poll(() => graceTile.getByTestId('remote-playback').getAttribute('data-small'), { timeout: 5_000 }).toBe('true');
    await ada.bringToFront();
    await expect.poll(async () => (await graceTile.boundingBox())?.width, { timeout: 5_000 }).toBeLessThan(400);
    await expect.poll(width, { timeout: 20_000, interval: 250 }).toBe(160);
    await ada.screenshot({ path: `${ARTIFACTS}demo-pinned-small-stream.png` });
    // Unpinned: a big tile again, the big stream again.
    await ada.getByTestId('unpin').click();
    await expect.poll(width, { timeout: 20_000, interval: 250 }).toBeGreaterThan(160);
    // Stats for nerds: figures on the tiles.
    await ada.getByTestId('toggle-settings').click();
    await ada.getByTestId('toggle-stats').check();
    await expect.poll(() => graceTile.getByTestId('stats-overlay').isVisible(), { timeout: 10_000 }).toBe(true);
    await ada.close();
    await grace.close();
  });

  it('effects from the control bar: blur, touch-up and noise suppression start, and the other page keeps getting video', async () => {
    const room = '7370';
    const ada = await joinDemo(browser.context, server.url, 'ada', room);
    const grace = await joinDemo(browser.context, server.url, 'grace', room);
    const adaVideo = '[data-testid="remote-tile"][data-user-id="ada"]';
    await expect.poll(() => framesIn(grace, adaVideo), { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
    await expect.poll(() => ada.getByTestId('toggle-mic').getAttribute('data-state'), { timeout: 10_000 }).toBe('on');
    await ada.bringToFront();
    await ada.getByTestId('effects-menu').click();
    await ada.getByTestId('effect-beauty').check();
    await expect.poll(() => ada.getByTestId('effect-beauty').getAttribute('data-state'), { timeout: 30_000 }).toBe('on');
    await ada.getByTestId('effect-blur').check();
    await expect.poll(() => ada.getByTestId('effect-blur').getAttribute('data-state'), { timeout: 30_000 }).toBe('on');
    await ada.getByTestId('effect-denoise').check();
    await expect.poll(() => ada.getByTestId('effect-denoise').getAttribute('data-state'), { timeout: 30_000 }).toBe('on');
    expect(await ada.getByTestId('effect-error').count()).toBe(0);
    expect(await ada.getByTestId('effects-menu').getAttribute('class')).toContain('is-active');
    // The processed camera still reaches grace.
    const before = await framesIn(grace, adaVideo);
    await expect.poll(() => framesIn(grace, adaVideo), { timeout: 15_000, interval: 250 }).toBeGreaterThan(before + 10);
    await ada.screenshot({ path: `${ARTIFACTS}demo-effects.png` });
    for (const effect of ['blur', 'beauty', 'denoise']) {
      await ada.getByTestId(`effect-${effect}`).uncheck();
      await expect.poll(() => ada.getByTestId(`effect-${effect}`).getAttribute('data-state'), { timeout: 15_000 }).toBe('off');
    }
    expect(await ada.getByTestId('effects-menu').getAttribute('class')).not.toContain('is-active');
    await ada.close();
    await grace.close();
  });

  it('invite link and a lost connection: the link joins the same room; going offline shows a banner that goes when back', async () => {
    const ada = await joinDemo(browser.context, server.url, 'ada', '7380');
    await ada.getByTestId('toggle-settings').click();
    const link = await ada.getByTestId('invite-link').inputValue();
    expect(link).toContain('roomId=7380');
    // The guest in a browser of their own: going offline there leaves the other tests' pages alone.
    const own = await launchBrowser();
    try {
      const guest = await own.context.newPage();
      await guest.goto(link);
      await guest.getByTestId('room-view').waitFor({ timeout: 20_000 });
      await expect.poll(() => guest.locator('[data-testid="remote-tile"][data-user-id="ada"]').count(), { timeout: 15_000 }).toBe(1);
      // The network goes away: a banner says so (never silently) once the SDK declares the link lost (its
      // ping time-out is 18 s), and goes when the room is back.
      await own.context.setOffline(true);
      await guest.getByTestId('connection-banner').waitFor({ timeout: 40_000 });
      expect(await guest.getByTestId('connection-banner').textContent()).toMatch(/reconnecting|disconnected/i);
      await guest.screenshot({ path: `${ARTIFACTS}demo-reconnecting.png` });
      await own.context.setOffline(false);
      await guest.getByTestId('connection-banner').waitFor({ state: 'detached', timeout: 40_000 });
      await expect.poll(() => guest.getByTestId('connection-state').getAttribute('data-state'), { timeout: 30_000 }).toMatch(/^(CONNECTED|RECONNECTED)$/);
    } finally {
      await own.close();
    }
    await ada.close();
  });

  it('participants panel: the host (dev app admin key) removes a user, who is told in words', async () => {
    const ada = await joinDemo(browser.context, server.url, 'ada', '7390');
    const grace = await joinDemo(browser.context, server.url, 'grace', '7390');
    await ada.getByTestId('toggle-people').click();
    await ada.getByTestId('host-status').waitFor({ timeout: 10_000 });
    const row = ada.locator('[data-testid="participant"][data-user-id="grace"]');
    await row.waitFor({ timeout: 15_000 });
    await row.getByTestId('kick-user').click();
    await grace.getByTestId('join-form').waitFor({ timeout: 15_000 });
    expect(await grace.getByTestId('room-notice').textContent()).toMatch(/removed from the room/);
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    expect(await ada.getByTestId('host-error').count()).toBe(0);
    await ada.close();
    await grace.close();
  });

  it('chat between two users, with an unread badge', async () => {
    const room = '7400';
    const ada = await joinDemo(browser.context, server.url, 'ada', room);
    const grace = await joinDemo(browser.context, server.url, 'grace', room);
    await ada.locator('[data-testid="remote-tile"][data-user-id="grace"]').waitFor({ timeout: 15_000 });
    await grace.getByTestId('toggle-chat').click();
    const input = grace.getByTestId('chat-input');
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    // The data link may still be opening: send until the first line arrives.
    await expect.poll(async () => {
      await input.fill('hello ada');
      await input.press('Enter');
      return ada.locator('[data-testid="chat-line"][data-user-id="grace"]').count();
    }, { timeout: 15_000, interval: 1000 }).toBeGreaterThan(0);
    const received = await ada.locator('[data-testid="chat-line"][data-user-id="grace"]').count();
    await input.fill('are you there?');
    await input.press('Enter');
    await expect.poll(() => ada.getByTestId('chat-badge').textContent(), { timeout: 10_000 }).toBe(String(received + 1));
    await ada.screenshot({ path: `${ARTIFACTS}demo-chat-unread.png` });
    await ada.getByTestId('toggle-chat').click();
    await expect.poll(() => ada.getByTestId('chat-badge').count()).toBe(0);
    await expect.poll(() => ada.locator('[data-testid="chat-line"]').last().isVisible()).toBe(true);
    expect(await ada.locator('[data-testid="chat-line"]').last().textContent()).toContain('are you there?');
    await ada.getByTestId('chat-input').fill('yes!');
    await ada.getByTestId('chat-input').press('Enter');
    await expect.poll(() => grace.locator('[data-testid="chat-line"][data-user-id="ada"]').last().textContent(), { timeout: 10_000 }).toContain('yes!');
    expectFitted(await settledGeometry(ada));
    expect(await axeViolations(ada)).toEqual([]);
    await ada.close();
    await grace.close();
  });

  it('a phone viewport (390×844) with no horizontal scroll and the video filling most of the screen', async () => {
    const room = '7500';
    const ada = await joinDemo(browser.context, server.url, 'ada', room);
    const phone = await browser.context.newPage();
    await phone.setViewportSize(PHONE);
    await phone.goto(server.url + '/');
    const scrollWidth = () => phone.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
    await phone.getByTestId('join-form').waitFor();
    expect(await scrollWidth()).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(phone)).toEqual([]);
    await phone.close();
    const grace = await joinDemo(browser.context, server.url, 'grace', room);
    await grace.setViewportSize(PHONE);
    await expect.poll(() => videoWidthIn(grace, '[data-testid="remote-tile"][data-user-id="ada"]'), { timeout: 30_000, interval: 250 }).toBeGreaterThan(0);
    const geometry = await settledGeometry(grace);
    expectFitted(geometry);
    expect(coverage(geometry)).toBeGreaterThan(0.6);
    console.log(`[demo bench] share of the 390×844 viewport covered by 2 video tiles: ${Math.round(coverage(geometry) * 100)} %`);
    await grace.screenshot({ path: `${ARTIFACTS}demo-phone.png` });
    expect(await axeViolations(grace)).toEqual([]);
    // A panel covers the stage on a phone, and still nothing scrolls sideways.
    await grace.getByTestId('toggle-chat').click();
    expect((await stageGeometry(grace)).scroll.width).toBeLessThanOrEqual(PHONE.width);
    await grace.screenshot({ path: `${ARTIFACTS}demo-phone-chat.png` });
    await ada.close();
    await grace.close();
  });

  it('the control bar fully reachable by keyboard, with focus rings and shortcuts', async () => {
    const page = await joinDemo(browser.context, server.url, 'keys', '7600');
    await page.setViewportSize(DESKTOP);
    await expect.poll(() => page.getByTestId('toggle-mic').getAttribute('data-state'), { timeout: 10_000 }).toBe('on');
    // The buttons a user sees on the bar (not those inside a closed device menu).
    const controls = await page.getByTestId('control-bar').locator('button').evaluateAll((buttons) =>
      buttons.filter((b) => b.checkVisibility()).map((b) => b.getAttribute('data-testid')).filter((id): id is string => id !== null));
    expect(controls).toEqual(expect.arrayContaining(['toggle-mic', 'mic-menu', 'toggle-camera', 'camera-menu', 'toggle-screen', 'leave-button', 'toggle-chat', 'toggle-people', 'toggle-settings']));
    // Tab from the top of the page: every control gets the focus, with a visible ring.
    await page.locator('body').focus();
    const reached = new Map<string, string>();
    for (let i = 0; i < 60 && reached.size < controls.length; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element?.closest('[data-testid="control-bar"]')) return null;
        const style = getComputedStyle(element);
        return { id: element.getAttribute('data-testid') ?? '', ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 ? 'ring' : 'none' };
      });
      if (focused) reached.set(focused.id, focused.ring);
    }
    for (const id of controls) expect(reached.get(id), `focus ring on ${id}`).toBe('ring');
    // Enter on a focused control works; Escape closes what it opened.
    await page.getByTestId('camera-menu').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('camera-menu-panel').waitFor({ state: 'visible' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('pick-camera');
    await page.keyboard.press('Escape');
    await page.getByTestId('camera-menu-panel').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('camera-menu');
    // Shortcuts: M for the microphone, C for the chat, Escape closes it.
    await page.locator('body').focus();
    await page.keyboard.press('m');
    await expect.poll(() => page.getByTestId('toggle-mic').getAttribute('data-state'), { timeout: 10_000 }).toBe('off');
    await page.keyboard.press('c');
    await page.getByTestId('chat-side').waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.getByTestId('chat-side').waitFor({ state: 'hidden' });
    await page.keyboard.press('s');
    await page.getByTestId('settings-side').waitFor({ state: 'visible' });
    await page.screenshot({ path: `${ARTIFACTS}demo-settings.png` });
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('p');
    await page.getByTestId('people-side').waitFor({ state: 'visible' });
    expect(await page.getByTestId('participant').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  });
});
