/// <reference types="node" />
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { graphCircles } from '../../../tests/kit/graph-circles.js';

/**
 * The demo's imports form no circle (apps/demo/README.md, "Code"): not between files, and not between parts,
 * a folder of src/ counting as one part and a file at the top of src/ as its own. So a folder is either below
 * the room's state (what session.ts uses: moderation/, translations/) or above it (views that read the
 * session: stage/, panels/, controls/), never both. Type-only imports count: they tie the structure as much
 * as values do. Tests are left out. TypeScript's own pre-processor lists each file's imports.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const SOURCE = /\.tsx?$/;
const TEST = /\.test\.tsx?$/;

/** Every source file under `root`, relative and `/`-separated; tests left out. */
function sources(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(root, path);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [relative(root, path).split('\\').join('/')] : [];
  });
}

/** The source file a relative import names, as bundlers resolve it; null for anything else (CSS, packages). */
function resolveImport(root: string, from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = join(root, dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (SOURCE.test(candidate) && !TEST.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) {
      return relative(root, candidate).split('\\').join('/');
    }
  }
  return null;
}

/** file → the files under `root` it imports (values, types, re-exports and dynamic imports alike). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(root)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = importedFiles.map((imported) => resolveImport(root, file, imported.fileName)).filter((target): target is string => target !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The part a file belongs to: its top folder under src/ (`stage/`), or the file itself at the top. */
const partOf = (file: string): string => (file.includes('/') ? `${file.slice(0, file.indexOf('/'))}/` : file);

/** The circles of `graph` between files and between parts, each with the imports that close it. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const fileCircles = graphCircles(graph, { selfLoops: true }).map((files) => `files: ${files.join(' ⇄ ')}`);
  const parts = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const edges = parts.get(partOf(file)) ?? new Set<string>();
    for (const target of targets) if (partOf(target) !== partOf(file)) edges.add(partOf(target));
    parts.set(partOf(file), edges);
  }
  const partCircles = graphCircles(new Map([...parts].map(([part, edges]) => [part, [...edges]]))).map((members) => {
    const inside = new Set(members);
    const imports = [...graph].flatMap(([file, targets]) => targets
      .filter((target) => partOf(target) !== partOf(file) && inside.has(partOf(file)) && inside.has(partOf(target)))
      .map((target) => `${file} → ${target}`));
    return `parts: ${members.join(' ⇄ ')} (${imports.sort().join(', ')})`;
  });
  return [...fileCircles, ...partCircles];
}

describe('the demo imports without a circle', () => {
  it('41 no import circle in apps/demo/src, between files or between folders', () => {
    const graph = importGraph(SRC);
    // The walk found the demo (and its imports): a broken resolver would find no circle in nothing.
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get('session.ts')).toContain('remotePlayback.ts');
    expect(importCircles(graph)).toEqual([]);
  });

  it('41 a circle is found: between files, and between folders through files that do not import each other', () => {
    const graph = new Map<string, string[]>([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      // session.ts → playback.ts → stage/layout.ts; stage/Stage.tsx → session.ts: no file circle, a folder circle.
      ['session.ts', ['playback.ts']],
      ['playback.ts', ['stage/layout.ts']],
      ['stage/layout.ts', []],
      ['stage/Stage.tsx', ['session.ts', 'stage/layout.ts']],
      ['Room.tsx', ['stage/Stage.tsx', 'session.ts']],
    ]);
    expect(importCircles(graph)).toEqual([
      'files: a.ts ⇄ b.ts',
      'parts: a.ts ⇄ b.ts (a.ts → b.ts, b.ts → a.ts)',
      'parts: playback.ts ⇄ session.ts ⇄ stage/ (playback.ts → stage/layout.ts, session.ts → playback.ts, stage/Stage.tsx → session.ts)',
    ]);
  });
});
