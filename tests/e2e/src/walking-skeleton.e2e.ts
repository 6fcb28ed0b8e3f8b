import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { startTestServer, type TestServer } from './harness/server.js';

describe('walking skeleton: two real browsers in one room see and hear each other', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    server = await startTestServer();
    app = await AppHost.start(server.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  it('two pages in one room each decode the other\'s video and receive its audio', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 1001 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 1001 })).toEqual({ ok: true });

    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await watch(alice, 'bob');
    await watch(bob, 'alice');

    for (const page of [alice, bob]) {
      await expect.poll(async () => (await media(page)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
      await expect.poll(async () => (await media(page)).videoWidth, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
      await expect.poll(async () => (await media(page)).audioEnergy, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    }
  });
});
