// `npm run test:unit`: the unit tests in two passes (vitest.config.ts says which files and why): most files two at
// a time, then the timing- and CPU-sensitive ones one at a time. Arguments (file filters, -t …) go to both passes;
// every pass runs even when one fails, and the exit code says whether both passed.
import { spawnSync } from 'node:child_process';

let failed = false;
for (const pass of ['parallel', 'serial']) {
  const started = Date.now();
  const run = spawnSync('npx', ['vitest', 'run', '--passWithNoTests', ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, CONCLAVE_UNIT_PASS: pass } });
  process.stdout.write(`[unit] ${pass}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`);
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
