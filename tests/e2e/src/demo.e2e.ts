import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { joinDemo } from './harness/demo-page.js';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { startTestServer, type TestServer } from './harness/server.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Frames the browser has presented in the videos inside an element. */
const framesShownIn = (page: Page, selector: string) =>
  page.evaluate((sel) => Math.min(...[...document.querySelectorAll(`${sel} video`)].map((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames)), selector);

/** Width of the video the demo renders inside an element (0 until frames are decoded). */
const videoWidthIn = (page: Page, selector: string) =>
  page.evaluate((sel) => Math.max(0, ...[...document.querySelectorAll(`${sel} video`)].map((v) => (v as HTMLVideoElement).videoWidth)), selector);

describe('the demo app, tried as a new user would', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    // Dev mode: the demo gets the app id and key from the server and makes userSigs in the browser.
    server = await startTestServer({ devMode: true });
    browser = await launchBrowser();
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const joinAs = (userId: string, live?: { role: 'anchor' | 'audience' }, roomId = '4242') =>
    joinDemo(browser.context, server.url, userId, roomId, live);

  it('joins from two pages and shows both videos on each', async () => {
    const ada = await joinAs('ada');
    const grace = await joinAs('grace');
    for (const [page, other] of [[ada, 'grace'], [grace, 'ada']] as const) {
      const tile = page.locator(`[data-testid="remote-tile"][data-user-id="${other}"]`);
      await tile.waitFor({ timeout: 15_000 });
      await expect.poll(() => tile.getByTestId('remote-name').textContent()).toContain(other);
      await expect.poll(() => videoWidthIn(page, `[data-testid="remote-tile"][data-user-id="${other}"] [data-testid="remote-video"]`), { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
      await expect.poll(() => videoWidthIn(page, '[data-testid="local-video"]'), { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
      await expect.poll(() => page.getByTestId('connection-state').getAttribute('data-state')).toBe('CONNECTED');
    }
    // Let both pages show a good number of remote frames before keeping the picture.
    for (const page of [ada, grace]) {
      await expect.poll(() => framesShownIn(page, '[data-testid="remote-video"]'), { timeout: 15_000, interval: 250 }).toBeGreaterThan(20);
    }
    await ada.screenshot({ path: `${ARTIFACTS}demo-two-users-ada.png` });
    await grace.screenshot({ path: `${ARTIFACTS}demo-two-users-grace.png` });
    // Leaving takes the user back to the form and removes their tile on the other page.
    await grace.getByTestId('leave-button').click();
    await grace.getByTestId('join-form').waitFor({ timeout: 10_000 });
    await expect.poll(() => ada.locator('[data-testid="remote-tile"][data-user-id="grace"]').count(), { timeout: 10_000 }).toBe(0);
    await ada.close();
    await grace.close();
  });
});
