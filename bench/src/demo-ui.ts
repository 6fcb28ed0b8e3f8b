/**
 * The demo as a new user meets it (issue 27's benchmark), through the UI: the time from opening the demo's URL to
 * seeing yourself in its pre-join preview, and from opening an invite link (which joins by itself) to the first
 * frame of the host already in the room. The same steps as tests/e2e/src/demo-meeting.e2e.ts, repeated.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { progress, summarize } from './stats.js';
import type { Row } from './table.js';

export interface DemoUiResult {
  seeYourselfMs: number[];
  firstRemoteFrameMs: number[];
}

/** Resolves once `read` gives a positive number (polled every 20 ms, at most `timeoutMs`). */
async function until(read: () => Promise<number>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await read().catch(() => 0)) <= 0) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Opens an invite link (the demo joins by itself); resolves once the room view shows. (The e2e harness's joinDemoUrl uses vitest's expect, which a bench cannot load.) */
async function openInvite(context: BrowserContext, serverUrl: string, userId: string, roomId: string, camera: boolean): Promise<Page> {
  const page = await context.newPage();
  const query = new URLSearchParams({ userId, roomId, autojoin: '1', camera: camera ? '1' : '0', mic: '0' });
  await page.goto(`${serverUrl}/?${query}`);
  await page.getByTestId('room-view').waitFor({ timeout: 20_000 });
  return page;
}

const videoWidth = (page: Page, selector: string) => page.locator(selector).first().evaluate((v) => (v as HTMLVideoElement).videoWidth);

/** `iterations` rounds on the server at `serverUrl` (which serves the demo at `/`). */
export async function runDemoUi(context: BrowserContext, serverUrl: string, iterations: number): Promise<DemoUiResult> {
  const result: DemoUiResult = { seeYourselfMs: [], firstRemoteFrameMs: [] };
  for (let i = 0; i < iterations; i++) {
    const page = await context.newPage();
    const opened = Date.now();
    await page.goto(`${serverUrl}/`);
    await until(() => videoWidth(page, '[data-testid="preview-video"]'), 15_000);
    result.seeYourselfMs.push(Date.now() - opened);
    await page.close();

    const room = String(8800 + i);
    const host = await openInvite(context, serverUrl, `host${i}`, room, true);
    const joined = Date.now();
    const guest = await openInvite(context, serverUrl, `guest${i}`, room, false);
    await until(() => videoWidth(guest, `[data-testid="remote-tile"][data-user-id="host${i}"] [data-testid="remote-video"]`), 30_000);
    result.firstRemoteFrameMs.push(Date.now() - joined);
    progress(`demo ui ${i + 1}/${iterations}: see yourself ${result.seeYourselfMs[i]} ms, first remote frame ${result.firstRemoteFrameMs[i]} ms`);
    await guest.close();
    await host.close();
  }
  return result;
}

/** Table rows: medians (and p90) of both times. */
export function demoUiRows(r: DemoUiResult): Row[] {
  const b = 'demo (through the UI)';
  const row = (values: number[], unit: string): Row => {
    const s = summarize(values);
    return { benchmark: b, figure: Math.round(s.median).toString(), unit, notes: `median of ${s.count}; p90 ${Math.round(s.p90)} ms` };
  };
  return [
    row(r.seeYourselfMs, 'ms, opening the demo URL → seeing yourself in the pre-join preview'),
    row(r.firstRemoteFrameMs, 'ms, opening an invite link (joins by itself) → first frame of the host'),
  ];
}
