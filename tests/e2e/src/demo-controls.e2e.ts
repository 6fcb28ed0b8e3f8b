import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, DESKTOP, expectFitted, framesIn, settledGeometry, startDemoFixture } from './demo-helpers.js';
import { axeViolations, joinDemo } from './harness/demo-page.js';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import type { TestServer } from './harness/server.js';

/**
 * Issue 27's "Must show" items about the controls, in real Chromium: effects, the invite link and a lost
 * connection, host tools, chat with its unread badge, the control bar by keyboard; axe-core on each screen.
 */
describe('the demo as a meeting app: controls and panels (issue 27, Must show)', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    ({ server, browser } = await startDemoFixture());
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
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
