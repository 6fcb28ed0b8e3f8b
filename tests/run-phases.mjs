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

/** A JSON report's contents (undefined when there is none or it cannot be read); the file is removed. */
function readReport(file) {
  if (!file || !existsSync(file)) return undefined;
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return { unreadable: file }; }
  finally { rmSync(file, { force: true }); }
}

/** Each file's wall time in a report, in seconds, as `{ phase, where, seconds }`. */
function fileTimesOf(report, phase) {
  return (report?.testResults ?? [])
    .filter((r) => Number.isFinite(r.startTime) && Number.isFinite(r.endTime))
    .map((r) => ({ phase, where: relative(process.cwd(), r.name ?? ''), seconds: (r.endTime - r.startTime) / 1000 }));
}

/** The failures a report holds, one line of name and up to `lines` lines of error each. */
function failuresOf(report, lines = 6) {
  if (!report) return [];
  if (report.unreadable) return [`(the JSON report ${report.unreadable} could not be read)`];
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

/** How many of the slowest files a run lists (CONCLAVE_SLOWEST_FILES; 0 lists none). */
const SLOWEST = Number(process.env.CONCLAVE_SLOWEST_FILES ?? 12);

/**
 * Runs `phases` one after another as `npx vitest run --passWithNoTests <phase args> <args>` (`args`: the caller's
 * file filters, -t …), prints each one's outcome and time as `[runner] name: …`, then the slowest files (where CI's
 * time goes), then the failed tests, and exits.
 * @param {string} runner
 * @param {{ name: string, vitestArgs?: string[], env?: Record<string, string> }[]} phases
 * @param {string[]} args
 */
export function runPhases(runner, phases, args) {
  let failed = false;
  const failures = [];
  const times = [];
  for (const { name, vitestArgs = [], env = {} } of phases) {
    const started = Date.now();
    const report = jsonReportArgs(args, `${runner}-${name.replace(/\W/g, '')}`);
    const run = spawnSync('npx', ['vitest', 'run', '--passWithNoTests', ...vitestArgs, ...report.args, ...args],
      { stdio: 'inherit', env: { ...process.env, ...env } });
    process.stdout.write(`[${runner}] ${name}: ${run.status === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s\n`);
    if (run.status !== 0) failed = true;
    const result = readReport(report.file);
    failures.push(...failuresOf(result));
    times.push(...fileTimesOf(result, name));
  }
  const slowest = times.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST);
  if (slowest.length > 0) {
    process.stdout.write(`\n[${runner}] slowest files (of ${times.length}, ${Math.round(times.reduce((s, t) => s + t.seconds, 0))} s in all):\n`);
    for (const t of slowest) process.stdout.write(`  ${t.seconds.toFixed(1).padStart(6)} s  ${t.phase}  ${t.where}\n`);
  }
  if (failures.length > 0) process.stdout.write(`\n[${runner}] ${failures.length} failed:\n${failures.join('\n')}\n`);
  process.exit(failed ? 1 : 0);
}
