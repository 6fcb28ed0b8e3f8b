/**
 * No repeated logic in the server's sources: jscpd (copy/paste detection on tokens) finds no run of 6 or more
 * lines that stands twice in packages/server/src and its test wing packages/server/test, and it does find one in a
 * fixture that has one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Place { sourceId: string; start: { line: number }; end: { line: number } }
type DetectClones = (options: Record<string, unknown>) => Promise<{ duplicationA: Place; duplicationB: Place }[]>;
// jscpd's CommonJS build: its ES module build imports 'colors/safe' without an extension, which Node refuses.
const { detectClones } = createRequire(import.meta.url)('jscpd') as { detectClones: DetectClones };

/** The clones jscpd finds under `dir`, as "a:lines ~ b:lines". */
async function clones(...dirs: string[]): Promise<string[]> {
  const found = await detectClones({ path: dirs, minLines: 6, silent: true, reporters: [], format: ['typescript', 'python'] });
  const at = (p: Place) => `${p.sourceId}:${p.start.line}-${p.end.line}`;
  return found.map((c) => `${at(c.duplicationA)} ~ ${at(c.duplicationB)}`);
}

describe('duplicate code (jscpd)', () => {
  it('a duplicate-code check finds no repeated logic in packages/server/src and test', async () => {
    expect(await clones(join(PACKAGE_DIR, 'src'), join(PACKAGE_DIR, 'test'))).toEqual([]);
  }, 60_000);

  it('the check finds a repeated run in a fixture that has one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clones-'));
    try {
      const body = Array.from({ length: 8 }, (_, i) => `  const v${i} = input.items.filter((item) => item.size > ${i}).map((item) => item.name.trim());`).join('\n');
      writeFileSync(join(dir, 'a.ts'), `export function a(input: { items: { size: number; name: string }[] }) {\n${body}\n  return v0;\n}\n`);
      writeFileSync(join(dir, 'b.ts'), `export function b(input: { items: { size: number; name: string }[] }) {\n${body}\n  return v1;\n}\n`);
      expect(await clones(dir)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
