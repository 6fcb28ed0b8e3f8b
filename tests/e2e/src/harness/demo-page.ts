import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Opens the demo app served by the server and joins a room as a new user would: the dev app's id is
 * filled in by the demo, the user types a name and a room (and, for a live room, picks a role) and
 * presses Join. Resolves once the room view shows.
 */
export async function joinDemo(context: BrowserContext, serverUrl: string, userId: string, roomId: string,
  live?: { role: 'anchor' | 'audience' }): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[demo page error]', error.message));
  await page.goto(serverUrl + '/');
  await page.getByTestId('join-form').waitFor();
  await expect.poll(() => page.getByTestId('input-sdkappid').inputValue(), { timeout: 10_000 }).not.toBe('');
  await page.getByTestId('input-userid').fill(userId);
  await page.getByTestId('input-roomid').fill(roomId);
  if (live) {
    await page.getByTestId('scene-live').check();
    await page.getByTestId('input-role').selectOption(live.role);
  }
  await page.getByTestId('join-button').click();
  await page.getByTestId('room-view').waitFor({ timeout: 15_000 });
  return page;
}

/** Opens the demo with a prefilled URL that joins by itself (`autojoin=1`), as an invite link does. */
export async function joinDemoUrl(context: BrowserContext, serverUrl: string,
  options: { userId: string; roomId: string; camera: boolean; mic: boolean }): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[demo page error]', error.message));
  const query = new URLSearchParams({ userId: options.userId, roomId: options.roomId, autojoin: '1',
    camera: options.camera ? '1' : '0', mic: options.mic ? '1' : '0' });
  await page.goto(`${serverUrl}/?${query}`);
  await page.getByTestId('room-view').waitFor({ timeout: 20_000 });
  return page;
}

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** What the user sees of the room: the viewport, how far the page scrolls, every shown tile, the control bar. */
export interface StageGeometry {
  readonly viewport: { readonly width: number; readonly height: number };
  readonly scroll: { readonly width: number; readonly height: number };
  readonly tiles: readonly (Box & { readonly key: string })[];
  readonly controlBar: Box;
}

export function stageGeometry(page: Page): Promise<StageGeometry> {
  return page.evaluate(() => {
    const box = (element: Element) => {
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    };
    const tiles = [...document.querySelectorAll('[data-testid="local-tile"], [data-testid="remote-tile"], [data-testid="screen-tile"]')]
      .filter((element) => !(element as HTMLElement).hidden)
      .map((element) => ({ ...box(element), key: element.getAttribute('data-testid') ?? '' }));
    const bar = document.querySelector('[data-testid="control-bar"]');
    const root = document.scrollingElement ?? document.documentElement;
    return {
      viewport: { width: window.innerWidth, height: window.innerHeight },
      scroll: { width: root.scrollWidth, height: root.scrollHeight },
      tiles,
      controlBar: bar ? box(bar) : { x: 0, y: window.innerHeight, width: 0, height: 0 },
    };
  });
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Runs axe-core (from npm) on the page in the dark and the light theme; answers the serious and critical
 * violations (theme, rule id and elements). Leaves the page in the dark theme.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    // Colours fade between themes (transitions): measure them once they are final.
    await expect.poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length), { timeout: 5_000, interval: 50 }).toBe(0);
    for (const violation of await axeRun(page)) found.push(`${colorScheme}: ${violation}`);
  }
  return found;
}

function axeRun(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    interface AxeResult { violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }
    const axe = (window as unknown as { axe: { run(context: Document): Promise<AxeResult> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => JSON.stringify(node.target)).join(' ')}`);
  });
}
