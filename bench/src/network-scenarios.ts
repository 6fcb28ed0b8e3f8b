/**
 * Issue 43's scenarios and goals (bench/README.md "Bad networks"). Links: "up" is the speaking publisher's uplink,
 * "down" the viewer's downlink, "both" the viewer's link both ways (media down, its feedback — NACKs, PLIs, receiver
 * reports, transport-cc — up), as in the issue's first measurement. Delays are one way: RTT 300 ms is 150 ms each way.
 */
import type { Measured, Scenario } from '../../tests/e2e/src/harness/bad-network.js';

/** The call a scenario runs in. */
export type Session = 'one' | 'four' | 'hd';

export interface BenchScenario extends Scenario {
  session: Session;
  /** In the quick subset (the e2e file's rows). */
  quick?: boolean;
  /** The goal for this row, checked against the row and the session's clean run. */
  goal?: { text: string; met(m: Measured, clean: Measured): boolean };
}

const relative = (m: Measured, clean: Measured) => (clean.accuracy > 0 ? m.accuracy / clean.accuracy : 0);
/** Audio intact: at most 2 % of the speaker's samples concealed and no run of mostly concealed audio over 200 ms. */
const audioIntact = (m: Measured) => m.audio.concealedRatio <= 0.02 && m.audio.dropoutMs <= 200;

const lossRows = (share: number): BenchScenario[] => {
  const pct = Math.round(share * 100);
  const goal = share === 0.2
    ? { text: 'words ≥ 95 % of clean, ≥ 12 fps, no freeze > 1 s', met: (m: Measured, c: Measured) => relative(m, c) >= 0.95 && m.video.fps >= 12 && m.video.longestFreezeMs <= 1000 }
    : share === 0.3 ? { text: 'words ≥ 90 % of clean', met: (m: Measured, c: Measured) => relative(m, c) >= 0.9 }
      : share === 0.5 ? { text: 'words ≥ 70 % of clean', met: (m: Measured, c: Measured) => relative(m, c) >= 0.7 } : undefined;
  return [
    { session: 'one', name: `loss ${pct} % up`, publisher: { up: { loss: share } } },
    { session: 'one', name: `loss ${pct} % down`, viewer: { down: { loss: share } } },
    { session: 'one', name: `loss ${pct} % both`, viewer: { up: { loss: share }, down: { loss: share } }, quick: share === 0.2, goal },
  ];
};

export const SCENARIOS: BenchScenario[] = [
  ...[0.05, 0.1, 0.2, 0.3, 0.5].flatMap(lossRows),
  {
    // Gilbert–Elliott: bad 1 packet in 50 on average, a bad state of 8 packets on average, everything lost in it (~14 %).
    session: 'one', name: 'bursts down (GE, ~14 %, mean 8)', viewer: { down: { bursts: { pGoodToBad: 0.02, pBadToGood: 0.125, lossBad: 1 } } },
  },
  {
    session: 'one', name: 'RTT 100 ms ± 30', viewer: { up: { delayMs: 50, jitterMs: 15 }, down: { delayMs: 50, jitterMs: 15 } },
  },
  {
    session: 'one', name: 'RTT 300 ms ± 30', viewer: { up: { delayMs: 150, jitterMs: 15 }, down: { delayMs: 150, jitterMs: 15 } },
    goal: { text: 'words ≥ 95 % of clean', met: (m, c) => relative(m, c) >= 0.95 },
  },
  {
    session: 'one', name: '5 s blackout', schedule: [{ atMs: 3000, blackout: true }, { atMs: 8000, blackout: false, mark: 'blackout end' }],
  },
  {
    // A link that degrades and recovers: 10 % loss, then 30 % with a 600 kbit/s downlink, then clean again.
    session: 'one', name: 'degrades and recovers',
    schedule: [
      { atMs: 2000, directions: 'both', impairment: { loss: 0.1 } },
      { atMs: 4500, directions: 'up', impairment: { loss: 0.3 } },
      { atMs: 4500, directions: 'down', impairment: { loss: 0.3, rateKbit: 600 } },
      { atMs: 8000, directions: 'both', impairment: {}, mark: 'recovered' },
    ],
  },
  {
    session: 'four', name: 'four cameras, 600 kbit/s down', viewer: { down: { rateKbit: 600 } }, quick: true,
    goal: { text: 'audio intact, freeze time < 2 % of the call', met: (m) => audioIntact(m) && m.video.freezeShare < 0.02 },
  },
  {
    session: 'four', name: 'four cameras, 300 kbit/s down', viewer: { down: { rateKbit: 300 } },
    goal: { text: 'audio intact, video paused or small', met: (m) => audioIntact(m) && m.quality.video.every((v) => v.width <= 320 || v.fps < 1) },
  },
  { session: 'hd', name: '720p publisher, 500 kbit/s up', publisher: { up: { rateKbit: 500 } } },
];
