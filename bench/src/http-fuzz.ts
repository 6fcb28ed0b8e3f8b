/**
 * The long HTTP fuzz (tests/fuzz/http-fuzz.ts with more examples per operation than npm test's): every HTTP
 * surface from the OpenAPI document, refused requests (wrong keys, bad signatures) and authorized ones,
 * against a server in this process. Rows: requests tried and failures (5xx, crashes, data changed by a refusal).
 */
import { startServer } from '@conclave/server';
import { fuzzServerOverrides, runHttpFuzz, type HttpFuzzResult } from '../../tests/fuzz/http-fuzz.js';
import { SCHEMATHESIS_VERSION } from '../../tests/fuzz/schemathesis.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

export interface HttpFuzzBenchResult extends HttpFuzzResult {
  maxExamples: number;
  seconds: number;
}

export async function runHttpFuzzBench({ maxExamples = 25, seed = Date.now() % 100_000 } = {}): Promise<HttpFuzzBenchResult> {
  const server = await startServer({ port: 0, host: '127.0.0.1', devMode: false, logLevel: 'silent', iceAddress: '127.0.0.1', storage: { path: ':memory:' }, ...fuzzServerOverrides() }, {});
  const started = performance.now();
  try {
    const result = await runHttpFuzz(server.url, { maxExamples, seed, timeoutMs: 20 * 60_000 });
    progress(`http-fuzz: ${result.refused.testCases} refused-run and ${result.authorized.testCases} authorized-run requests, ${result.refused.failures + result.authorized.failures} failures`);
    return { ...result, maxExamples, seconds: (performance.now() - started) / 1000 };
  } finally {
    await server.close();
  }
}

export function httpFuzzRows(r: HttpFuzzBenchResult): Row[] {
  const b = 'HTTP fuzz (schemathesis)';
  const changed = r.afterRefused === r.before ? 0 : 1;
  const failures = (run: HttpFuzzResult['refused']) => run.failures + run.errors.length;
  return [
    { benchmark: b, figure: String(r.refused.testCases), unit: 'requests tried', notes: `refused run: admin API with no / wrong keys, cloud API badly signed (${r.refused.operations} operations, ${r.maxExamples} examples each + edge cases, schemathesis ${SCHEMATHESIS_VERSION})` },
    { benchmark: b, figure: String(failures(r.refused) + changed), unit: 'failures', notes: `5xx or errors: ${failures(r.refused)}; server state changed by refused requests: ${changed ? 'yes' : 'no'} (app, rooms, users, bans, logs, jobs, recordings, images)` },
    { benchmark: b, figure: String(r.authorized.testCases), unit: 'requests tried', notes: `authorized run: every operation (${r.authorized.operations}) with the admin key, cloud API signed (${r.authorized.hookCounts.cloudApiPastSignature}/${r.authorized.hookCounts.cloudApi} past the signature check)` },
    { benchmark: b, figure: String(failures(r.authorized) + (r.healthAfter === 200 ? 0 : 1)), unit: 'failures', notes: `5xx or errors: ${failures(r.authorized)}; /healthz afterwards ${r.healthAfter}; ${r.seconds.toFixed(0)} s in all` },
  ];
}
