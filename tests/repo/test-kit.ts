/**
 * The test kit's checks (docs/architecture.md "Testing"): the plumbing of tests/kit is written once — no other test
 * project declares a helper of the kit's name again, and jscpd finds no copy of a kit file in the other test
 * helpers — and no test project reaches into another's helpers (tests/e2e, bench and tests/fuzz import nothing of
 * the server's test wing; the server's test wing imports nothing of tests/e2e).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

/** Where the kit is, and the test projects that must use it (relative to the repository root). */
export const KIT = 'tests/kit';
const PROJECTS = ['packages/server/test', 'tests/e2e/src', 'tests/fuzz', 'bench/src'];
/** The other projects' helper folders, searched for copies of the kit's files. */
const HELPERS = ['packages/server/test/support', 'tests/e2e/src/harness'];
/** Which project's helpers each project may not import: another's test code. */
const FORBIDDEN_IMPORTS: Record<string, RegExp> = {
  'tests/e2e/src': /^packages\/server\/(test|src\/test-support)\//,
  'tests/fuzz': /^packages\/server\/(test|src\/test-support)\//,
  'bench/src': /^packages\/server\/(test|src\/test-support)\//,
  'packages/server/test': /^tests\/e2e\//,
};

function sources(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|mts)$/.test(name)) out.push(path);
  }
  return out;
}

/** The names the kit exports (functions, classes, constants, re-exports). */
export function kitNames(root: string): string[] {
  const names = new Set<string>();
  for (const file of sources(join(root, KIT))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^export (?:async )?(?:function|class|const) (\w+)/gm)) names.add(m[1]!);
    for (const m of text.matchAll(/^export \{([^}]+)\} from/gm)) for (const name of m[1]!.split(',')) names.add(name.trim().split(/\s+as\s+/).pop()!);
  }
  return [...names].sort();
}

/** A helper of the kit declared again in a test project, or an import of another project's test code. */
export interface KitProblem {
  file: string;
  problem: string;
}

/** Declarations of the kit's names, and forbidden imports, in the test projects under `root`. */
export function kitProblems(root: string): KitProblem[] {
  const names = kitNames(root);
  const declared = new RegExp(String.raw`^\s*(?:export )?(?:async )?(?:function|class|const|let) (${names.join('|')})\b`, 'gm');
  const problems: KitProblem[] = [];
  for (const project of PROJECTS) {
    for (const file of sources(join(root, project))) {
      const text = readFileSync(file, 'utf8');
      const where = relative(root, file);
      if (names.length > 0) for (const m of text.matchAll(declared)) problems.push({ file: where, problem: `declares ${m[1]!}, which tests/kit has` });
      const forbidden = FORBIDDEN_IMPORTS[project];
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), m[1]!));
        if (forbidden?.test(target)) problems.push({ file: where, problem: `imports ${target}, another test project's helper (share it through tests/kit)` });
      }
    }
  }
  return problems;
}

interface Place { sourceId: string; start: { line: number }; end: { line: number } }
type DetectClones = (options: Record<string, unknown>) => Promise<{ duplicationA: Place; duplicationB: Place }[]>;

/** Runs of 6+ lines that a kit file and another project's helper both hold (jscpd), as "a:lines ~ b:lines". */
export async function kitCopies(root: string, helpers: string[] = HELPERS): Promise<string[]> {
  // jscpd's CommonJS build: its ES module build imports 'colors/safe' without an extension, which Node refuses.
  const { detectClones } = createRequire(import.meta.url)('jscpd') as { detectClones: DetectClones };
  const path = [KIT, ...helpers].map((dir) => join(root, dir)).filter((dir) => existsSync(dir));
  const found = await detectClones({ path, minLines: 6, silent: true, reporters: [], format: ['typescript'] });
  const inKit = (p: Place) => relative(root, p.sourceId).startsWith(`${KIT}/`);
  const at = (p: Place) => `${relative(root, p.sourceId)}:${p.start.line}-${p.end.line}`;
  return found.filter((c) => inKit(c.duplicationA) !== inKit(c.duplicationB)).map((c) => `${at(c.duplicationA)} ~ ${at(c.duplicationB)}`);
}
