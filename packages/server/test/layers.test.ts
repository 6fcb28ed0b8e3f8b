/**
 * The layer rules of layers.cjs (docs/architecture.md "Layers") hold for the server's sources, and fail on a
 * back-arrow: a fixture tree with an engine module importing signalling and the wire protocol is refused. Beside
 * them (issue 41): no import circle among the production folders, no production file importing the test wing,
 * no test file in src/ — each shown to fail on a fixture.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IModule } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderCircles } from './support/folder-circles.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const rules = createRequire(import.meta.url)(join(PACKAGE_DIR, 'layers.cjs')) as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

interface Cruised {
  /** Each violation as "rule: from → to", once per rule and importing file pair. */
  found: string[];
  modules: IModule[];
}

/** The rules' violations and the modules in `baseDir`'s src/ (and what it imports). */
async function cruised(baseDir: string): Promise<Cruised> {
  const result = await cruise(['src'], {
    ...rules.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsConfig: { fileName: join(baseDir, 'tsconfig.json') },
  });
  if (typeof result.output === 'string') throw new Error('unexpected string output');
  const found = result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  return { found: [...new Set(found)], modules: result.output.modules };
}

/** A fixture package: `files` under a fresh folder, with a tsconfig; removed after `use`. */
async function withFixture<T>(files: Record<string, string>, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true }, include: ['src', 'test'] }));
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('server layers (dependency-cruiser)', () => {
  let tree: Cruised;
  beforeAll(async () => {
    tree = await cruised(PACKAGE_DIR);
  }, 60_000);

  it('the layer rules enforced: no back-arrow in packages/server/src', () => {
    expect(tree.modules.filter((m) => m.source.startsWith('src/')).length).toBeGreaterThan(80);
    expect(tree.found).toEqual([]);
  });

  it('a back-arrow fails the rules (engine → signalling, engine → wire protocol, domain → root context)', async () => {
    const { found } = await withFixture({
      'src/signal/session.ts': 'export const session = 1;\n',
      'src/context.ts': 'export const context = 1;\n',
      'src/engine/engine.ts': "import { session } from '../signal/session.js';\nexport const engine = session;\n",
      'src/room/room.ts': "import { context } from '../context.js';\nexport const room = context;\n",
    }, cruised);
    expect(found.sort()).toEqual([
      'engine-not-above: src/engine/engine.ts → src/signal/session.ts',
      'no-root-imports: src/room/room.ts → src/context.ts',
    ]);
  }, 60_000);

  it('41 layers: no import circle among production folders (the folder graph of dependency-cruiser\'s modules)', () => {
    const circles = folderCircles(tree.modules);
    expect(circles, `folder circles:\n${circles.join('\n')}`).toEqual([]);
  });

  it('41 layers: a circle among folders fails the check and is printed, though no file imports itself back (fixture)', async () => {
    const { modules } = await withFixture({
      'src/signal/a.ts': "import { b } from '../whep/b.js';\nexport const a = b;\n",
      'src/signal/d.ts': 'export const d = 1;\n',
      'src/whep/b.ts': 'export const b = 1;\n',
      'src/whep/c.ts': "import { d } from '../signal/d.js';\nexport const c = d;\n",
      'src/room/room.ts': "import { a } from '../signal/a.js';\nexport const room = a;\n",
    }, cruised);
    expect(folderCircles(modules)).toEqual(['signal → whep → signal']);
  }, 60_000);

  it('41 layers: no production file imports the test wing, and no test file sits in src/', () => {
    expect(tree.found.filter((v) => /^no-test-(wing-imports|file-in-src):/.test(v))).toEqual([]);
    // The rules saw the tree: src/ has files and none of them is a test.
    expect(tree.modules.some((m) => m.source.startsWith('src/') && m.source.endsWith('.test.ts'))).toBe(false);
  });

  it('41 layers: a production file importing the test wing or a test helper, and a test file in src/, fail the rules (fixture)', async () => {
    const { found } = await withFixture({
      'test/support/clients.ts': 'export const client = 1;\n',
      'src/room/room.ts': "import { client } from '../../test/support/clients.js';\nexport const room = client;\n",
      // What a test written before the move would import: the helpers' old folder (gone, so unresolved).
      'src/signal/session.ts': "import { startTestServer } from '../test-support/clients.js';\nexport const session = startTestServer;\n",
      'src/signal/session.test.ts': "import { session } from './session.js';\nexport const test = session;\n",
    }, cruised);
    expect(found.sort()).toEqual([
      'no-test-file-in-src: src/signal/session.test.ts → src/signal/session.ts',
      'no-test-wing-imports: src/room/room.ts → test/support/clients.ts',
      'no-test-wing-imports: src/signal/session.ts → ../test-support/clients.js',
    ]);
  }, 60_000);
});
