import { defineConfig } from 'vitest/config';

// Unit tests live next to the code they test (`*.test.ts` under packages/*/src and apps/*/src); tests/repo
// checks the repository itself (docs citations); tests/fuzz fuzzes the HTTP surfaces (schemathesis); bench/src holds
// smoke tests of bench clients. Both need the built server (npm test builds before the unit tests).
// End-to-end tests run separately (`npm run test:e2e`) because they need builds and Chromium.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tests/repo/**/*.test.ts', 'bench/src/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
    environment: 'node',
    // Two files at a time even on two cores (vitest's default there is one): many files mostly wait (a 30 s
    // callback-receiver outage, Redis and Janus start-ups, slow-request timeouts), and each starts its servers on
    // ports chosen at run time, so two never meet.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
