/**
 * docs/architecture.md "SDK layers": no import circle among the SDK's folders (type imports included), and a folder
 * reaches the files at src/'s top only for the public declarations, type-only (layers.cjs). A fixture tree with a
 * circle and a back-arrow to the client shows the check fails on them.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { graphCircles } from '../../../tests/kit/graph-circles.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const rules = createRequire(import.meta.url)(join(PACKAGE_DIR, 'layers.cjs')) as {
  forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden'];
  options: ICruiseOptions;
  folderOf(path: string): string | undefined;
};

/** The rule violations and the folder circles (each with the imports that make it) of `baseDir`'s src/. */
async function check(baseDir: string): Promise<{ violations: string[]; circles: string[]; modules: number }> {
  const result = await cruise(['src'], {
    ...rules.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsConfig: { fileName: join(baseDir, 'tsconfig.json') },
  });
  if (typeof result.output === 'string') throw new Error('unexpected string output');
  const edges = new Map<string, Set<string>>();
  const imports = new Map<string, string[]>();
  for (const module of result.output.modules) {
    const from = rules.folderOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = rules.folderOf(dependency.resolved);
      if (!to || to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      const key = `${from} → ${to}`;
      imports.set(key, [...(imports.get(key) ?? []), `${module.source} → ${dependency.resolved}`]);
    }
  }
  const described = graphCircles(edges).map((component) => {
    const inside = [...imports].filter(([key]) => component.includes(key.split(' → ')[0]!) && component.includes(key.split(' → ')[1]!));
    return `${component.join(', ')}: ${inside.flatMap(([, list]) => list).join('; ')}`;
  });
  return {
    violations: result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
    circles: described,
    modules: result.output.summary.totalCruised,
  };
}

describe('SDK layers (dependency-cruiser)', () => {
  it('41 RemoteUser one owner: no import circle among the SDK\'s folders, and folders reach src/\'s top for the public declarations only, type-only', async () => {
    const { violations, circles: found, modules } = await check(PACKAGE_DIR);
    expect(modules).toBeGreaterThan(150);
    expect(violations).toEqual([]);
    expect(found).toEqual([]);
  }, 60_000);

  it('a circle between folders (type imports too), a folder importing the client and a value import of the declarations fail the check', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-layers-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file('src/types.ts', 'export interface Options { a: number }\nexport const defaults = 1;\n');
      file('src/trtc.ts', "import { room } from './room/room.js';\nexport const trtc = room;\n");
      file('src/room/room.ts', "import type { Player } from '../playback/player.js';\nimport type { Options } from '../types.js';\nexport const room = 1;\nexport type Both = [Player, Options];\n");
      file('src/playback/player.ts', "import type { Both } from '../room/room.js';\nexport type Player = Both | 1;\n");
      file('src/stats/stats.ts', "import { trtc } from '../trtc.js';\nimport { defaults, type Options } from '../types.js';\nexport const stats: Options = { a: trtc + defaults };\n");
      file('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', allowJs: true }, include: ['src'] }));
      const { violations, circles: found } = await check(dir);
      expect(violations.sort()).toEqual(['declarations-type-only: src/stats/stats.ts → src/types.ts', 'no-root-imports: src/stats/stats.ts → src/trtc.ts']);
      expect(found).toEqual(['playback, room: src/playback/player.ts → src/room/room.ts; src/room/room.ts → src/playback/player.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
