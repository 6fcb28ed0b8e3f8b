import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { JanusEngine } from '../../src/engine/janus/janus-engine.js';

/** A real Janus engine for the tests of a describe block, and what they leave to close (last first). */
export interface RealJanus {
  /** The engine, once the block's beforeAll has started it. */
  engine: JanusEngine;
  cleanups: (() => unknown)[];
}

/** Starts a Janus engine on loopback before the block's tests and closes it, after their cleanups, at the end. */
export function realJanus(): RealJanus {
  const janus = { cleanups: [] } as unknown as RealJanus;
  beforeAll(async () => {
    janus.engine = await JanusEngine.start({ iceAddress: '127.0.0.1', logger: pino({ level: 'silent' }) });
  }, 30_000);
  afterAll(async () => {
    for (const cleanup of janus.cleanups.reverse()) await cleanup();
    await (janus.engine as JanusEngine | undefined)?.close();
  });
  return janus;
}
