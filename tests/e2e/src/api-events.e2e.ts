/**
 * Issue 31, events and fields of 5.12–5.17 as an app observes them in real Chromium: remote-user-exit's reason,
 * connection-state-changed's isReconnecting, video-size-changed on both sides, statistics' jitterBufferDelay,
 * TRTC.getPermissions and permission-state-change.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventsOf } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { TEST_APP } from './harness/server.js';

const ADMIN_KEY = 'e2e-admin-key-0123456789abcdef';
const APP = { ...TEST_APP, adminKey: ADMIN_KEY };

const exits = async (page: Page) => (await eventsOf(page, 'remote-user-exit')).map((e) => e.data);
const sizes = async (page: Page) => (await eventsOf(page, 'video-size-changed')).map((e) => e.data);

describe('5.17 events and fields', () => {
  let fx: AppFixture;
  const admin = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${fx.server.url}/admin/v1/apps/${APP.sdkAppId}/${path}`, {
      method, headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };

  beforeAll(async () => {
    fx = await startAppFixture({ apps: [APP] });
  });

  afterAll(() => stopAppFixture(fx));

  it("remote-user-exit carries its reason: 0 for a user who left, 2 for a kicked one", async () => {
    const stays = await fx.app.open(fx.browser.context);
    const leaves = await fx.app.open(fx.browser.context);
    const kicked = await fx.app.open(fx.browser.context);
    expect(await join(stays, fx.server, 'stays', { roomId: 7321 }, { publish: false })).toEqual({ ok: true });
    expect(await join(leaves, fx.server, 'leaves', { roomId: 7321 }, { publish: false })).toEqual({ ok: true });
    expect(await join(kicked, fx.server, 'kicked', { roomId: 7321 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(stays, 'remote-user-enter')).length, { timeout: 10_000 }).toBe(2);

    expect(await call(leaves, 'exitRoom')).toMatchObject({ ok: true });
    await expect.poll(() => exits(stays), { timeout: 10_000 }).toEqual([{ userId: 'leaves', reason: 0 }]);
    expect((await admin('rooms/7321/users/kicked/kick', 'POST', { reason: 'e2e' })).body).toMatchObject({ kicked: true });
    await expect.poll(() => exits(stays), { timeout: 10_000 }).toEqual([{ userId: 'leaves', reason: 0 }, { userId: 'kicked', reason: 2 }]);
    for (const page of [stays, leaves, kicked]) await page.close();
  });

  it("connection-state-changed: the join's CONNECTING says isReconnecting false", async () => {
    const page = await fx.app.open(fx.browser.context);
    expect(await join(page, fx.server, 'states', { roomId: 7322 }, { publish: false })).toEqual({ ok: true });
    const states = (await eventsOf(page, 'connection-state-changed')).map((e) => e.data);
    expect(states).toEqual([
      { prevState: 'DISCONNECTED', state: 'CONNECTING', isReconnecting: false },
      { prevState: 'CONNECTING', state: 'CONNECTED' },
    ]);
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
    await page.close();
  });

  it("connection-state-changed: a lost signalling socket is announced as the original does (DISCONNECTED, CONNECTING with isReconnecting, CONNECTED), or RECONNECTING with create({ enableReconnectingState })", async () => {
    const dropped = async (createOptions?: Record<string, unknown>) => {
      const page = await fx.app.open(fx.browser.context);
      // The app's page keeps the SDK's sockets, so the test can drop the signalling one as a network would.
      await page.evaluate((options) => {
        const w = window as unknown as { WebSocket: typeof WebSocket; sockets: WebSocket[]; e2e: { create(o: unknown): void } };
        w.sockets = [];
        const Original = w.WebSocket;
        w.WebSocket = class extends Original {
          constructor(url: string | URL, protocols?: string | string[]) {
            super(url, protocols);
            w.sockets.push(this);
          }
        };
        if (options) w.e2e.create(options);
      }, createOptions);
      expect(await join(page, fx.server, 'reconnects', { roomId: 7324 }, { publish: false, reuse: createOptions !== undefined })).toEqual({ ok: true });
      await page.evaluate(() => (window as unknown as { sockets: WebSocket[] }).sockets.at(-1)?.close(4000, 'e2e drop'));
      return page;
    };
    const original = await dropped();
    await expect.poll(async () => (await eventsOf(original, 'connection-state-changed')).map((e) => e.data).slice(2), { timeout: 30_000 }).toEqual([
      { prevState: 'CONNECTED', state: 'DISCONNECTED' },
      { prevState: 'DISCONNECTED', state: 'CONNECTING', isReconnecting: true },
      { prevState: 'CONNECTING', state: 'CONNECTED' },
    ]);
    expect(await call(original, 'exitRoom')).toMatchObject({ ok: true });
    await original.close();
    const seed = await dropped({ enableReconnectingState: true });
    await expect.poll(async () => (await eventsOf(seed, 'connection-state-changed')).map((e) => e.data).slice(2), { timeout: 30_000 }).toEqual([
      { prevState: 'CONNECTED', state: 'RECONNECTING', isReconnecting: true },
      { prevState: 'RECONNECTING', state: 'CONNECTED' },
    ]);
    expect(await call(seed, 'exitRoom')).toMatchObject({ ok: true });
    await seed.close();
  });

  it('video-size-changed fires on both sides after a profile change; statistics carry jitterBufferDelay', async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    await alice.evaluate(() => (window as unknown as { e2e: { create(o: unknown): void } }).e2e.create({}));
    await alice.evaluate(() => {
      const view = document.createElement('div');
      view.id = 'local';
      view.style.cssText = 'width:320px;height:240px';
      document.body.appendChild(view);
    });
    expect(await call(alice, 'startLocalVideo', { view: 'local', option: { profile: '480p' } })).toMatchObject({ ok: true });
    expect(await call(alice, 'startLocalAudio')).toMatchObject({ ok: true });
    // Before enterRoom the local size is reported with userId ''.
    await expect.poll(() => sizes(alice), { timeout: 10_000 }).toContainEqual({ userId: '', streamType: 'main', newWidth: 640, newHeight: 480 });
    expect(await join(alice, fx.server, 'alice', { roomId: 7323 }, { publish: false, reuse: true })).toEqual({ ok: true });
    expect(await join(bob, fx.server, 'bob', { roomId: 7323 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain('alice');
    await watch(bob, 'alice');
    await expect.poll(() => sizes(bob), { timeout: 30_000 }).toContainEqual({ userId: 'alice', streamType: 'main', newWidth: 640, newHeight: 480 });

    expect(await call(alice, 'updateLocalVideo', { option: { profile: '360p' } })).toMatchObject({ ok: true });
    await expect.poll(() => sizes(alice), { timeout: 10_000 }).toContainEqual({ userId: 'alice', streamType: 'main', newWidth: 640, newHeight: 360 });
    await expect.poll(() => sizes(bob), { timeout: 30_000 }).toContainEqual({ userId: 'alice', streamType: 'main', newWidth: 640, newHeight: 360 });

    // statistics (every 2 s): the receive delay of alice's audio and video, in ms.
    type Remote = { userId: string; audio: { jitterBufferDelay: number }; video: { jitterBufferDelay: number }[] };
    const delays = async () => {
      const last = (await eventsOf(bob, 'statistics')).at(-1)?.data as { remoteStatistics: Remote[] } | undefined;
      const remote = last?.remoteStatistics.find((r) => r.userId === 'alice');
      return { audio: remote?.audio.jitterBufferDelay ?? 0, video: remote?.video[0]?.jitterBufferDelay ?? 0 };
    };
    await expect.poll(async () => { const d = await delays(); return d.audio > 0 && d.video > 0; }, { timeout: 20_000, interval: 1000 }).toBe(true);
    const { audio, video } = await delays();
    expect(audio).toBeLessThan(2000);
    expect(video).toBeLessThan(2000);
    await alice.close();
    await bob.close();
  });

  it('TRTC.getPermissions answers the permission states; permission-state-change follows a change', async () => {
    const page = await fx.app.open(fx.browser.context);
    await page.evaluate(() => (window as unknown as { e2e: { create(o: unknown): void } }).e2e.create({}));
    await fx.browser.context.grantPermissions(['camera', 'microphone']);
    const read = () => page.evaluate(() => (window as unknown as { TRTC: { getPermissions(o: unknown): Promise<unknown> } }).TRTC.getPermissions({ request: false }));
    expect(await read()).toEqual({ camera: 'granted', microphone: 'granted' });
    // The user blocks the camera in the browser's settings (DevTools' Browser.setPermission).
    const cdp = await fx.browser.context.newCDPSession(page);
    const origin = new URL(page.url()).origin;
    await cdp.send('Browser.setPermission', { permission: { name: 'camera' }, setting: 'denied', origin });
    await expect.poll(async () => (await eventsOf(page, 'permission-state-change')).map((e) => e.data).at(-1), { timeout: 10_000 })
      .toEqual({ camera: 'denied', microphone: 'granted' });
    expect(await read()).toEqual({ camera: 'denied', microphone: 'granted' });
    await cdp.send('Browser.setPermission', { permission: { name: 'camera' }, setting: 'granted', origin });
    await expect.poll(async () => (await eventsOf(page, 'permission-state-change')).map((e) => e.data).at(-1), { timeout: 10_000 })
      .toEqual({ camera: 'granted', microphone: 'granted' });
    await page.close();
  });
});
