/**
 * The churn soak alone: `node --import tsx src/soak-main.ts` in bench/ after `npm run build`.
 * BENCH_SOAK_MINUTES per engine (default 1; the long run: BENCH_SOAK_MINUTES=30), BENCH_SOAK_ENGINES
 * (embedded,janus), BENCH_SOAK_SAMPLE_SECONDS (5), BENCH_SOAK_SLOTS (2). Prints the table rows; writes
 * bench/results/soak-<engine>.svg and bench/results/soak.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../../tests/e2e/src/harness/browser.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import type { EngineName } from './engines.js';
import { runSoaks, soakRows } from './soak.js';
import { renderTable } from './table.js';

const dir = fileURLToPath(new URL('../results/', import.meta.url));
mkdirSync(dir, { recursive: true });
const browser = await launchBrowser();
try {
  const engines = (process.env.BENCH_SOAK_ENGINES ?? 'embedded,janus').split(',').filter(Boolean) as EngineName[];
  const results = await runSoaks(browser.context, (url) => AppHost.start(url), dir, engines);
  writeFileSync(`${dir}soak.json`, JSON.stringify(results, null, 2));
  process.stdout.write(`\n${renderTable(soakRows(results))}\n`);
} finally {
  await browser.close();
}
