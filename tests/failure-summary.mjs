// The runners' closing summary: every failed test of a vitest run, with the first lines of its error, printed
// last. CI keeps only the tail of a long log, and vitest's own failure report comes before a phase's summary
// and the next phases' output, so without this a red run may not say what failed.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** Reporter arguments that add a JSON report at a fresh path to vitest's default one (none if the caller chose reporters). */
export function jsonReportArgs(args, label) {
  if (args.some((a) => a.startsWith('--reporter'))) return { args: [], file: undefined };
  const file = join(tmpdir(), `conclave-vitest-${label}-${process.pid}.json`);
  rmSync(file, { force: true });
  return { args: ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`], file };
}

/** The failures a JSON report holds, one line of name and up to `lines` lines of error each. */
export function failuresOf(file, lines = 6) {
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

/** Prints the collected failures under a heading, last in the log. */
export function printFailures(runner, failures) {
  if (failures.length === 0) return;
  process.stdout.write(`\n[${runner}] ${failures.length} failed:\n${failures.join('\n')}\n`);
}
