// Runs the e2e suite in three phases (see vitest.config.ts): the ordinary files (one at a time unless
// CONCLAVE_E2E_WORKERS says more), then the
// heavy files one at a time, then the fault files one at a time. vitest's projects share one worker pool,
// so a project cannot run alone beside others; separate runs can. Arguments (file filters, -t …) go to
// every phase; every phase runs even when one fails, and the exit code says whether all passed.
import { spawnSync } from 'node:child_process';
import { failuresOf, jsonReportArgs, printFailures } from '../failure-summary.mjs';

const args = process.argv.slice(2);
const phases = [
  // One file at a time by default: two media files side by side on 2 cores made CI flaky (frame rates, loss,
  // a starved server); CONCLAVE_E2E_WORKERS=2 runs the light files two at a time on a bigger machine.
  { project: '*-light', workers: process.env.CONCLAVE_E2E_WORKERS ?? '1' },
  { project: '*-heavy', workers: '1' },
  { project: '*-faults', workers: '1' },
];
let failed = false;
const failures = [];
for (const { project, workers } of phases) {
  const started = Date.now();
  const report = jsonReportArgs(args, `e2e-${project.replace(/\W/g, '')}`);
  const run = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.config.ts', '--project', project,
    `--maxWorkers=${workers}`, '--minWorkers=1', '--passWithNoTests', ...report.args, ...args], { stdio: 'inherit' });
  process.stdout.write(`[e2e] ${project}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  if (run.status !== 0) failed = true;
  failures.push(...failuresOf(report.file));
}
printFailures('e2e', failures);
process.exit(failed ? 1 : 0);
