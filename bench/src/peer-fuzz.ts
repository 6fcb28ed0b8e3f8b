/**
 * The long peer fuzz (tests/fuzz/peer-fuzz.ts with more inputs than npm test's): the schema-aware signalling fuzz
 * and the media fuzz (hostile SDP, SRTP and SRTCP from connected peers) against a server in this process. Rows:
 * inputs tried per category, crashes, rule violations, heap growth, what the bystanders received.
 */
import { startServer } from '@conclave/server';
import { peerFuzzServerOverrides, runPeerFuzz, type PeerFuzzResult } from '../../tests/fuzz/peer-fuzz.js';
import { fuzzIterations, fuzzSeed } from '../../tests/fuzz/prng.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

export interface PeerFuzzBenchResult extends PeerFuzzResult {
  iterations: number;
}

/** CONCLAVE_FUZZ_ITERATIONS (12,000) and CONCLAVE_FUZZ_SEED (a new one each run; printed) size and seed the run. */
export async function runPeerFuzzBench(): Promise<PeerFuzzBenchResult> {
  const iterations = fuzzIterations(12_000);
  const seed = fuzzSeed(Date.now() % 1_000_000);
  progress(`peer-fuzz: seed ${seed}, ${iterations} iterations (CONCLAVE_FUZZ_SEED=${seed} replays it)`);
  const server = await startServer({ port: 0, host: '127.0.0.1', devMode: false, logLevel: 'silent', iceAddress: '127.0.0.1', storage: { path: ':memory:' }, ...peerFuzzServerOverrides() }, {});
  try {
    const result = await runPeerFuzz(server, { seed, iterations });
    progress(`peer-fuzz: ${result.inputs.signal} signalling messages, ${result.inputs.media} media inputs, ${result.crashes.length} crashes`);
    return { ...result, iterations };
  } finally {
    await server.close();
  }
}

const sum = (record: Partial<Record<string, number>>) => Object.values(record).reduce<number>((n, v) => n + (v ?? 0), 0);
const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

export function peerFuzzRows(r: PeerFuzzBenchResult): Row[] {
  const b = 'peer fuzz (signalling, SDP, SRTP/SRTCP)';
  const { signal, media } = r;
  const sdp = sum(media.sdp.publish) + sum(media.sdp.dataLink) + sum(media.sdp.downlinkAnswer);
  const violations = signal.violations.length + media.violations.length + r.bystanders.failures.length + r.bystanders.strangers.length + r.bystanders.removed.length;
  return [
    { benchmark: b, figure: String(r.inputs.signal), unit: 'signalling messages', notes: `${Object.keys(signal.byCommand).length} commands, each field broken ~100 ways, × 3 session states (before join, joined, after leave); ${signal.invalid} refused by the schema; ${signal.codedCloses} coded closes; seed ${r.seed}, ${r.seconds.signal.toFixed(0)} s` },
    { benchmark: b, figure: String(sum(media.rtp)), unit: 'SRTP packets', notes: `uplink, protected with the link's keys (random-bytes bare): ${Object.entries(media.rtp).map(([k, v]) => `${k} ${v}`).join(', ')}` },
    { benchmark: b, figure: String(sum(media.rtcpUplink) + sum(media.rtcpDownlink)), unit: 'SRTCP packets', notes: `uplink ${sum(media.rtcpUplink)}, downlink ${sum(media.rtcpDownlink)}: ${Object.keys(media.rtcpDownlink).join(', ')}` },
    { benchmark: b, figure: String(sdp), unit: 'SDP offers/answers', notes: `publish ${sum(media.sdp.publish)}, data-link ${sum(media.sdp.dataLink)}, downlink-answer ${sum(media.sdp.downlinkAnswer)}; ${media.rounds} attackers (join, publish, subscribe, attack, leave); regression inputs ${media.regressions}` },
    { benchmark: b, figure: String(Object.values(r.refusedByGuards).reduce((n, v) => n + v, 0)), unit: 'refused by the engine\'s guards', notes: `conclave_media_inputs_refused_total: ${Object.entries(r.refusedByGuards).map(([k, v]) => `${k} ${v}`).join(', ')} (malformed RTP headers, transport-cc feedback; werift-input-guards.ts)` },
    { benchmark: b, figure: String(r.crashes.length), unit: 'crashes', notes: `uncaught exceptions / unhandled rejections in the server's process; /healthz afterwards ${r.healthAfter}` },
    { benchmark: b, figure: String(violations), unit: 'violations', notes: 'uncoded or wrongly coded replies, links left behind, bystanders disturbed or shown the fuzz, foreign media on an honest m-line' },
    { benchmark: b, figure: `${mb(r.heapGrowth.signal)} / ${mb(r.heapGrowth.media)}`, unit: 'MB heap growth', notes: `after GC${r.heapGrowth.collected ? '' : ' (gc() unavailable: without collection)'}, signalling / media runs after their warm-ups` },
    { benchmark: b, figure: `${media.bystanderReceived}/${media.bystanderSent}`, unit: 'bystander packets', notes: `received/sent by a publisher→subscriber pair in another room during the media fuzz (${r.seconds.media.toFixed(0)} s); min per round ${Math.min(...media.bystanderPerRound)}` },
  ];
}
