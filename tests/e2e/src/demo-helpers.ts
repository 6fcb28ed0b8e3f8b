import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { stageGeometry, type StageGeometry } from './harness/demo-page.js';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

/** What the demo's e2e files (demo-meeting, demo-controls) share: a server, a browser, what a user sees. */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** The largest width of the videos decoded inside the element that `selector` names (0 before a frame). */
export const videoWidthIn = (page: Page, selector: string) =>
  page.evaluate((sel) => Math.max(0, ...[...document.querySelectorAll(`${sel} video`)].map((v) => (v as HTMLVideoElement).videoWidth)), selector);

export const framesIn = (page: Page, selector: string) =>
  page.evaluate((sel) => Math.max(0, ...[...document.querySelectorAll(`${sel} video`)].map((v) => (v as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames)), selector);

/** Asserts the tiles are inside the viewport, do not overlap, and the page scrolls in no direction. */
export function expectFitted(geometry: StageGeometry) {
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
export async function settledGeometry(page: Page): Promise<StageGeometry> {
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

export const coverage = (geometry: StageGeometry) =>
  geometry.tiles.reduce((sum, tile) => sum + tile.width * tile.height, 0) / (geometry.viewport.width * geometry.viewport.height);

/** A dev-mode server whose app has an admin key (the demo's host tools use it) and a Chromium with 3 fake cameras. */
export async function startDemoFixture(): Promise<{ server: TestServer; browser: LaunchedBrowser }> {
  // The CDN relay switch publishes to a loopback nginx-rtmp: the operator lists 127.0.0.1 (docs/behaviour.md §5.5).
  const server = await startTestServer({ devMode: true, apps: [{ ...TEST_APP, adminKey: 'demo-e2e-admin-key-0123456789abcdef', rtmpHosts: ['127.0.0.1:*'] }] });
  const browser = await launchBrowser(['--use-fake-device-for-media-stream=device-count=3']);
  mkdirSync(ARTIFACTS, { recursive: true });
  return { server, browser };
}

/** A button as Chromium's accessibility tree gives it to a screen reader: its role, name and pressed state. */
export interface AxButton {
  readonly role: string;
  readonly name: string;
  /** 'true' / 'false' for a toggle (aria-pressed), undefined for a plain button. */
  readonly pressed: string | undefined;
}

/** The page's buttons, read from Chromium's own accessibility tree (DevTools protocol), not from the DOM. */
export async function accessibleButtons(page: Page): Promise<AxButton[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    return nodes
      .filter((node) => !node.ignored && /button/i.test(String(node.role?.value ?? '')))
      .map((node) => {
        const pressed = node.properties?.find((property) => property.name === 'pressed')?.value.value as unknown;
        return { role: String(node.role?.value), name: String(node.name?.value ?? ''), pressed: pressed === undefined ? undefined : String(pressed) };
      });
  } finally {
    await cdp.detach();
  }
}
