import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppFixture, stopAppFixture } from './harness/fixture.js';
import type { LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import type { TestServer } from './harness/server.js';

describe('walking skeleton: two real browsers in one room see and hear each other', () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    ({ server, app, browser } = await startAppFixture());
  });

  afterAll(() => stopAppFixture({ server, app, browser }));

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

  it('a third page in another room of the same app receives no media and no event about the first two', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    const carol = await app.open(browser.context);
    expect(await join(carol, server, 'carol', { roomId: 2002 })).toEqual({ ok: true });
    expect(await join(alice, server, 'alice', { roomId: 2001 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 2001 })).toEqual({ ok: true });
    // A string room id equal to the integer one is another room too.
    const dave = await app.open(browser.context);
    expect(await join(dave, server, 'dave', { strRoomId: '2001' })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await watch(alice, 'bob');
    await expect.poll(async () => (await media(alice)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    // Media has flowed in room 2001 and its pushes reached alice; now a late joiner of 2001 must reach alice but not carol.
    const erin = await app.open(browser.context);
    expect(await join(erin, server, 'erin', { roomId: 2001 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(alice, 'remote-user-enter')).map((e) => e.data.userId), { timeout: 10_000 }).toContain('erin');
    for (const page of [carol, dave]) {
      const seen = (await page.evaluate(() => (window as unknown as { e2e: { events: { type: string }[] } }).e2e.events))
        .filter((e) => e.type.startsWith('remote-'));
      expect(seen).toEqual([]);
      const figures = await media(page);
      expect(figures.framesDecoded).toBe(0);
      expect(figures.audioBytes).toBe(0);
      expect(figures.videoBytes).toBe(0);
    }
    expect((await eventsOf(alice, 'remote-user-enter')).map((e) => e.data.userId).sort()).toEqual(['bob', 'erin']);
    for (const page of [alice, bob, carol, dave, erin]) await page.close();
  });

  it('exitRoom and a closed page both give the others remote-video-unavailable and remote-user-exit', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    const carol = await app.open(browser.context);
    for (const [page, id] of [[alice, 'alice'], [bob, 'bob'], [carol, 'carol']] as const) {
      expect(await join(page, server, id, { roomId: 3001 })).toEqual({ ok: true });
    }
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBe(2);

    await bob.evaluate(() => (window as unknown as { e2e: { client: { exitRoom(): Promise<void> } } }).e2e.client.exitRoom());
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-unavailable')).map((e) => e.data.userId), { timeout: 10_000 }).toContain('bob');
    await expect.poll(async () => (await eventsOf(alice, 'remote-user-exit')).map((e) => e.data.userId), { timeout: 10_000 }).toContain('bob');

    const closedAt = Date.now();
    await carol.close();
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-unavailable')).map((e) => e.data.userId), { timeout: 25_000 }).toContain('carol');
    await expect.poll(async () => (await eventsOf(alice, 'remote-user-exit')).map((e) => e.data.userId), { timeout: 25_000 }).toContain('carol');
    const exit = (await eventsOf(alice, 'remote-user-exit')).find((e) => e.data.userId === 'carol');
    expect(exit!.at - closedAt).toBeLessThanOrEqual(server.config.heartbeatTimeoutMs);
    // Unavailable comes before exit, as an app expects.
    const order = (await alice.evaluate(() => (window as unknown as { e2e: { events: { type: string; data: { userId?: string } }[] } }).e2e.events))
      .filter((e) => e.data?.userId === 'carol' && (e.type === 'remote-video-unavailable' || e.type === 'remote-user-exit')).map((e) => e.type);
    expect(order).toEqual(['remote-video-unavailable', 'remote-user-exit']);
    for (const page of [alice, bob]) await page.close();
  });

  it('a join with a bad userSig fails with an RtcError naming the reason, and the server keeps serving the others', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 4001 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 4001 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(alice, 'remote-video-available')).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await watch(alice, 'bob');
    await expect.poll(async () => (await media(alice)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);

    const mallory = await app.open(browser.context);
    const wrongKey = await join(mallory, server, 'mallory', { roomId: 4001 }, { userSig: await server.sig('mallory', { secretKey: 'not-the-right-secret-key-at-all' }) });
    expect(wrongKey).toMatchObject({ ok: false, isRtcError: true, name: 'RtcError', code: 5400 });
    expect(wrongKey.message).toMatch(/wrong-key/);
    expect(wrongKey.extraCode).toBeLessThan(0);

    const expiredPage = await app.open(browser.context);
    const expiredSig = await server.sig('mallory', { now: Math.floor(Date.now() / 1000) - 7200, expire: 60 });
    const expired = await join(expiredPage, server, 'mallory', { roomId: 4001 }, { userSig: expiredSig });
    expect(expired).toMatchObject({ ok: false, isRtcError: true, code: 5400 });
    expect(expired.message).toMatch(/expired/);
    expect(expired.extraCode).not.toBe(wrongKey.extraCode);

    // The others never saw mallory, and their media keeps flowing.
    expect((await eventsOf(alice, 'remote-user-enter')).map((e) => e.data.userId)).toEqual(['bob']);
    const before = (await media(alice)).framesDecoded;
    await expect.poll(async () => (await media(alice)).framesDecoded, { timeout: 10_000, interval: 500 }).toBeGreaterThan(before);
    for (const page of [alice, bob, mallory, expiredPage]) await page.close();
  });
});
