/**
 * The layer rules of layers.cjs (docs/architecture.md "Layers") hold for the server's sources, and fail on a
 * back-arrow: a fixture tree with an engine module importing signalling and the wire protocol is refused.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const rules = createRequire(import.meta.url)(join(PACKAGE_DIR, 'layers.cjs')) as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

/** The violations of the rules in `baseDir`'s src/. */
async function violations(baseDir: string, tsConfig?: string): Promise<{ found: IViolation[]; modules: number }> {
  const { options } = rules;
  const result = await cruise(['src'], {
    ...options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsConfig: tsConfig ? { fileName: tsConfig } : undefined,
  });
  if (typeof result.output === 'string') throw new Error('unexpected string output');
  return { found: result.output.summary.violations, modules: result.output.summary.totalCruised };
}

describe('server layers (dependency-cruiser)', () => {
  it('the layer rules enforced: no back-arrow in packages/server/src', async () => {
    const { found, modules } = await violations(PACKAGE_DIR, join(PACKAGE_DIR, 'tsconfig.json'));
    expect(modules).toBeGreaterThan(80);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 60_000);

  it('a back-arrow fails the rules (engine → signalling, engine → wire protocol, domain → root context)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'layers-'));
    try {
      const file = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file('src/signal/session.ts', 'export const session = 1;\n');
      file('src/context.ts', 'export const context = 1;\n');
      file('src/engine/engine.ts', "import { session } from '../signal/session.js';\nexport const engine = session;\n");
      file('src/room/room.ts', "import { context } from '../context.js';\nexport const room = context;\n");
      file('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true }, include: ['src'] }));
      const { found } = await violations(dir, join(dir, 'tsconfig.json'));
      expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual([
        'engine-not-above: src/engine/engine.ts → src/signal/session.ts',
        'no-root-imports: src/room/room.ts → src/context.ts',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
