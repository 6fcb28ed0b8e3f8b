import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';
import { enterWithAudio, generateMedia, levels, listenTo, percentile, RAW_MIC, type TestMedia } from './plugins-media.js';

let fx: AppFixture | undefined;
let farBrowser: LaunchedBrowser | undefined;
let media: TestMedia;

/** speech.wav (near: 3 s of speech, 3 s without, twice) turned down by 32 dB: a talker metres from the microphone. */
function farSpeech(m: TestMedia): string {
  execFileSync('sox', [m.path('speech.wav'), '-b', '16', m.path('far-speech.wav'), 'vol', '-32dB']);
  return m.path('far-speech.wav');
}

beforeAll(async () => {
  media = generateMedia();
  // The near talker (speech over white noise, the denoiser test's microphone) in the fixture's browser; the
  // far talker in a second browser with its own fake microphone.
  fx = await startAppFixture({}, [`--use-file-for-fake-audio-capture=${media.path('speech-noise.wav')}`]);
  farBrowser = await launchBrowser([`--use-file-for-fake-audio-capture=${farSpeech(media)}`]);
}, 90_000);

afterAll(async () => {
  await farBrowser?.close();
  await stopAppFixture(fx ?? {});
  media?.remove();
});

type Result = { ok: boolean; code?: number; message?: string };
const plugin = (page: Page, method: string, options: unknown): Promise<Result> => page.evaluate(async ([m, o]) => {
  const client = (window as unknown as { e2e: { client: Record<string, (n: string, o: unknown) => Promise<unknown>> } }).e2e.client;
  try {
    await client[m as string]('AIDenoiser', o);
    return { ok: true };
  } catch (error) {
    return { ok: false, code: (error as { code?: number }).code, message: (error as Error).message };
  }
}, [method, options] as const);

/** The loud stretches (90th percentile of ~43 ms windows over 7 s) of what the listener hears of `userId`. */
async function speechLevel(listener: Page, userId: string): Promise<number> {
  await listener.evaluate((id) => (window as unknown as { probe: { attach(u: string): boolean } }).probe.attach(id), userId);
  return percentile(await levels(listener, 7000), 90);
}

/** The far and the near talker's levels over the same 7 s, each heard by a listener of its own. */
const bothLevels = (listeners: { far: Page; near: Page }) =>
  Promise.all([speechLevel(listeners.far, 'far'), speechLevel(listeners.near, 'near')]);

describe("AIDenoiser, 5.17's mode: far-field reduction", () => {
  it('mode 1 brings a distant talker\'s speech down by ≥ 10 dB while a near talker stays within 6 dB; update({ mode: 0 }) restores it', async () => {
    const roomId = 25021;
    const near = await fx!.app.open(fx!.browser.context);
    const far = await fx!.app.open(farBrowser!.context);
    const listener = await fx!.app.open(fx!.browser.context);
    // A second listener measures the near talker while the first measures the far one, over the same windows.
    const nearListener = await fx!.app.open(fx!.browser.context);
    expect(await enterWithAudio(near, fx!.server, 'near', roomId, RAW_MIC)).toEqual({ ok: true });
    expect(await enterWithAudio(far, fx!.server, 'far', roomId, RAW_MIC)).toEqual({ ok: true });
    expect(await enterWithAudio(listener, fx!.server, 'listener', roomId)).toEqual({ ok: true });
    expect(await enterWithAudio(nearListener, fx!.server, 'near-listener', roomId)).toEqual({ ok: true });
    await listenTo(listener, 'far');
    await listenTo(nearListener, 'near');
    const listeners = { far: listener, near: nearListener };
    // The far talker's speech must be arriving before the baseline (it is quiet: above -75 dBFS).
    await expect.poll(async () => Math.max(...await levels(listener, 500)), { timeout: 20_000 }).toBeGreaterThan(-75);
    await expect.poll(async () => Math.max(...await levels(nearListener, 500)), { timeout: 20_000 }).toBeGreaterThan(-75);

    for (const [page, userId] of [[near, 'near'], [far, 'far']] as const) {
      expect(await plugin(page, 'startPlugin', { sdkAppId: TEST_APP.sdkAppId, userId, userSig: await fx!.server.sig(userId) })).toEqual({ ok: true });
    }
    const [farNormal, nearNormal] = await bothLevels(listeners);

    for (const page of [near, far]) expect(await plugin(page, 'updatePlugin', { mode: 1 })).toEqual({ ok: true });
    const [farReduced, nearReduced] = await bothLevels(listeners);

    expect(await plugin(far, 'updatePlugin', { mode: 0 })).toEqual({ ok: true });
    const farBack = await speechLevel(listener, 'far');
    console.log(`[denoiser-mode] far talker ${farNormal.toFixed(1)} → ${farReduced.toFixed(1)} dBFS (mode 1) → ${farBack.toFixed(1)} (mode 0); near talker ${nearNormal.toFixed(1)} → ${nearReduced.toFixed(1)} dBFS`);
    expect(farNormal - farReduced).toBeGreaterThanOrEqual(10);
    expect(Math.abs(nearNormal - nearReduced)).toBeLessThanOrEqual(6);
    expect(farBack - farReduced).toBeGreaterThanOrEqual(8);
    // A mode outside 0 / 1: INVALID_PARAMETER.
    expect(await plugin(far, 'updatePlugin', { mode: 2 })).toMatchObject({ ok: false, code: 5000 });
    for (const page of [near, far, listener, nearListener]) await page.close();
  }, 150_000);
});
