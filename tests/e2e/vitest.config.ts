import { defineConfig } from 'vitest/config';

// Real-browser scenarios: one file at a time (two cores), generous bounds; every wait is on a condition.
export default defineConfig({
  test: {
    include: ['src/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    environment: 'node',
  },
});
