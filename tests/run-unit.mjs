// `npm run test:unit`: the unit tests in two passes (vitest.config.ts says which files and why): most files two at
// a time, then the timing- and CPU-sensitive ones one at a time. Arguments (file filters, -t …) go to both passes
// (run-phases.mjs: every pass runs, the failed tests come last, the exit code says whether both passed).
import { runPhases } from './run-phases.mjs';

runPhases('unit', ['parallel', 'serial'].map((pass) => ({ name: pass, env: { CONCLAVE_UNIT_PASS: pass } })), process.argv.slice(2));
