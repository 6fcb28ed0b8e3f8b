import { genUserSig } from '@conclave/usersig';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';
import { enterWithAudio, generateMedia, levels, listenTo, percentile, RAW_MIC, type TestMedia } from './plugins-media.js';

/** A second app on the server that has bought no package (docs/behaviour.md §8 reason 2). */
const NO_PACKAGE_APP = { sdkAppId: 1400700099, secretKey: 'conclave-e2e-no-package-secret-0123', billing: 'no-package' as const };

type Outcome = { ok: boolean; code?: number; extraCode?: number; message?: string };
type Client = { startPlugin(n: string, o?: unknown): Promise<unknown>; stopPlugin(n: string, o?: unknown): Promise<unknown>; updatePlugin(n: string, o?: unknown): Promise<unknown> };

let fx: AppFixture | undefined;
let media: TestMedia;
let sender: Page;
let receiver: Page;
const ROOM = 41_002;

/** Calls a plugin method in the sender page. */
const plugin = (method: 'startPlugin' | 'stopPlugin' | 'updatePlugin', options?: unknown, page: () => Page = () => sender) => page().evaluate(async ([m, o]) => {
  const client = (window as unknown as { e2e: { client: Client } }).e2e.client;
  try {
    await client[m as 'startPlugin']('AIDenoiser', o);
    return { ok: true };
  } catch (e) {
    const error = e as { code: number; extraCode: number; message: string };
    return { ok: false, code: error.code, extraCode: error.extraCode, message: error.message };
  }
}, [method, options] as const) as Promise<Outcome>;

/** Received levels over 8 s (the fake microphone loops 12 s: 3 s speech, 3 s noise only, twice). */
async function profile(): Promise<{ noise: number; speech: number }> {
  const windows = await levels(receiver, 8000);
  return { noise: percentile(windows, 10), speech: percentile(windows, 90) };
}

/** The uplink's negotiated SDP, to show that nothing was renegotiated. */
const uplinkSdp = () => sender.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.map((pc) => pc.localDescription?.sdp ?? '').join('|'));

beforeAll(async () => {
  media = generateMedia();
  fx = await startAppFixture({ apps: [TEST_APP, NO_PACKAGE_APP] }, [`--use-file-for-fake-audio-capture=${media.path('speech-noise.wav')}`]);
  sender = await fx.app.open(fx.browser.context);
  receiver = await fx.app.open(fx.browser.context);
  expect(await enterWithAudio(sender, fx.server, 'speaker', ROOM, RAW_MIC)).toEqual({ ok: true });
  expect(await enterWithAudio(receiver, fx.server, 'listener', ROOM)).toEqual({ ok: true });
  await listenTo(receiver, 'speaker');
}, 90_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
  media?.remove();
});

describe('Must show 2: with a fake microphone of speech plus white noise, the denoiser', () => {
  it('on lowers the received level of the noise-only stretches by ≥ 10 dB while speech stretches stay within 6 dB; stop restores the noise', async () => {
    // The speech must be arriving before the baseline is taken.
    await expect.poll(async () => Math.max(...await levels(receiver, 500)), { timeout: 20_000 }).toBeGreaterThan(-40);
    const before = await profile();
    expect(before.speech - before.noise).toBeGreaterThan(6); // the stretches are told apart
    const sdp = await uplinkSdp();
    const userSig = await fx!.server.sig('speaker');
    expect(await plugin('startPlugin', { sdkAppId: TEST_APP.sdkAppId, userId: 'speaker', userSig })).toEqual({ ok: true });
    const on = await profile();
    // Updating while publishing keeps it running.
    expect(await plugin('updatePlugin', { sdkAppId: TEST_APP.sdkAppId, userId: 'speaker', userSig })).toEqual({ ok: true });
    expect(await plugin('stopPlugin')).toEqual({ ok: true });
    const after = await profile();
    console.log(`[figure] denoiser: noise-only ${before.noise.toFixed(1)} → ${on.noise.toFixed(1)} dBFS (−${(before.noise - on.noise).toFixed(1)} dB); `
      + `speech ${before.speech.toFixed(1)} → ${on.speech.toFixed(1)} dBFS; after stop noise ${after.noise.toFixed(1)} dBFS`);
    expect(before.noise - on.noise).toBeGreaterThanOrEqual(10);
    expect(Math.abs(before.speech - on.speech)).toBeLessThanOrEqual(6);
    expect(Math.abs(after.noise - before.noise)).toBeLessThanOrEqual(3);
    expect(await uplinkSdp()).toBe(sdp); // replaceTrack only: no renegotiation
  });

  it('a bad userSig or an app without a package gives docs/behaviour.md §8\'s denoise error', async () => {
    const badSig = await plugin('startPlugin', { sdkAppId: TEST_APP.sdkAppId, userId: 'speaker', userSig: 'not-a-valid-sig' });
    expect(badSig).toMatchObject({ ok: false, code: 5000, message: expect.stringMatching(/^Init RTCAudioProcessor failed\. Reason: .*Please check your params\./) });
    const userSig = genUserSig({ sdkAppId: NO_PACKAGE_APP.sdkAppId, secretKey: NO_PACKAGE_APP.secretKey, userId: 'speaker' });
    const noPackage = await plugin('startPlugin', { sdkAppId: NO_PACKAGE_APP.sdkAppId, userId: 'speaker', userSig: await userSig });
    expect(noPackage).toMatchObject({ ok: false, code: 5000, message: expect.stringContaining('You need to buy packages') });
    // docs/behaviour.md §5: the microphone must be on.
    expect(await plugin('startPlugin', { sdkAppId: TEST_APP.sdkAppId, userId: 'listener', userSig: await fx!.server.sig('listener') }, () => receiver))
      .toMatchObject({ ok: false, code: 5100, extraCode: 5106 });
    expect(await plugin('startPlugin', { sdkAppId: TEST_APP.sdkAppId, userId: 'speaker' })).toMatchObject({ ok: false, code: 5000, extraCode: 5001 });
  });
});
