// Moves server tests written in src/ into the server's test wing (docs/architecture.md "Testing"): every
// `packages/server/src/**/*.test.ts` (and anything left in src/test-support/ or src/engine/conformance/) goes to the
// same place under packages/server/test/ with `git mv`, and the relative specifiers of the moved files (imports,
// `import()`, `vi.mock()`, `new URL(…, import.meta.url)`) are rewritten to where their targets now are: the code
// stays in src/, the old test helpers are in test/support/ or, for what every test project shares, tests/kit/.
// Run at the repository root: `node tests/move-server-tests.mjs` (then `npx tsc -b packages/server/test`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const PKG = resolve('packages/server');
/** The old helpers that went to the test kit. */
const IN_KIT = ['child-output', 'redis-server', 'next-second', 'callback-receiver'];

/** Where a file of the old layout is now (or will be once moved); undefined when it stays. */
function movedTo(abs) {
  const rel = relative(PKG, abs).split('\\').join('/');
  const helper = /^src\/test-support\/(.+)$/.exec(rel)?.[1];
  if (helper) {
    const name = helper.replace(/\.(ts|js)$/, '');
    return IN_KIT.includes(name) ? resolve('tests/kit', helper) : resolve(PKG, 'test/support', helper);
  }
  if (rel.startsWith('src/engine/conformance/') || /^src\/.*\.test\.(ts|js)$/.test(rel)) return resolve(PKG, 'test', rel.slice('src/'.length));
  return undefined;
}

const files = execFileSync('git', ['ls-files', 'packages/server/src'], { encoding: 'utf8' }).split('\n').filter(Boolean)
  .map((f) => resolve(f)).filter((f) => f.endsWith('.ts') && movedTo(f));
const SPECIFIER = /((?:from|import)\s*\(?\s*'|vi\.(?:mock|doMock|unmock|importActual|importMock)\(\s*'|new URL\(')(\.{1,2}\/[^']*)'/g;

for (const from of files) {
  const to = movedTo(from);
  const text = readFileSync(from, 'utf8').replace(SPECIFIER, (_all, head, spec) => {
    // A `.js` specifier names its `.ts` source: map the source, keep the extension the code wrote.
    const target = resolve(dirname(from), spec);
    const source = target.replace(/\.js$/, '.ts');
    const moved = movedTo(source);
    const now = moved ? moved.replace(/\.ts$/, target.endsWith('.js') ? '.js' : '.ts') : target;
    const out = relative(dirname(to), now).split('\\').join('/');
    return `${head}${out.startsWith('.') ? out : `./${out}`}'`;
  });
  if (existsSync(to)) throw new Error(`${relative('.', to)} exists already: merge ${relative('.', from)} into it by hand`);
  mkdirSync(dirname(to), { recursive: true });
  execFileSync('git', ['mv', from, to]);
  writeFileSync(to, text);
  console.log(`${relative('.', from)} → ${relative('.', to)}`);
}
console.log(`${files.length} file(s) moved`);
