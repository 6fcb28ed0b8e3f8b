import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join } from './harness/join.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const ROOM = 41_003;
let fx: AppFixture | undefined;

beforeAll(async () => {
  fx = await startAppFixture();
});

afterAll(async () => {
  await stopAppFixture(fx ?? {});
});

/** The text of one section of the dialog (rows as "key value"). */
const section = (page: Page, name: string) => page.locator(`#trtc-debug-dialog tbody[data-section="${name}"]`).innerText();

describe('Must show 3: a page opened with ?trtcDebug=1 shows the dialog with live values (screenshot artifact)', () => {
  it('shows room, user, connection and publish states, per-stream statistics and recent log lines; the log can be downloaded', async () => {
    const page = await fx!.app.open(fx!.browser.context);
    await page.goto(`${fx!.app.url}?trtcDebug=1`);
    const other = await fx!.app.open(fx!.browser.context);
    expect(await join(page, fx!.server, 'debugger', { roomId: ROOM })).toEqual({ ok: true });
    expect(await join(other, fx!.server, 'peer', { roomId: ROOM })).toEqual({ ok: true });
    const dialog = page.locator('#trtc-debug-dialog');
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => section(page, 'Room'), { timeout: 10_000 }).toMatch(/roomId\s+41003[\s\S]*userId\s+debugger/);
    await expect.poll(() => section(page, 'States'), { timeout: 10_000 }).toMatch(/connection\s+CONNECTED/);
    await expect.poll(() => section(page, 'States'), { timeout: 10_000 }).toMatch(/publish audio\s+started/);
    // Live statistics: the remote peer's video arrives and its row appears (statistics every 2 s).
    await expect.poll(() => section(page, 'Statistics'), { timeout: 20_000 }).toMatch(/peer (audio|big)/);
    await expect.poll(() => page.locator('#trtc-debug-dialog .log').innerText(), { timeout: 10_000 }).toContain('entered room 41003 as debugger');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}plugins-debug-dialog.png` });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download log' }).click();
    const file = await (await download).path();
    expect(readFileSync(file, 'utf8')).toContain('enterRoom 41003 as debugger');
    // A page without the switch shows no dialog.
    expect(await other.locator('#trtc-debug-dialog').count()).toBe(0);
    await page.close();
    await other.close();
  });

  it('the session-storage flag opens it too', async () => {
    const page = await fx!.app.open(fx!.browser.context);
    await page.evaluate(() => sessionStorage.setItem('TRTC_ENABLE_DEBUG_PLUGIN', 'true'));
    await page.evaluate(() => (window as unknown as { e2e: { create(): void } }).e2e.create());
    await page.locator('#trtc-debug-dialog').waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => section(page, 'States')).toMatch(/connection\s+DISCONNECTED/);
    await page.close();
  });
});

describe("Debug, 5.17's update", () => {
  it("5.17's updatePlugin('Debug', { visible }) hides and shows the dialog; a non-boolean is INVALID_PARAMETER", async () => {
    const page = await fx!.app.open(fx!.browser.context);
    await page.evaluate(() => (window as unknown as { e2e: { create(): void } }).e2e.create());
    const dialog = page.locator('#trtc-debug-dialog');
    const update = (options: unknown) => page.evaluate((o) => (window as unknown as { e2e: { call(m: string, a: unknown[]): Promise<{ ok: boolean; code?: number }> } }).e2e.call('updatePlugin', ['Debug', o]), options);
    expect(await update({ visible: true })).toMatchObject({ ok: true });
    await dialog.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await update({ visible: false })).toMatchObject({ ok: true });
    await dialog.waitFor({ state: 'hidden', timeout: 5000 });
    expect(await update({ visible: 'no' })).toMatchObject({ ok: false, code: 5000 });
    expect(await update({ visible: true })).toMatchObject({ ok: true });
    await dialog.waitFor({ state: 'visible', timeout: 5000 });
    await page.close();
  });
});
