// `npm run test:unit`: the unit tests in two passes (vitest.config.ts says which files and why): most files two at
// a time, then the timing- and CPU-sensitive ones one at a time. Arguments (file filters, -t …) go to both passes;
// every pass runs even when one fails, and the exit code says whether both passed.
import { spawnSync } from 'node:child_process';
import { failuresOf, jsonReportArgs, printFailures } from './failure-summary.mjs';

let failed = false;
const failures = [];
for (const pass of ['parallel', 'serial']) {
  const started = Date.now();
  const report = jsonReportArgs(process.argv.slice(2), `unit-${pass}`);
  const run = spawnSync('npx', ['vitest', 'run', '--passWithNoTests', ...report.args, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, CONCLAVE_UNIT_PASS: pass } });
  process.stdout.write(`[unit] ${pass}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  if (run.status !== 0) failed = true;
  failures.push(...failuresOf(report.file));
}
printFailures('unit', failures);
process.exit(failed ? 1 : 0);
