/**
 * Issue 31, "the runtime object": what libraries built on the original (a TRTCCloud-style wrapper) reach for at
 * run time — TRTC._loggerManager.createLogger, off('*'), and profile objects the original fills from defaults.
 */
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventsOf } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join } from './harness/join.js';

type Win = { TRTC: { _loggerManager: { createLogger(o: unknown): Record<string, (...a: unknown[]) => void> } }; e2e: { create(o: unknown): void; client: { on(e: string, h: () => void): void; off(e: string): void } } };

const create = (page: Page) => page.evaluate(() => (window as unknown as Win).e2e.create({}));
const addView = (page: Page) => page.evaluate(() => {
  const view = document.createElement('div');
  view.id = 'local';
  view.style.cssText = 'width:320px;height:240px';
  document.body.appendChild(view);
});
const cameraSettings = (page: Page) => page.evaluate(() => {
  const track = (window as unknown as { e2e: { client: { getVideoTrack(): MediaStreamTrack | null } } }).e2e.client.getVideoTrack();
  const { width, height, frameRate } = track?.getSettings() ?? {};
  return { width, height, frameRate: Math.round(frameRate ?? 0) };
});

describe('the runtime object libraries use', () => {
  let fx: AppFixture;

  beforeAll(async () => {
    fx = await startAppFixture();
  });

  afterAll(() => stopAppFixture(fx));

  it('TRTC._loggerManager.createLogger({ id }) returns a logger whose info/warn/error/log/update lines join the SDK log', async () => {
    const page = await fx.app.open(fx.browser.context);
    const lines: string[] = [];
    page.on('console', (message: ConsoleMessage) => lines.push(message.text()));
    const shape = await page.evaluate(() => {
      const logger = (window as unknown as Win).TRTC._loggerManager.createLogger({ id: 'cloud', userId: 'u1', sdkAppId: 1400000001 });
      logger.info('line-info');
      logger.warn('line-warn');
      logger.error('line-error');
      logger.debug('line-debug');
      logger.log(2, ['line-log']);
      logger.update({ userId: 'u2' });
      logger.info('line-after-update');
      return ['info', 'warn', 'error', 'debug', 'log', 'update'].map((name) => typeof logger[name]);
    });
    expect(shape).toEqual(Array(6).fill('function'));
    await expect.poll(() => lines.filter((l) => l.includes('line-')).length, { timeout: 5000 }).toBe(5);
    const ours = lines.filter((l) => l.includes('line-'));
    expect(ours).toEqual([
      expect.stringMatching(/\[↑cloud\|u1\] line-info/), expect.stringMatching(/\[↑cloud\|u1\] line-warn/),
      expect.stringMatching(/\[↑cloud\|u1\] line-error/), expect.stringMatching(/\[↑cloud\|u1\] line-log/),
      expect.stringMatching(/\[↑cloud\|u2\] line-after-update/),
    ]);
    // debug is below the default level (INFO): not printed.
    expect(lines.some((l) => l.includes('line-debug'))).toBe(false);
    await page.close();
  });

  it("off('*') removes every listener; one added afterwards hears the next events", async () => {
    const page = await fx.app.open(fx.browser.context);
    await page.evaluate(() => {
      const w = window as unknown as Win & { heard: string[] };
      w.heard = [];
      w.e2e.create({});
      w.e2e.client.on('connection-state-changed', () => w.heard.push('before'));
      w.e2e.client.off('*');
      w.e2e.client.on('connection-state-changed', () => w.heard.push('after'));
    });
    expect(await join(page, fx.server, 'off-all', { roomId: 7311 }, { publish: false, reuse: true })).toEqual({ ok: true });
    await expect.poll(() => page.evaluate(() => (window as unknown as { heard: string[] }).heard), { timeout: 10_000 }).toContain('after');
    expect(await page.evaluate(() => (window as unknown as { heard: string[] }).heard)).not.toContain('before');
    // The SDK's own recording (installed by e2e.create before off('*')) was removed too.
    expect(await eventsOf(page, 'connection-state-changed')).toEqual([]);
    expect(await call(page, 'exitRoom')).toMatchObject({ ok: true });
    await page.close();
  });

  it('a profile object without a usable width is accepted and filled from the profile in use, as the original does', async () => {
    const page = await fx.app.open(fx.browser.context);
    await create(page);
    await addView(page);
    // width 0: the default profile's width (480p: 640) is used.
    expect(await call(page, 'startLocalVideo', { view: 'local', option: { profile: { width: 0, height: 360, frameRate: 15, bitrate: 500 } } })).toMatchObject({ ok: true });
    await expect.poll(() => cameraSettings(page), { timeout: 10_000 }).toMatchObject({ width: 640, height: 360 });
    // Only a frame rate: width and height stay those in use.
    expect(await call(page, 'updateLocalVideo', { option: { profile: { frameRate: 10 } } })).toMatchObject({ ok: true });
    await expect.poll(() => cameraSettings(page), { timeout: 10_000 }).toEqual({ width: 640, height: 360, frameRate: 10 });
    // A value of the wrong type is still refused.
    expect(await call(page, 'updateLocalVideo', { option: { profile: { width: '640' } } })).toMatchObject({ ok: false, code: 5000 });
    expect(await call(page, 'stopLocalVideo')).toMatchObject({ ok: true });
    await page.close();
  });
});
