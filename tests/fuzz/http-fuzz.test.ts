/**
 * Must show (issue 30) "Hostile input, beyond the signalling fuzz": property-based fuzzing of every HTTP
 * surface from its OpenAPI description (schemathesis) — scheduling, log upload, the admin API and TRTC's
 * server API: no 5xx, no crash, no data change from a refused request. The short run; the bench runs longer.
 */
import { startServer, type RunningServer } from '@conclave/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzServerOverrides, runHttpFuzz, type HttpFuzzResult } from './http-fuzz.js';
import { ensureSchemathesis } from './schemathesis.js';

describe('hostile input: property-based fuzzing of every HTTP surface from its OpenAPI description', () => {
  let server: RunningServer;
  let result: HttpFuzzResult;
  beforeAll(async () => {
    ensureSchemathesis(); // throws (the test fails) when it cannot be installed
    server = await startServer({ port: 0, host: '127.0.0.1', devMode: false, logLevel: 'silent', iceAddress: '127.0.0.1', storage: { path: ':memory:' }, ...fuzzServerOverrides() }, {});
    result = await runHttpFuzz(server.url, { maxExamples: 3, seed: Number(process.env.CONCLAVE_FUZZ_SEED ?? 1), timeoutMs: 50_000 });
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  it('refused requests (no admin key, a wrong one, bad cloud API signatures) answer without a 5xx and change nothing', () => {
    const { refused } = result;
    expect(refused.errors, refused.outputTail).toEqual([]);
    expect(refused.failureDetails, refused.outputTail).toEqual([]);
    expect(refused.operations).toBeGreaterThanOrEqual(20); // the admin API's routes and the cloud API
    expect(refused.hookCounts.cloudApi).toBeGreaterThan(0);
    expect(refused.hookCounts.cloudApiPastSignature).toBe(0);
    expect(result.afterRefused).toBe(result.before);
  });

  it('every operation with the right keys, signed cloud API actions included, answers without a 5xx and the server stays healthy', () => {
    const { authorized } = result;
    expect(authorized.errors, authorized.outputTail).toEqual([]);
    expect(authorized.failureDetails, authorized.outputTail).toEqual([]);
    expect(authorized.skipped).toEqual([]);
    expect(authorized.operations).toBeGreaterThanOrEqual(27); // every documented operation
    expect(authorized.testCases).toBeGreaterThan(authorized.operations);
    // The hooks' signatures are right: fuzzed actions reach the cloud API's handlers.
    expect(authorized.hookCounts.cloudApiPastSignature).toBeGreaterThan(0);
    expect(result.healthAfter).toBe(200);
  });
});
