import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { EmbeddedEngine } from '../../../src/engine/embedded/embedded-engine.js';
import { JanusEngine } from '../../../src/engine/janus/janus-engine.js';
import type { MediaEngine } from '../../../src/engine/media-engine.js';
import { CONFORMANCE_SOURCE_WAIT_MS } from './conformance-cases.js';
import { RELAY_CASES, type RelayCase, type RelayContext } from './relay-cases.js';

type RelayEngine = RelayContext['a'];

/** Whether an engine declares the node-to-node relay (the optional exportSource and importSource). */
function declaresRelay(prototype: Partial<MediaEngine>): boolean {
  return typeof prototype.exportSource === 'function' && typeof prototype.importSource === 'function';
}

/**
 * The relay cases against three engines of one kind, made once for the block with one cluster secret. An engine that
 * does not declare the relay skips them, saying so in the block's name.
 */
function relayConformance(name: string, prototype: Partial<MediaEngine>, start: (secret: string) => Promise<MediaEngine>, unavailable = false): void {
  const declared = declaresRelay(prototype);
  const label = declared ? name : `${name} (skipped: the engine does not implement exportSource/importSource)`;
  describe.skipIf(!declared || unavailable)(`engine relay conformance: ${label}`, () => {
    const secret = randomBytes(16).toString('hex');
    let a: RelayEngine;
    let b: RelayEngine;
    let c: RelayEngine;
    beforeAll(async () => {
      a = await start(secret) as RelayEngine;
      b = await start(secret) as RelayEngine;
      c = await start(secret) as RelayEngine;
    }, 60_000);
    afterAll(async () => { await Promise.all([a?.close(), b?.close(), c?.close()]); });
    RELAY_CASES.forEach((testCase: RelayCase, index) => {
      it(testCase.name, async () => {
        const cleanups: (() => unknown)[] = [];
        const ctx: RelayContext = { a, b, c, secret, id: (id) => `${name}-${index}-${id}`, cleanup: (fn) => cleanups.push(fn) };
        try {
          await testCase.run(ctx);
        } finally {
          for (const cleanup of cleanups.reverse()) await cleanup();
        }
      }, 60_000);
    });
  });
}

relayConformance('embedded (werift)', EmbeddedEngine.prototype,
  async (secret) => new EmbeddedEngine({ iceAddress: '127.0.0.1', sourceWaitMs: CONFORMANCE_SOURCE_WAIT_MS, relaySecret: secret }));
relayConformance('Janus', JanusEngine.prototype,
  async () => { throw new Error('the Janus engine has no relay yet'); });
