/**
 * The signalling capacity bench alone: `node --import tsx src/signal-load/main.ts` in bench/ after
 * `npm run build` (knobs: BENCH_SIGNAL_USERS and the others in plan.ts). Prints its table rows.
 */
import { progress } from '../stats.js';
import { renderTable } from '../table.js';
import { loadOptionsFromEnv } from './plan.js';
import { signalLoadRows } from './rows.js';
import { runSignalLoad } from './run-signal-load.js';

const result = await runSignalLoad(loadOptionsFromEnv());
progress(JSON.stringify(result));
process.stdout.write(`\n${renderTable(signalLoadRows(result))}\n`);
