import { existsSync } from 'node:fs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedEngine } from '../../../src/engine/embedded/embedded-engine.js';
import { JanusEngine } from '../../../src/engine/janus/janus-engine.js';
import type { SubscriptionWants, MediaEngine } from '../../../src/engine/media-engine.js';
import { CONFORMANCE_CASES, CONFORMANCE_SOURCE_WAIT_MS, type CaseContext, type ConformanceCase } from './conformance-cases.js';
import { PLAYBACK_CASES } from './playback-cases.js';
import { HANDLE_CASES } from './handle-cases.js';

/** Runs one case with its own ids and clean-ups. */
async function runCase(engine: MediaEngine, testCase: ConformanceCase, prefix: string): Promise<void> {
  const cleanups: (() => unknown)[] = [];
  const ctx: CaseContext = { engine, id: (name) => `${prefix}-${name}`, cleanup: (fn) => cleanups.push(fn) };
  try {
    await testCase.run(ctx);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** The suite against one engine, made once for the block. */
function conformance(name: string, start: () => Promise<MediaEngine>, skip = false): void {
  describe.skipIf(skip)(`engine conformance: ${name}`, () => {
    let engine: MediaEngine;
    beforeAll(async () => { engine = await start(); }, 30_000);
    afterAll(async () => { await engine?.close(); });
    [...CONFORMANCE_CASES, ...HANDLE_CASES, ...PLAYBACK_CASES].forEach((testCase, index) => {
      it(testCase.name, () => runCase(engine, testCase, `${name}-${index}`), 60_000);
    });
  });
}

conformance('embedded (werift)', async () => new EmbeddedEngine({ iceAddress: '127.0.0.1', sourceWaitMs: CONFORMANCE_SOURCE_WAIT_MS }));
conformance('Janus', () => JanusEngine.start({ iceAddress: '127.0.0.1', logger: pino({ level: 'silent' }), sourceWaitMs: CONFORMANCE_SOURCE_WAIT_MS }), !existsSync('/usr/bin/janus'));

/**
 * An engine that breaks the contract the way the engines did before it was written down: a change of a
 * subscription that does not exist "succeeds", and a failed downlink is not told.
 */
class SwallowingEngine extends EmbeddedEngine {
  override async updateSubscription(subscriberId: string, sourceId: string, wants: SubscriptionWants): Promise<void> {
    await super.updateSubscription(subscriberId, sourceId, wants).catch(() => undefined);
  }

  override onEvent(): () => void {
    return () => undefined;
  }
}

/** An engine that leaks: a participant's removal leaves its downlink open. */
class LeakingEngine extends EmbeddedEngine {
  override async resetDownlink(): Promise<void> {
    // leaks the downlink's peer connection and its transport
  }
}

describe('engine conformance: a broken engine fails the suite', () => {
  let engine: MediaEngine;
  beforeAll(() => { engine = new SwallowingEngine({ iceAddress: '127.0.0.1', sourceWaitMs: CONFORMANCE_SOURCE_WAIT_MS }); });
  afterAll(async () => { await engine.close(); });
  const byName = (start: string) => CONFORMANCE_CASES.find((c) => c.name.startsWith(start))!;

  it('a swallowed subscription refusal fails the not-subscribed case', async () => {
    await expect(runCase(engine, byName('updateSubscription without'), 'broken-1')).rejects.toThrow(/not-subscribed/);
  }, 60_000);

  it('an untold downlink failure fails the downlink-failed case', async () => {
    await expect(runCase(engine, byName('a downlink whose client answer fails'), 'broken-2')).rejects.toThrow(/downlink-failed/);
  }, 60_000);

  it('a leaked downlink fails the back-to-baseline case', async () => {
    const leaking = new LeakingEngine({ iceAddress: '127.0.0.1', sourceWaitMs: CONFORMANCE_SOURCE_WAIT_MS });
    try {
      await expect(runCase(leaking, byName('peer connections and handles are back'), 'broken-3')).rejects.toThrow(/resources after both left/);
    } finally {
      await leaking.close();
    }
  }, 60_000);
});
