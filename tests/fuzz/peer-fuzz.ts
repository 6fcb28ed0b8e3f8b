/**
 * The fuzz of what a connected peer can send (issue 38 "Beyond the list"), one run for `npm test` (bounded) and the
 * bench (longer): the schema-aware signalling fuzz (signal-schema-fuzz.ts) beside signalling bystanders, then the
 * media fuzz (media-fuzz.ts) beside a bystander publisher→subscriber pair. The server runs in this process, so a
 * crash is an uncaught exception or unhandled rejection here, and its heap is this process's heap. Sized by
 * CONCLAVE_FUZZ_ITERATIONS and seeded by CONCLAVE_FUZZ_SEED (prng.ts).
 */
import type { RunningServer } from '@conclave/server';
import { SignalBystanders } from './bystanders.js';
import { MediaFuzz, mediaInputs, type MediaFuzzFigures } from './media-fuzz.js';
import { seededRng } from './prng.js';
import { heapReader, watchCrashes } from './process-watch.js';
import { emptySignalFigures, runSignalSchemaFuzz, type SignalFuzzFigures } from './signal-schema-fuzz.js';
import { httpStatus } from './signal-client.js';

/** The fuzzed app (the fuzz holds its key: it signs its own users), and another app it only knows the ids of. */
export const PEER_FUZZ_APP = Object.freeze({ sdkAppId: 1400700001, secretKey: 'peer-fuzz-app-secret-0123456789' });
export const PEER_FUZZ_OTHER_APP = Object.freeze({ sdkAppId: 1400700002, secretKey: 'peer-fuzz-other-secret-012345678' });

/**
 * The server settings of a run (ServerOverrides of startServer): both apps; per-connection request and join rates
 * high enough that every message reaches validation and the handlers, failed joins included (the limits have their
 * own tests); a dropped connection leaves at once, so anything a fuzzer left behind would show.
 */
export function peerFuzzServerOverrides() {
  return {
    apps: [{ ...PEER_FUZZ_APP }, { ...PEER_FUZZ_OTHER_APP }],
    sessionGraceMs: 0,
    limits: {
      requestsPerSecond: 1_000_000, connectionsPerIp: 1_000, joinsPerSecond: 100_000, joinBurst: 100_000,
      failedJoinsPerConnection: 1_000, failedJoinsPerMinute: 1_000_000,
    },
  };
}

/** How much a run of `iterations` tries: signalling cases (each in 3 states), media rounds and their inputs. */
export function peerFuzzPlan(iterations: number) {
  return { signalCases: iterations, attackRounds: Math.max(3, Math.ceil(iterations / 1_000)), packetsPerRound: 1_000, sdpPerRound: 25 };
}

export interface PeerFuzzResult {
  seed: number;
  signal: SignalFuzzFigures;
  media: MediaFuzzFigures;
  /** Inputs tried: signalling messages, media inputs (RTP, RTCP, SDP). */
  inputs: { signal: number; media: number };
  /** Uncaught exceptions and unhandled rejections in the server's process. */
  crashes: string[];
  /** Heap growth after GC over the runs after their warm-ups, signalling and media (bytes). */
  heapGrowth: { signal: number; media: number; collected: boolean };
  /** What the signalling bystanders saw of the fuzz (users that are not theirs), and who of them was removed. */
  bystanders: { strangers: string[]; removed: string[]; failures: string[] };
  healthAfter: number;
  /** Media inputs the engine's guards refused (from /metrics: conclave_media_inputs_refused_total), by kind. */
  refusedByGuards: Record<string, number>;
  seconds: { signal: number; media: number };
}

/** The counts of conclave_media_inputs_refused_total in the server's /metrics, by kind. */
async function refusedByGuards(baseUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  return Object.fromEntries([...text.matchAll(/^conclave_media_inputs_refused_total\{kind="([^"]+)"\} (\d+)/gm)].map((m) => [m[1], Number(m[2])]));
}

/** Both fuzzes against `server` (started with peerFuzzServerOverrides()). */
export async function runPeerFuzz(server: RunningServer, { seed, iterations }: { seed: number; iterations: number }): Promise<PeerFuzzResult> {
  const plan = peerFuzzPlan(iterations);
  const crashes = watchCrashes();
  const heap = heapReader();
  const rng = seededRng(seed);
  const failures: string[] = [];
  const bystanders = await SignalBystanders.join(server.url, [{ app: PEER_FUZZ_APP, roomId: '5150' }, { app: PEER_FUZZ_OTHER_APP, roomId: '7001' }]);
  try {
    const signalOptions = { baseUrl: server.url, app: PEER_FUZZ_APP, rooms: { 'before-join': '7001', joined: '7002', 'after-leave': '7003' }, otherRoomId: '7004', rng };
    const signal = emptySignalFigures();
    let started = performance.now();
    // Warm-up (code compiled, pools filled), then the run whose heap growth counts.
    await runSignalSchemaFuzz({ ...signalOptions, cases: Math.min(300, plan.signalCases) }, signal);
    await bystanders.stillWork().catch((error: unknown) => failures.push(`after the signalling warm-up: ${String(error)}`));
    const signalHeap = heap.read();
    await runSignalSchemaFuzz({ ...signalOptions, cases: plan.signalCases }, signal);
    await bystanders.stillWork().catch((error: unknown) => failures.push(`after the signalling fuzz: ${String(error)}`));
    const signalGrowth = heap.read() - signalHeap;
    const signalSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    const media = await MediaFuzz.setUp({ baseUrl: server.url, app: PEER_FUZZ_APP, stats: () => server.stats() });
    await media.attackRound(rng, plan.packetsPerRound / 4, 'H264');
    await media.sdpRound(rng, 10);
    const mediaHeap = heap.read();
    for (let round = 0; round < plan.attackRounds; round++) {
      await media.attackRound(rng, plan.packetsPerRound, round % 2 === 0 ? 'H264' : 'VP8');
      await media.sdpRound(rng, plan.sdpPerRound);
    }
    const mediaGrowth = heap.read() - mediaHeap;
    const mediaFigures = await media.finish();
    await bystanders.stillWork().catch((error: unknown) => failures.push(`after the media fuzz: ${String(error)}`));
    return {
      seed, signal, media: mediaFigures, inputs: { signal: signal.sent, media: mediaInputs(mediaFigures) }, crashes: [...crashes.crashes],
      heapGrowth: { signal: signalGrowth, media: mediaGrowth, collected: heap.collected },
      bystanders: { strangers: bystanders.strangersSeen(), removed: bystanders.removed(), failures },
      healthAfter: await httpStatus(`${server.url}/healthz`),
      refusedByGuards: await refusedByGuards(server.url),
      seconds: { signal: signalSeconds, media: (performance.now() - started) / 1000 },
    };
  } finally {
    bystanders.close();
    crashes.stop();
  }
}
