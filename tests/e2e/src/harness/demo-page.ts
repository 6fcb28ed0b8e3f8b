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
