/**
 * Issue 15, pressure: the Compute Pressure API, overridden through Chromium's DevTools protocol
 * (Emulation.setPressureStateOverride), drives what the page receives: 'serious' subscribes the remote
 * user's small stream (the received resolution drops), 'nominal' returns to the big one.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventsOf } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { pinPressure } from './harness/pressure.js';

const remoteWidth = (page: Page, userId: string): Promise<number> =>
  page.evaluate((id) => (document.querySelector(`#remote-${id}-main video`) as HTMLVideoElement | null)?.videoWidth ?? 0, userId);

describe('compute pressure', () => {
  let fx: AppFixture;

  beforeAll(async () => {
    fx = await startAppFixture({}, ['--enable-features=ComputePressure']);
  });

  afterAll(async () => {
    await stopAppFixture(fx);
  });

  it("serious CPU pressure receives the remote user's small stream; nominal returns to the big one", async () => {
    const alice = await fx.app.open(fx.browser.context);
    const bob = await fx.app.open(fx.browser.context);
    // Pressure of bob's page is set through DevTools, as a loaded machine would report it.
    const cdp = await pinPressure(fx.browser.context, bob);

    expect(await join(alice, fx.server, 'alice', { roomId: 7201 }, { publish: false })).toEqual({ ok: true });
    await alice.evaluate(() => {
      const view = document.createElement('div');
      view.id = 'local';
      view.style.cssText = 'width:320px;height:240px';
      document.body.appendChild(view);
    });
    expect(await call(alice, 'startLocalVideo', { view: 'local', option: { profile: '480p', small: true } })).toMatchObject({ ok: true });
    expect(await join(bob, fx.server, 'bob', { roomId: 7201 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain('alice');
    await watch(bob, 'alice');
    await expect.poll(() => remoteWidth(bob, 'alice'), { timeout: 30_000, interval: 500 }).toBe(640);

    await cdp.send('Emulation.setPressureStateOverride', { source: 'cpu', state: 'serious' });
    // The default small stream is 160x120 (docs/behaviour.md §3).
    await expect.poll(() => remoteWidth(bob, 'alice'), { timeout: 30_000, interval: 500 }).toBe(160);

    await cdp.send('Emulation.setPressureStateOverride', { source: 'cpu', state: 'nominal' });
    await expect.poll(() => remoteWidth(bob, 'alice'), { timeout: 30_000, interval: 500 }).toBe(640);
    await alice.close();
    await bob.close();
  });
});
