import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCall, closeSide, measure, openCall, openSide, waitForVideo, type Call, type Measured, type Side } from './harness/bad-network.js';
import { ConclaveDriver } from './harness/conclave-call.js';
import { startTestServer, E2E_ENGINE, type TestServer } from './harness/server.js';
import { makeSpeech, SENTENCES } from './harness/speech.js';

/** The viewer's network namespace (the harness self-test uses 42). */
const VIEWER_NS = 43;

const describeRow = (m: Measured, clean?: Measured) => `${m.scenario}: words ${(m.accuracy * 100).toFixed(0)} %${clean ? ` (${((m.accuracy / clean.accuracy) * 100).toFixed(0)} % of clean)` : ''}, ` +
  `concealed ${(m.audio.concealedRatio * 100).toFixed(1)} %, dropouts ${m.audio.dropouts} (${m.audio.dropoutMs} ms), video ${m.video.streams}× ${m.video.fps.toFixed(1)} fps, ` +
  `freezes ${m.video.freezeCount} (${Math.round(m.video.freezeMs)} ms, longest ${Math.round(m.video.longestFreezeMs)}), width ${m.video.minWidth} — "${m.transcript}" ${JSON.stringify(m.phases)}`;

describe('Must show 43: the quick subset of bad networks — a viewer in a namespace of its own, the goals the code meets as assertions', () => {
  let server: TestServer;
  let driver: ConclaveDriver;
  let viewerSide: Side;
  let hostSide: Side;
  const speech = makeSpeech(SENTENCES.slice(0, 2));

  beforeAll(async () => {
    // The viewer's host end is the ICE address: a namespace reaches every host address through its default route.
    server = await startTestServer({ host: '0.0.0.0', iceAddress: `10.231.${VIEWER_NS}.1` });
    driver = new ConclaveDriver(server, E2E_ENGINE);
    hostSide = await openSide(driver);
    viewerSide = await openSide(driver, VIEWER_NS);
  });

  afterAll(async () => {
    await closeSide(viewerSide);
    await closeSide(hostSide);
    await driver?.close();
    await server?.close();
  });

  describe('one camera and a speaker', () => {
    let call: Call & { publishers: import('playwright-core').Page[] };
    let clean: Measured;
    beforeAll(async () => {
      call = await openCall(driver, { viewer: viewerSide, speaker: hostSide }, { roomId: 43_001, publishers: 1, profile: '480p', small: true, speech });
      expect(await waitForVideo(call.viewer)).toBe(true);
      clean = await measure(call, { name: 'clean' });
      console.log(`[bad-links] ${describeRow(clean)}`);
    });
    afterAll(() => closeCall(call));

    it('43 quick: 20 % random loss both ways on the viewer\'s link — no video freeze over 1 s (issue 43\'s goal), the audio repaired by RED (under 5 % concealed); words and fps are measured', async () => {
      // The recognizer scores the clean run (the reference the goal's "95 % of clean" is read against).
      expect(clean.accuracy).toBeGreaterThan(0.3);
      expect(await waitForVideo(call.viewer)).toBe(true);
      const lossy = await measure(call, { name: '20 % loss both ways', viewer: { up: { loss: 0.2 }, down: { loss: 0.2 } } });
      console.log(`[bad-links] ${describeRow(lossy, clean)} dropped ${JSON.stringify(lossy.dropped)} sender ${JSON.stringify(lossy.sender)}`);
      // The loss was applied: a fifth of the media into the page and of its feedback out of it.
      expect(lossy.dropped.viewerDown).toBeGreaterThan(50);
      expect(lossy.dropped.viewerUp).toBeGreaterThan(0);
      expect(lossy.video.streams).toBe(1);
      expect(lossy.video.fps).toBeGreaterThan(0);
      expect(lossy.video.longestFreezeMs).toBeLessThanOrEqual(1000);
      // The server's RED (each Opus frame again in the next two packets) repairs the downlink's loss: 0.5–1.5 %
      // concealed in 2026-12-02's runs (15–18 % before RED; LiveKit 8.3 %).
      expect(lossy.audio.concealedRatio).toBeLessThan(0.05);
      // Not asserted (bench/README.md "Bad networks"): words ≥ 95 % of the clean run — met in most runs, but the
      // recognizer's score of the same audio moves by ±10 % (89–100 % of clean here); ≥ 12 fps — met in these runs
      // (14.7–15 fps), not in earlier ones where the publisher's encoder went down to 320 wide and 8–10 fps.
    });
  });

  describe('four cameras', () => {
    it('43 quick: a 600 kbit/s downlink while four cameras publish — the allocator moves the viewer to small streams: audio intact (under 6 % concealed), video flowing, and every video is back once the cap is lifted', async () => {
      const call = await openCall(driver, { viewer: viewerSide, speaker: hostSide }, { roomId: 43_002, publishers: 4, profile: '480p', small: true, speech });
      try {
        expect(await waitForVideo(call.viewer)).toBe(true);
        const thin = await measure(call, { name: 'four cameras, 600 kbit/s downlink', viewer: { down: { rateKbit: 600 } } }, 800, { transcribe: false });
        console.log(`[bad-links] ${describeRow(thin)} dropped ${JSON.stringify(thin.dropped)}`);
        // The cap bit: the allocator moved the viewer to small streams (the width below). Its queue drops little now
        // (19–273 packets in 2026-12-02's runs, 22,509 before the allocator): not asserted.
        expect(thin.video.streams).toBe(4);
        expect(Math.max(...thin.quality.audio.map((a) => a.kbit))).toBeGreaterThan(8);
        // The downlink allocator settles on what fits (one big and three small, or four small): 1.3–2.9 % of the
        // audio concealed and 8–15 fps in 2026-12-02's runs (15 % and 0.8 fps before it).
        expect(thin.audio.concealedRatio).toBeLessThan(0.06);
        expect(thin.video.minWidth).toBeLessThanOrEqual(320);
        expect(thin.video.fps).toBeGreaterThan(4);
        // Not asserted, goal met in some runs only (bench/README.md "Bad networks"): freeze time under 2 % of the
        // call — 0–4 % of the 4 × ~10 s window, nearly all in the second before the allocator acts and in the
        // key-frame waits of the switch.
        expect(await waitForVideo(call.viewer, 25_000)).toBe(true);
      } finally {
        await closeCall(call);
      }
    });
  });
});
