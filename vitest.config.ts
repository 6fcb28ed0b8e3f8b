import { defineConfig } from 'vitest/config';

// Unit tests: the server's in its test wing (`packages/server/test/`, each at the place its code has under src/;
// docs/architecture.md "Testing"), the other packages' and apps' next to their code (`*.test.ts` under src/; a
// server test found there fails the layer rules); tests/repo checks the repository itself (docs citations, the test
// kit); tests/fuzz fuzzes the HTTP surfaces (schemathesis) and what a
// connected peer sends (signalling, SDP, SRTP/SRTCP); bench/src holds
// smoke tests of bench clients. Both need the built server (npm test builds before the unit tests).
// End-to-end tests run separately (`npm run test:e2e`) because they need builds and Chromium.
//
// `npm run test:unit` (tests/run-unit.mjs) runs two passes, chosen by CONCLAVE_UNIT_PASS: 'parallel', every file
// but SERIAL_FILES two at a time (they mostly wait on servers, timers and child processes, and each picks its own
// ports; vitest's default on two cores is one at a time); then 'serial', the files that measure time or load the
// CPU on purpose, one at a time, so a neighbour does not turn their bounds into failures. Unset: every file.
const SERIAL_FILES = [
  'packages/server/test/engine/conformance/conformance.test.ts',
  // Two engines and their relay links in one worker; counts key-frame requests over a window.
  'packages/server/test/engine/conformance/relay-conformance.test.ts',
  'packages/server/test/signal/join-storm.test.ts',
  'packages/server/test/signal/fuzz.test.ts',
  'packages/server/test/signal/heartbeat.test.ts',
  'packages/server/test/http/hostile-input.test.ts',
  'tests/fuzz/http-fuzz.test.ts',
  'tests/fuzz/peer-fuzz.test.ts',
  'bench/src/signal-load/signal-load.test.ts',
  // A real Chromium publisher whose bitrate ramp and back-off are measured.
  'packages/server/test/engine/embedded/uplink-feedback.test.ts',
];
const ALL_FILES = ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tests/repo/**/*.test.ts', 'bench/src/**/*.test.ts', 'tests/fuzz/**/*.test.ts'];
const pass = process.env.CONCLAVE_UNIT_PASS;

export default defineConfig({
  test: {
    include: pass === 'serial' ? SERIAL_FILES : ALL_FILES,
    exclude: pass === 'parallel' ? ['**/node_modules/**', ...SERIAL_FILES] : ['**/node_modules/**'],
    environment: 'node',
    ...(pass === 'parallel' ? { maxWorkers: 2, minWorkers: 1 } : pass === 'serial' ? { maxWorkers: 1, minWorkers: 1 } : {}),
  },
});
