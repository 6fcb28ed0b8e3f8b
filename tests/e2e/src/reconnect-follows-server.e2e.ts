import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { freePort } from '../../kit/ports.js';
import { ServerCli } from './harness/server-process.js';

/** docs/behaviour.md §4: back in the room this soon after the server listens again, whatever the outage. */
const BACK_WITHIN_MS = 3_000;
/**
 * Media after a restart needs a whole new session (uplink, downlink, subscription, ICE and DTLS, then a key
 * frame), which is CPU work in the browser and the server: measured 3.2–3.6 s after the server listened at a
 * load average of 23 on 2 cores and 9 s at 36, so media is held to a generous 15 s (the rejoin, the SDK's own
 * part, to 3 s). The figures are printed.
 */
const MEDIA_WITHIN_MS = 15_000;
const userIds = (events: { data: { userId?: unknown } }[]) => events.map((e) => e.data.userId);

/** When (page clock = this machine's) the page last announced CONNECTED after `since`, polling until it has. */
async function connectedAfter(page: Page, since: number, timeoutMs: number): Promise<number> {
  let at: number | undefined;
  await expect.poll(async () => {
    at = (await eventsOf(page, 'connection-state-changed')).find((e) => e.at >= since && e.data.state === 'CONNECTED')?.at;
    return at;
  }, { timeout: timeoutMs, interval: 100 }).toBeDefined();
  return at!;
}

/** When the page decodes frames beyond those it had at `since` (polled every 100 ms). */
async function framesAfter(page: Page, before: number, timeoutMs: number): Promise<number> {
  await expect.poll(async () => (await media(page)).framesDecoded, { timeout: timeoutMs, interval: 100 }).toBeGreaterThan(before);
  return Date.now();
}

/** Peer connections the page made so far (the harness records each in window.__pcs). */
const pcCount = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length);

/**
 * When a link the page made after its first `made` decodes a video frame (polled every 100 ms). Counted on the new
 * links alone: the old links' counts vanish as they close, so a sum over all would first have to climb past them.
 */
async function newLinkFrames(page: Page, made: number, timeoutMs: number): Promise<number> {
  await expect.poll(() => page.evaluate(async (from) => {
    let frames = 0;
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.slice(from)) {
      (await pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number }) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded ?? 0;
      });
    }
    return frames;
  }, made), { timeout: timeoutMs, interval: 100 }).toBeGreaterThan(0);
  return Date.now();
}

describe('reconnection follows the server, not the clock', () => {
  let server: ServerCli;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    server = new ServerCli(await freePort());
    await server.start();
    app = await AppHost.start(server.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.kill();
  });

  it('the server killed and started again on the same port after ~5 s and ~20 s: both pages are back in the room ≤ 3 s after it listens, media flowing again', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 7301 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 7301 })).toEqual({ ok: true });
    await expect.poll(async () => userIds(await eventsOf(alice, 'remote-video-available')), { timeout: 15_000 }).toContain('bob');
    await expect.poll(async () => userIds(await eventsOf(bob, 'remote-video-available')), { timeout: 15_000 }).toContain('alice');
    await watch(alice, 'bob');
    await watch(bob, 'alice');
    await framesAfter(alice, 0, 30_000);
    await framesAfter(bob, 0, 30_000);

    const figures: string[] = [];
    for (const outageMs of [5_000, 20_000]) {
      const downAt = Date.now();
      await server.kill();
      await expect.poll(async () => (await eventsOf(alice, 'connection-state-changed')).some((e) => e.at >= downAt && e.data.state === 'DISCONNECTED'), { timeout: 30_000 }).toBe(true);
      // The outage itself (the scenario, not a wait for a result): the server stays down this long.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, downAt + outageMs - Date.now())));
      const made = await Promise.all([alice, bob].map(pcCount));
      await server.start();
      const upAt = Date.now();
      const [aliceIn, bobIn] = await Promise.all([connectedAfter(alice, upAt - 1_000, 30_000), connectedAfter(bob, upAt - 1_000, 30_000)]);
      const [aliceMedia, bobMedia] = await Promise.all([newLinkFrames(alice, made[0]!, 30_000), newLinkFrames(bob, made[1]!, 30_000)]);
      figures.push(`${outageMs / 1000} s outage: rejoined ${aliceIn - upAt} / ${bobIn - upAt} ms, media ${aliceMedia - upAt} / ${bobMedia - upAt} ms after the server listened`);
      console.info(figures.at(-1));
      expect(Math.max(aliceIn, bobIn) - upAt).toBeLessThanOrEqual(BACK_WITHIN_MS);
      expect(Math.max(aliceMedia, bobMedia) - upAt).toBeLessThanOrEqual(MEDIA_WITHIN_MS);
    }
    // No app code ran: the SDK rejoined, republished and resubscribed; nobody was announced gone.
    expect(userIds(await eventsOf(alice, 'remote-user-exit'))).toEqual([]);
    expect(userIds(await eventsOf(bob, 'remote-user-exit'))).toEqual([]);
    await alice.close();
    await bob.close();
  });
});
