import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';
import { enterWithAudio, listenTo, RAW_MIC, spectrum } from './plugins-media.js';

/** Pitch ratios of the voice types measured here (packages/sdk/src/plugins/voice-changer/voices.ts). */
const LITTLE_GIRL = { voiceType: 2, ratio: 1.55 };
const MIDDLE_AGED_MAN = { voiceType: 3, ratio: 0.7 };
/** Within 4 % (under a semitone) of the expected frequency. */
const near = (hz: number, expected: number) => Math.abs(hz - expected) <= expected * 0.04;

let fx: AppFixture | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conclave-voice-'));
  // The fake microphone: a 220 Hz sine (Chromium loops the file).
  execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', join(dir, 'tone220.wav'), 'synth', '10', 'sine', '220', 'vol', '0.5']);
  fx = await startAppFixture({}, [`--use-file-for-fake-audio-capture=${join(dir, 'tone220.wav')}`]);
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Call = { ok: boolean; message?: string; code?: number };
const call = (page: Page, method: string, ...args: unknown[]): Promise<Call> =>
  page.evaluate(([m, a]) => (window as unknown as { e2e: { call(m: string, a: unknown[]): Promise<Call> } }).e2e.call(m as string, a as unknown[]), [method, args] as const);

/** Waits (bounded) until what `page` hears of alice peaks near `expected` Hz; returns the last measured peak. */
async function peakBecomes(page: Page, expected: number): Promise<number> {
  let last = 0;
  await expect.poll(async () => {
    last = (await spectrum(page, 1200, [expected])).peakHz;
    return near(last, expected);
  }, { timeout: 20_000, interval: 0 }).toBe(true);
  return last;
}

describe('Must show 3: VoiceChanger — a 220 Hz tone on a fake microphone is received shifted as the chosen voice type says (measured spectral peak), back to 220 Hz after stop', () => {
  it('start (little girl ×1.55), update (middle-aged man ×0.7) and stop while publishing, measured at a receiving page', async () => {
    const alice = await fx!.app.open(fx!.browser.context);
    const bob = await fx!.app.open(fx!.browser.context);
    const roomId = 25003;
    // Alice registers the plugin from its UMD file (a script-tag app), publishes the microphone and joins.
    await alice.addScriptTag({ url: `${fx!.server.url}/sdk/plugins/voice-changer/voice-changer.umd.js` });
    const userSig = await fx!.server.sig('alice');
    const joined = await alice.evaluate(async ({ sdkAppId, userSig: sig, roomId: room, mic }) => {
      const w = window as unknown as { e2e: { create(o: unknown): void; client: { startLocalAudio(o: unknown): Promise<void>; enterRoom(o: unknown): Promise<void> } }; VoiceChanger: unknown };
      w.e2e.create({ plugins: [w.VoiceChanger] });
      await w.e2e.client.startLocalAudio(mic);
      await w.e2e.client.enterRoom({ sdkAppId, userId: 'alice', userSig: sig, roomId: room });
      return 'ok';
    }, { sdkAppId: TEST_APP.sdkAppId, userSig, roomId, mic: RAW_MIC }).catch((error: unknown) => String(error));
    expect(joined).toBe('ok');
    expect(await enterWithAudio(bob, fx!.server, 'bob', roomId)).toEqual({ ok: true });
    await listenTo(bob, 'alice');
    const pcs = () => alice.evaluate(() => (window as unknown as { __pcs: unknown[] }).__pcs.length);
    const pcsBefore = await pcs();

    const before = await peakBecomes(bob, 220);

    const credentials = { sdkAppId: TEST_APP.sdkAppId, userId: 'alice', userSig };
    expect(await call(alice, 'startPlugin', 'VoiceChanger', { ...credentials, voiceType: LITTLE_GIRL.voiceType })).toMatchObject({ ok: true });
    const girl = await peakBecomes(bob, 220 * LITTLE_GIRL.ratio);

    expect(await call(alice, 'updatePlugin', 'VoiceChanger', { voiceType: MIDDLE_AGED_MAN.voiceType })).toMatchObject({ ok: true });
    const man = await peakBecomes(bob, 220 * MIDDLE_AGED_MAN.ratio);

    expect(await call(alice, 'stopPlugin', 'VoiceChanger')).toMatchObject({ ok: true });
    const after = await peakBecomes(bob, 220);

    // No renegotiation: the same peer connections carried it all.
    expect(await pcs()).toBe(pcsBefore);
    // Bad input: an RtcError, not a crash.
    expect(await call(alice, 'startPlugin', 'VoiceChanger', { ...credentials, voiceType: 99 })).toMatchObject({ ok: false, code: 5000 });
    console.log(`[voice-changer] peak before ${before.toFixed(1)} Hz; voiceType 2 ${girl.toFixed(1)} Hz (expected ${(220 * LITTLE_GIRL.ratio).toFixed(1)}); voiceType 3 ${man.toFixed(1)} Hz (expected ${(220 * MIDDLE_AGED_MAN.ratio).toFixed(1)}); after stop ${after.toFixed(1)} Hz`);
    await alice.close();
    await bob.close();
  }, 120_000);
});
