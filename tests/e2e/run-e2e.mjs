// Runs the e2e suite in three phases (see vitest.config.ts): the ordinary files (one at a time unless
// CONCLAVE_E2E_WORKERS says more), then the
// heavy files one at a time, then the fault files one at a time. vitest's projects share one worker pool,
// so a project cannot run alone beside others; separate runs can. Arguments (file filters, -t …) go to
// every phase (run-phases.mjs: every phase runs, the failed tests come last, the exit code says whether all passed).
import { runPhases } from '../run-phases.mjs';

runPhases('e2e', [
  // One file at a time by default: two media files side by side on 2 cores made CI flaky (frame rates, loss,
  // a starved server); CONCLAVE_E2E_WORKERS=2 runs the light files two at a time on a bigger machine.
  { project: '*-light', workers: process.env.CONCLAVE_E2E_WORKERS ?? '1' },
  { project: '*-heavy', workers: '1' },
  { project: '*-faults', workers: '1' },
].map(({ project, workers }) => ({
  name: project,
  vitestArgs: ['--config', 'vitest.config.ts', '--project', project, `--maxWorkers=${workers}`, '--minWorkers=1'],
})), process.argv.slice(2));
