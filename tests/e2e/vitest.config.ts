import { defineConfig } from 'vitest/config';

/**
 * Real-browser scenarios, once per media engine (embedded and janus; CONCLAVE_E2E_ENGINE=<one> runs
 * only that one). Generous bounds; every wait is on a condition.
 *
 * Scheduling (two cores): the ordinary files of both engines run first, two files at a time (each file
 * starts its own server on free ports, so they never meet). The fault files (resilience, recovery)
 * use fixed network-namespace names and root iptables: they run afterwards, one file at a time, one
 * engine after the other, never beside anything else.
 */
const FAULT_FILES = ['src/resilience.e2e.ts', 'src/recovery.e2e.ts'];
/**
 * Files whose subject does not depend on the media engine (the SDK's plugins and packaging, the demo, TLS,
 * cluster bookkeeping): they run in the embedded project only.
 */
const EMBEDDED_ONLY = [
  'src/npm-pack.e2e.ts', 'src/plugins-*.e2e.ts', 'src/video-effects-*.e2e.ts', 'src/demo*.e2e.ts', 'src/network-tls.e2e.ts',
  'src/cluster-admin.e2e.ts', 'src/cluster-draining.e2e.ts',
];
const ENGINES = (process.env.CONCLAVE_E2E_ENGINE ? [process.env.CONCLAVE_E2E_ENGINE] : ['embedded', 'janus']);

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 60_000,
    environment: 'node',
    maxWorkers: Number(process.env.CONCLAVE_E2E_WORKERS ?? 2),
    minWorkers: 1,
    projects: ENGINES.flatMap((engine, index) => [
      {
        extends: true,
        test: {
          name: engine,
          include: ['src/**/*.e2e.ts'],
          exclude: engine === 'embedded' ? FAULT_FILES : [...FAULT_FILES, ...EMBEDDED_ONLY],
          env: { CONCLAVE_E2E_ENGINE: engine },
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: `${engine}-faults`,
          include: FAULT_FILES,
          env: { CONCLAVE_E2E_ENGINE: engine },
          fileParallelism: false,
          sequence: { groupOrder: 1 + index },
        },
      },
    ]),
  },
});
