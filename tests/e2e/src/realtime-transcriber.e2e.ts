import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '@conclave/server';
import { call, eventsOf, type RecordedEvent } from './harness/client-page.js';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { join as joinRoom } from './harness/join.js';

/**
 * The sentence the fake microphone speaks (espeak-ng, a voice PocketSphinx's US English model hears well; Chromium
 * loops the file, with a pause after each time) and the word accuracy (1 − WER) a final transcript must reach.
 */
const SENTENCE = 'please call a doctor';
const MIN_WORD_ACCURACY = 0.75;

let fx: AppFixture | undefined;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'conclave-transcriber-'));
  const speech = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', 'en-us+m1', '-s', '130', '-w', join(dir, 'say.wav'), SENTENCE]);
  execFileSync('sox', [join(dir, 'say.wav'), '-r', '48000', '-c', '1', '-b', '16', speech, 'pad', '0.5', '1.5']);
  fx = await startAppFixture({}, [`--use-file-for-fake-audio-capture=${speech}`]);
}, 60_000);

afterAll(async () => {
  await stopAppFixture(fx ?? {});
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Registers the plugin from its UMD file, as a script-tag app does. */
async function registerPlugin(page: Page): Promise<void> {
  await page.addScriptTag({ url: `${fx!.server.url}/sdk/plugins/realtime-transcriber/realtime-transcriber.umd.js` });
  await page.evaluate(() => {
    const w = window as unknown as { e2e: { client: { use(p: unknown): void } }; RealtimeTranscriber: unknown };
    w.e2e.client.use(w.RealtimeTranscriber);
  });
}

const messages = async (page: Page) => (await eventsOf(page, 'realtime-transcriber-message')).map((e: RecordedEvent) => e.data);

describe('Must show: RealtimeTranscriber — a fake microphone speaking a known sentence (espeak-ng) produces a final transcript whose words match above a stated word accuracy', () => {
  it(`a listener receives partial and final sentences of the speaker; a final reaches ${MIN_WORD_ACCURACY * 100} % word accuracy; stop ends it`, async () => {
    const roomId = 28_000 + Math.floor(Math.random() * 1000);
    const speaker = await fx!.app.open(fx!.browser.context);
    const listener = await fx!.app.open(fx!.browser.context);
    expect(await joinRoom(speaker, fx!.server, 'speaker', { roomId }, { publish: false })).toEqual({ ok: true });
    // The microphone as captured (no echo cancellation, noise suppression or gain control pumping the level):
    // the test is of the server's transcription, not of the browser's voice processing.
    expect(await call(speaker, 'startLocalAudio', { option: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } })).toMatchObject({ ok: true });
    expect(await joinRoom(listener, fx!.server, 'listener', { roomId }, { publish: false })).toEqual({ ok: true });
    await registerPlugin(speaker);
    const startedAt = Date.now();

    expect(await call(speaker, 'startPlugin', 'RealtimeTranscriber', { sourceLanguage: 'en-US', userIdsToTranscribe: ['speaker'] })).toMatchObject({ ok: true });
    const robotId = `transcriber_${roomId}_robot_speaker`;
    // Every user of the room hears of the robot, registered or not.
    for (const page of [speaker, listener]) {
      await expect.poll(async () => (await eventsOf(page, 'realtime-transcriber-state-changed')).map((e) => e.data), { timeout: 10_000 })
        .toContainEqual({ state: 'started', roomId, transcriberRobotId: robotId, sourceLanguage: 'en-US' });
    }

    // A final sentence at the stated accuracy (the first may be heard while the model adapts to the voice).
    let best = 0;
    try {
      await expect.poll(async () => {
        const finals = (await messages(listener)).filter((m) => m.isCompleted === true);
        best = Math.max(0, ...finals.map((m) => 1 - wordErrorRate(SENTENCE, String(m.sourceText))));
        return best;
      }, { timeout: 50_000, interval: 500 }).toBeGreaterThanOrEqual(MIN_WORD_ACCURACY);
    } finally {
      console.info(`[transcriber] best final word accuracy ${best.toFixed(2)}:`, (await messages(listener)).filter((m) => m.isCompleted).map((m) => m.sourceText));
    }

    const all = await messages(listener);
    const final = all.find((m) => m.isCompleted === true && 1 - wordErrorRate(SENTENCE, String(m.sourceText)) >= MIN_WORD_ACCURACY)!;
    expect(final).toMatchObject({ speakerUserId: 'speaker', robotId, translationTexts: [] });
    expect(typeof final.segmentId).toBe('string');
    expect(final.timestamp as number).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(final.timestamp as number).toBeLessThanOrEqual(Date.now());
    // Partials of the same sentence came before it.
    expect(all.some((m) => m.isCompleted === false && m.segmentId === final.segmentId)).toBe(true);
    // The speaker's own page gets the same events.
    await expect.poll(async () => (await messages(speaker)).some((m) => m.segmentId === final.segmentId && m.isCompleted === true), { timeout: 5000 }).toBe(true);
    // /metrics counts the running robot by engine and the audio its recognizer was fed.
    const metric = (text: string, name: string) => Number(/^(\S+) (\S+)$/m.exec(text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '')?.[2] ?? NaN);
    const metricsText = await (await fetch(`${fx!.server.url}/metrics`)).text();
    expect(metric(metricsText, 'conclave_transcriber_robots{engine="pocketsphinx"}')).toBe(1);
    expect(metric(metricsText, 'conclave_transcribed_audio_seconds_total')).toBeGreaterThan(1);

    expect(await call(speaker, 'stopPlugin', 'RealtimeTranscriber', { transcriberRobotId: robotId })).toMatchObject({ ok: true });
    await expect.poll(async () => (await eventsOf(listener, 'realtime-transcriber-state-changed')).map((e) => e.data), { timeout: 10_000 })
      .toContainEqual({ state: 'stopped', roomId, transcriberRobotId: robotId, sourceLanguage: 'en-US' });
    // A robot that is no longer running stops without error, as the original's does.
    expect(await call(speaker, 'stopPlugin', 'RealtimeTranscriber', { transcriberRobotId: robotId })).toMatchObject({ ok: true });
    await speaker.close();
    await listener.close();
  }, 90_000);

  it('what needs a cloud model (translation, a language without an offline model) and bad options answer with clear errors', async () => {
    const page = await fx!.app.open(fx!.browser.context);
    expect(await joinRoom(page, fx!.server, 'asker', { roomId: 28_999 }, { publish: false })).toEqual({ ok: true });
    await registerPlugin(page);
    const translate = await call(page, 'startPlugin', 'RealtimeTranscriber', { sourceLanguage: 'en', translationLanguages: ['zh'] });
    expect(translate).toMatchObject({ ok: false, name: 'RtcError', code: 5400, extraCode: -1040 });
    expect(translate.message).toMatch(/translationLanguages needs a cloud translation model/);
    const chinese = await call(page, 'startPlugin', 'RealtimeTranscriber', { sourceLanguage: '16k_zh' });
    expect(chinese).toMatchObject({ ok: false, code: 5400, extraCode: -1040 });
    expect(chinese.message).toMatch(/sourceLanguage '16k_zh' is not one this server's offline recognizer \(pocketsphinx\) has a model for/);
    expect(await call(page, 'startPlugin', 'RealtimeTranscriber', {})).toMatchObject({ ok: false, code: 5000, extraCode: 5001 });
    expect(await call(page, 'startPlugin', 'RealtimeTranscriber', { sourceLanguage: 'en', userIdsToTranscribe: 7 })).toMatchObject({ ok: false, code: 5000, extraCode: 5002 });
    expect(await call(page, 'stopPlugin', 'RealtimeTranscriber', {})).toMatchObject({ ok: false, code: 5000, extraCode: 5001 });
    // Two robots under one id: the second is refused.
    expect(await call(page, 'startPlugin', 'RealtimeTranscriber', { sourceLanguage: 'en', transcriberRobotId: 'bot' })).toMatchObject({ ok: true });
    expect(await call(page, 'startPlugin', 'RealtimeTranscriber', { sourceLanguage: 'en', transcriberRobotId: 'bot' })).toMatchObject({ ok: false, code: 5400, extraCode: -1041 });
    expect(await call(page, 'stopPlugin', 'RealtimeTranscriber', { transcriberRobotId: 'bot' })).toMatchObject({ ok: true });
    await page.close();
  }, 60_000);
});
