/**
 * Schemathesis (PyPI, pinned) for the HTTP fuzz: installed on first use into a venv under
 * node_modules/.cache (so a fresh CI machine reproduces it with python3 and network access), then run
 * against a server's OpenAPI document with the hooks of hooks/conclave_fuzz_hooks.py. Setup failures
 * throw with what to do: the fuzz test fails, it never skips.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned version. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VENV = join(ROOT, 'node_modules', '.cache', 'schemathesis', `venv-${SCHEMATHESIS_VERSION}`);
const BIN = join(VENV, 'bin', 'schemathesis');
const HOOKS_DIR = fileURLToPath(new URL('./hooks/', import.meta.url));

/** The schemathesis executable, installing it first when needed (python3 -m venv + pip, a few minutes at most). */
export function ensureSchemathesis(): string {
  if (existsSync(BIN)) return BIN;
  mkdirSync(join(VENV, '..'), { recursive: true });
  try {
    execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'pipe', timeout: 120_000 });
    execFileSync(join(VENV, 'bin', 'pip'), ['install', '--disable-pip-version-check', '-q', `schemathesis==${SCHEMATHESIS_VERSION}`], { stdio: 'pipe', timeout: 600_000 });
  } catch (error) {
    rmSync(VENV, { recursive: true, force: true });
    const detail = error instanceof Error && 'stderr' in error ? String((error as { stderr: unknown }).stderr).slice(-2000) : String(error);
    throw new Error(`cannot install schemathesis==${SCHEMATHESIS_VERSION} into ${VENV} (needs python3 with venv and PyPI access; .ci/run installs python3-venv): ${detail}`);
  }
  if (!existsSync(BIN)) throw new Error(`schemathesis installed but ${BIN} is missing`);
  return BIN;
}

/** What one schemathesis run found (from its JSON report and the hooks' counts). */
export interface FuzzRunResult {
  /** Operations tested. */
  operations: number;
  /** Operations schemathesis skipped, with why. */
  skipped: string[];
  /** Test cases generated and sent (each one request). */
  testCases: number;
  /** Test cases with a failed check (a 5xx, a crash, a reply off its schema when that check runs). */
  failures: number;
  /** Unique failures, as schemathesis groups them (title and details), for the report. */
  failureDetails: string[];
  /** Errors schemathesis met (network errors: a server that stopped answering). */
  errors: string[];
  /** Requests the hooks saw, and the cloud API ones signed / let through the signature check. */
  hookCounts: { requests: number; cloudApi: number; cloudApiSigned: number; cloudApiPastSignature: number };
  /** Exit code and the tail of the output, for the report when something is off. */
  exitCode: number;
  outputTail: string;
}

export interface FuzzRunOptions {
  /** The server's base URL (http://127.0.0.1:port). */
  baseUrl: string;
  /** The OpenAPI document: a file or a URL. */
  schema: string;
  mode: 'refused' | 'authorized';
  adminKey: string;
  /** The fuzzed app, and a room and user in it that generated values are often pointed at. */
  target: { sdkAppId: number; roomKey: string; userId: string };
  cloudApi: { secretId: string; secretKey: string };
  /** Test cases per operation. */
  maxExamples: number;
  /** Operations by tag (default: all). */
  tags?: string[];
  checks?: string[];
  phases?: string[];
  seed?: number;
  /** Kills the run after this long. */
  timeoutMs?: number;
}

/** Runs schemathesis once; resolves with its counts (a failing check is a count, not a rejection). */
export async function runSchemathesis(options: FuzzRunOptions): Promise<FuzzRunResult> {
  const bin = ensureSchemathesis();
  const dir = mkdtempSync(join(tmpdir(), 'conclave-fuzz-'));
  const report = join(dir, 'report.json');
  const stats = join(dir, 'hooks.json');
  const args = [
    'run', options.schema, '--url', options.baseUrl,
    '--checks', (options.checks ?? ['not_a_server_error']).join(','),
    '--max-examples', String(options.maxExamples),
    '--phases', (options.phases ?? ['examples', 'coverage', 'fuzzing']).join(','),
    '--request-timeout', '10', '--workers', '1', '--no-color',
    '--suppress-health-check', 'all',
    '--report', 'json', '--report-json-path', report,
    ...(options.seed === undefined ? [] : ['--seed', String(options.seed)]),
    ...(options.tags ?? []).flatMap((tag) => ['--include-tag', tag]),
  ];
  const env = {
    ...process.env,
    PYTHONPATH: HOOKS_DIR, SCHEMATHESIS_HOOKS: 'conclave_fuzz_hooks',
    CONCLAVE_FUZZ_SDKAPPID: String(options.target.sdkAppId), CONCLAVE_FUZZ_ROOM_KEY: options.target.roomKey, CONCLAVE_FUZZ_USER_ID: options.target.userId,
    CONCLAVE_FUZZ_MODE: options.mode, CONCLAVE_FUZZ_SEED: String(options.seed ?? 0), CONCLAVE_FUZZ_ADMIN_KEY: options.adminKey, CONCLAVE_FUZZ_STATS: stats,
    CONCLAVE_FUZZ_SECRET_ID: options.cloudApi.secretId, CONCLAVE_FUZZ_SECRET_KEY: options.cloudApi.secretKey,
  };
  try {
    const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
      // In the temporary folder: schemathesis keeps its example database (.schemathesis/) in its working directory.
      const child = spawn(bin, args, { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const keep = (chunk: Buffer) => { output = (output + chunk.toString()).slice(-20_000); };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
      child.on('error', reject);
      child.on('close', (exit, signal) => {
        clearTimeout(timer);
        resolve({ code: exit ?? (signal ? 128 : 1), output });
      });
    });
    if (!existsSync(report)) throw new Error(`schemathesis wrote no report (exit ${code}):\n${output.slice(-4000)}`);
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      operations: { tested: number; skip_reasons: unknown[] };
      test_cases: { generated: number; with_failures: number };
      failures: unknown[];
      errors: unknown[];
    };
    const hookCounts = existsSync(stats) ? JSON.parse(readFileSync(stats, 'utf8')) as FuzzRunResult['hookCounts'] : { requests: 0, cloudApi: 0, cloudApiSigned: 0, cloudApiPastSignature: 0 };
    return {
      operations: json.operations.tested,
      skipped: json.operations.skip_reasons.map((r) => JSON.stringify(r)),
      testCases: json.test_cases.generated,
      failures: json.test_cases.with_failures,
      failureDetails: json.failures.map((f) => JSON.stringify(f).slice(0, 1500)),
      errors: json.errors.map((e) => JSON.stringify(e).slice(0, 1500)),
      hookCounts,
      exitCode: code,
      outputTail: output.slice(-4000),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
