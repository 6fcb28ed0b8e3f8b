import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { joinDemo } from './harness/demo-page.js';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { startTestServer, type TestServer } from './harness/server.js';

/** The demo's publishing controls: hide video, screen share, publish state, device pickers, profile. */
describe('the demo app: publishing controls', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    server = await startTestServer({ devMode: true });
    browser = await launchBrowser(['--use-fake-device-for-media-stream=device-count=3']);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const joinAs = (userId: string, roomId: string) => joinDemo(browser.context, server.url, userId, roomId);

  const publishState = (page: Page, media: string) => page.locator(`[data-testid="publish-state"] [data-media="${media}"]`).getAttribute('data-state');

  it('mute camera, share the screen, switch camera and profile: the other page follows', async () => {
    const ada = await joinAs('ada', '4343');
    const grace = await joinAs('grace', '4343');
    await expect.poll(() => publishState(ada, 'video'), { timeout: 15_000 }).toBe('started');
    await expect.poll(() => publishState(ada, 'audio'), { timeout: 15_000 }).toBe('started');
    const adaTile = grace.locator('[data-testid="remote-tile"][data-user-id="ada"]');
    await adaTile.waitFor({ timeout: 15_000 });
    await expect.poll(() => adaTile.getAttribute('data-video'), { timeout: 15_000 }).toBe('on');

    // The camera's menu (the arrow beside the camera button) holds the camera picker and "hide video".
    await ada.getByTestId('camera-menu').click();
    await ada.getByTestId('mute-camera').click();
    await expect.poll(() => adaTile.getAttribute('data-video'), { timeout: 15_000 }).toBe('off');
    await ada.getByTestId('mute-camera').click();
    await expect.poll(() => adaTile.getAttribute('data-video'), { timeout: 15_000 }).toBe('on');
    await ada.keyboard.press('Escape');

    await ada.getByTestId('toggle-screen').click();
    await expect.poll(() => publishState(ada, 'screen'), { timeout: 15_000 }).toBe('started');
    await ada.getByTestId('toggle-screen').click();
    await expect.poll(() => publishState(ada, 'screen'), { timeout: 15_000 }).toBe('stopped');

    // Device and profile pickers: the camera in the camera's menu, the profile in the settings panel.
    await ada.getByTestId('camera-menu').click();
    const options = await ada.getByTestId('pick-camera').locator('option').evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    expect(options.length).toBe(3);
    await ada.getByTestId('pick-camera').selectOption(options[2]);
    await ada.getByTestId('toggle-settings').click();
    await ada.getByTestId('pick-profile').selectOption('720p');
    await expect.poll(() => ada.evaluate(() => Math.max(0, ...[...document.querySelectorAll('[data-testid="local-video"] video')].map((v) => (v as HTMLVideoElement).videoWidth))), { timeout: 15_000 }).toBe(1280);
    expect(await ada.getByTestId('media-error').count()).toBe(0);
    await expect.poll(() => adaTile.getAttribute('data-video')).toBe('on');
  });
});
