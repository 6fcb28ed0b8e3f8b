// The test runners' one loop (tests/run-unit.mjs, tests/e2e/run-e2e.mjs): vitest runs in phases, each timed; every
// phase runs even when one fails; the exit code says whether all passed. Last comes every failed test with the first
// lines of its error: CI keeps only the tail of a long log, and vitest's own failure report comes before a phase's
// summary and the next phases' output, so without it a red run may not say what failed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** Reporter arguments that add a JSON report at a fresh path to vitest's default one (none if the caller chose reporters). */
function jsonReportArgs(args, label) {
  if (args.some((a) => a.startsWith('--reporter'))) return { args: [], file: undefined };
  const file = join(tmpdir(), `conclave-vitest-${label}-${process.pid}.json`);
  rmSync(file, { force: true });
  return { args: ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`], file };
}

/** The failures a JSON report holds, one line of name and up to `lines` lines of error each. */
function failuresOf(file, lines = 6) {
  if (!file || !existsSync(file)) return [];
  let report;
  try { report = JSON.parse(readFileSync(file, 'utf8')); } catch { return [`(the JSON report ${file} could not be read)`]; }
  finally { rmSync(file, { force: true }); }
  const out = [];
  for (const result of report.testResults ?? []) {
    const where = relative(process.cwd(), result.name ?? '');
    const failed = (result.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const test of failed) out.push(`✗ ${where} > ${test.fullName}\n${excerpt(test.failureMessages?.join('\n') ?? '', lines)}`);
    if (failed.length === 0 && result.status === 'failed') out.push(`✗ ${where} (the file itself)\n${excerpt(result.message ?? '', lines)}`);
  }
  return out;
}

function excerpt(text, lines) {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '').split('\n')
    .filter((l) => l.trim() !== '' && !/^\s*at .*(node_modules|node:internal|<anonymous>)/.test(l));
  return plain.slice(0, lines).map((l) => `    ${l.slice(0, 300)}`).join('\n');
}

/**
 * Runs `phases` one after another as `npx vitest run --passWithNoTests <phase args> <args>` (`args`: the caller's
 * file filters, -t …), prints each one's outcome and time as `[runner] name: …`, then the failed tests, and exits.
 * @param {string} runner
 * @param {{ name: string, vitestArgs?: string[], env?: Record<string, string> }[]} phases
 * @param {string[]} args
 */
export function runPhases(runner, phases, args) {
  let failed = false;
  const failures = [];
  for (const { name, vitestArgs = [], env = {} } of phases) {
    const started = Date.now();
    const report = jsonReportArgs(args, `${runner}-${name.replace(/\W/g, '')}`);
    const run = spawnSync('npx', ['vitest', 'run', '--passWithNoTests', ...vitestArgs, ...report.args, ...args],
      { stdio: 'inherit', env: { ...process.env, ...env } });
    process.stdout.write(`[${runner}] ${name}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`);
    if (run.status !== 0) failed = true;
    failures.push(...failuresOf(report.file));
  }
  if (failures.length > 0) process.stdout.write(`\n[${runner}] ${failures.length} failed:\n${failures.join('\n')}\n`);
  process.exit(failed ? 1 : 0);
}
