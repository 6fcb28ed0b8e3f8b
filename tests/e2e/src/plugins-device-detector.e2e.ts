import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));

let fx: AppFixture | undefined;
/** The pages' warnings and errors: a failed network test says why there. */
const pageLog: string[] = [];

beforeAll(async () => {
  fx = await startAppFixture();
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
});

/** Opens a page of the script-tag app with the plugin's UMD file, and starts the dialog (its promise kept on window). */
async function openDetector(options: Record<string, unknown>): Promise<Page> {
  const page = await fx!.app.open(fx!.browser.context);
  page.on('console', (message) => { if (message.type() === 'warning' || message.type() === 'error') pageLog.push(message.text()); });
  await page.addScriptTag({ url: `${fx!.server.url}/sdk/plugins/device-detector/device-detector.umd.js` });
  await page.evaluate((o) => {
    const w = window as unknown as { e2e: { create(o: unknown): void; client: { startPlugin(n: string, o: unknown): Promise<unknown> } }; DeviceDetector: unknown; detector: Promise<unknown> };
    w.e2e.create({ plugins: [w.DeviceDetector] });
    w.detector = w.e2e.client.startPlugin('DeviceDetector', o).then((result) => ({ ok: true, result }), (error: Error) => ({ ok: false, message: error.message }));
  }, options);
  return page;
}

const step = (page: Page) => page.locator('#trtc-device-detector').getAttribute('data-step');
const press = (page: Page, key: string) => page.locator(`#trtc-device-detector [data-dd="${key}"]`).click();
const outcome = (page: Page) => page.evaluate(() => (window as unknown as { detector: Promise<unknown> }).detector);

interface Result {
  camera: { isSuccess: boolean; device: { kind: string; label: string } };
  microphone: { isSuccess: boolean; device: { kind: string; label: string } };
  speaker: { isSuccess: boolean; device: { kind: string } };
  network: { isSuccess: boolean; result: { quality: number; rtt: number } };
}

describe('Must show 2: DeviceDetector run through to its result in a headless page (screenshots in en and zh; the network result from a real test against our server)', () => {
  it('en: camera preview, microphone level, speaker tone, a real network test through the server, then the original\'s result shape', async () => {
    const userSig = await fx!.server.sig('dd-up');
    const downlinkUserSig = await fx!.server.sig('dd-down');
    const page = await openDetector({
      language: 'en', cameraDetect: { mirror: true },
      networkDetect: { sdkAppId: TEST_APP.sdkAppId, userId: 'dd-up', userSig, downlinkUserId: 'dd-down', downlinkUserSig },
    });
    // Camera: the live preview shows frames, mirrored.
    await expect.poll(() => step(page), { timeout: 15_000 }).toBe('camera');
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLVideoElement>('#trtc-device-detector video')?.videoWidth ?? 0), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.locator('#trtc-device-detector video').evaluate((v) => (v as HTMLVideoElement).style.transform)).toBe('scaleX(-1)');
    expect(await page.locator('#trtc-device-detector').innerText()).toContain('Can you see yourself');
    await page.screenshot({ path: `${ARTIFACTS}device-detector-en-camera.png` });
    await press(page, 'yes');
    // Microphone: Chromium's fake microphone beeps, so the meter moves.
    await expect.poll(() => step(page), { timeout: 10_000 }).toBe('microphone');
    await expect.poll(() => page.locator('#trtc-device-detector .dd-meter').getAttribute('data-level').then(Number), { timeout: 15_000 }).toBeGreaterThan(0.01);
    await page.screenshot({ path: `${ARTIFACTS}device-detector-en-microphone.png` });
    await press(page, 'yes');
    // Speaker: the test tone plays; the user answers.
    await expect.poll(() => step(page), { timeout: 10_000 }).toBe('speaker');
    await press(page, 'play');
    await press(page, 'yes');
    // Network: 15 s of a real uplink + downlink through the server.
    await expect.poll(() => step(page), { timeout: 10_000 }).toBe('network');
    await page.screenshot({ path: `${ARTIFACTS}device-detector-en-network.png` });
    await expect.poll(() => step(page), { timeout: 60_000 }).toBe('report');
    await page.screenshot({ path: `${ARTIFACTS}device-detector-en-report.png` });
    expect(await page.locator('#trtc-device-detector').innerText()).toMatch(/Network quality/);
    await press(page, 'finish');
    const done = await outcome(page) as { ok: boolean; result: Result };
    expect(done.ok).toBe(true);
    const r = done.result;
    expect(r.camera).toMatchObject({ isSuccess: true, device: { kind: 'videoinput' } });
    expect(r.microphone).toMatchObject({ isSuccess: true, device: { kind: 'audioinput' } });
    expect(r.speaker).toMatchObject({ isSuccess: true, device: { kind: 'audiooutput' } });
    // On loopback the network is excellent or good; RTT is measured (≥ 0, a number).
    expect(r.network.isSuccess, `network test failed; page warnings: ${pageLog.join(' | ')}`).toBe(true);
    expect(r.network.result.quality).toBeGreaterThanOrEqual(1);
    expect(r.network.result.quality).toBeLessThanOrEqual(2);
    expect(typeof r.network.result.rtt).toBe('number');
    // The dialog is gone; the two test clients were in a room of this server and left it.
    expect(await page.locator('#trtc-device-detector').count()).toBe(0);
    console.log(`[device-detector] result ${JSON.stringify(r)}`);
    await page.close();
  }, 120_000);

  it('zh: the dialog in Chinese; skipped and refused steps report failure; closing resolves undefined', async () => {
    const page = await openDetector({ language: 'zh', allowSkip: true });
    await expect.poll(() => step(page), { timeout: 15_000 }).toBe('camera');
    expect(await page.locator('#trtc-device-detector').innerText()).toContain('能看到自己的画面吗');
    await expect.poll(() => page.evaluate(() => document.querySelector<HTMLVideoElement>('#trtc-device-detector video')?.videoWidth ?? 0), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: `${ARTIFACTS}device-detector-zh-camera.png` });
    await press(page, 'skip');
    await expect.poll(() => step(page), { timeout: 10_000 }).toBe('microphone');
    await press(page, 'no');
    await expect.poll(() => step(page), { timeout: 10_000 }).toBe('speaker');
    await press(page, 'yes');
    await expect.poll(() => step(page), { timeout: 10_000 }).toBe('report');
    expect(await page.locator('#trtc-device-detector').innerText()).toContain('检测报告');
    await page.screenshot({ path: `${ARTIFACTS}device-detector-zh-report.png` });
    await press(page, 'finish');
    const done = await outcome(page) as { ok: boolean; result: Result };
    expect(done.result.camera.isSuccess).toBe(false);
    expect(done.result.microphone.isSuccess).toBe(false);
    expect(done.result.speaker.isSuccess).toBe(true);
    expect(done.result.network).toEqual({ isSuccess: false, result: { quality: 0, rtt: 0 } });
    // Again, closed with ×: resolves undefined.
    await page.evaluate(() => {
      const w = window as unknown as { e2e: { client: { startPlugin(n: string, o: unknown): Promise<unknown> } }; detector: Promise<unknown> };
      w.detector = w.e2e.client.startPlugin('DeviceDetector', { language: 'zh' }).then((result) => ({ ok: true, result }));
    });
    await expect.poll(() => step(page), { timeout: 15_000 }).toBe('camera');
    await press(page, 'close');
    expect(await outcome(page)).toEqual({ ok: true, result: undefined });
    await page.close();
  }, 90_000);
});
