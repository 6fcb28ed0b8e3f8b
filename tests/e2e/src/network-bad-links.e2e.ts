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

    it('43 quick: 20 % random loss both ways on the viewer\'s link — no video freeze over 1 s (issue 43\'s goal); words, fps and concealment are measured', async () => {
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
      // Not asserted, goals not met today (bench/README.md "Bad networks"): words ≥ 95 % of the clean run — the
      // receiver conceals as much audio as is lost (no FEC, no RED); ≥ 12 fps — met in some runs (14–15 fps at 640
      // wide), not in others (the publisher's encoder down to 320 wide and 8–10 fps: see the sender line logged).
    });
  });

  describe('four cameras', () => {
    it('43 quick: a 600 kbit/s downlink while four cameras publish — the call lives through it (audio keeps arriving) and every video is back once the cap is lifted', async () => {
      const call = await openCall(driver, { viewer: viewerSide, speaker: hostSide }, { roomId: 43_002, publishers: 4, profile: '480p', small: true, speech });
      try {
        expect(await waitForVideo(call.viewer)).toBe(true);
        const thin = await measure(call, { name: 'four cameras, 600 kbit/s downlink', viewer: { down: { rateKbit: 600 } } }, 800, { transcribe: false });
        console.log(`[bad-links] ${describeRow(thin)} dropped ${JSON.stringify(thin.dropped)}`);
        // The cap was the bottleneck: its queue dropped what did not fit.
        expect(thin.dropped.viewerDown).toBeGreaterThan(100);
        expect(thin.video.streams).toBe(4);
        expect(Math.max(...thin.quality.audio.map((a) => a.kbit))).toBeGreaterThan(8);
        // Not asserted, goals not met today (bench/README.md "Bad networks"): audio intact and freeze time under 2 % —
        // nothing moves the viewer to the small streams, so the four big ones lose packets alike and video stalls.
        expect(await waitForVideo(call.viewer, 25_000)).toBe(true);
      } finally {
        await closeCall(call);
      }
    });
  });
});
