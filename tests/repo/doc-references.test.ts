import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRepository, checkText, headingsOf, loadDocs } from './doc-references.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A small docs set for the checker's own cases. */
const DOCS = new Map([
  ['behaviour.md', headingsOf('# Behaviour\n## §4 States\n### §4.2 Reconnection\n## §8 Errors\n## §9 Limits\n```\n## §7 in a code block\n```\n')],
  ['architecture.md', headingsOf('# Architecture\n## Media path\n## Layers\n')],
]);

const problemsIn = (text: string) => checkText('x.ts', text, DOCS).map((p) => p.reason);

describe('doc citations', () => {
  it('every docs/ citation in the code resolves to a heading in docs/, and none cites SPEC or DESIGN', () => {
    const { files, problems } = checkRepository(ROOT);
    expect(files).toBeGreaterThan(300);
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.citation} — ${p.reason}`)).toEqual([]);
  });

  it('docs/ holds the index, the behaviour reference with §1–§9, the architecture page and the security page', () => {
    const docs = loadDocs(join(ROOT, 'docs'));
    expect([...docs.keys()].sort()).toEqual(['README.md', 'architecture.md', 'behaviour.md', 'security.md']);
    for (let n = 1; n <= 9; n++) expect(docs.get('behaviour.md')!.some((h) => h.startsWith(`§${n} `))).toBe(true);
    expect(docs.get('architecture.md')).toContain('Media path');
  });

  it('fails on a section that does not exist (a bogus §42)', () => {
    expect(problemsIn('// as docs/behaviour.md §42 says')).toEqual(['no heading of docs/behaviour.md starts with §42']);
  });

  it('matches a section mark against the start of a heading only', () => {
    expect(problemsIn('/** docs/behaviour.md §4, docs/behaviour.md §4.2 and docs/behaviour.md §9). */')).toEqual([]);
    // §4 is a prefix of "§42", §4.2 of "§4.21": neither may pass for the other; §7 is only inside a code block.
    expect(problemsIn('docs/behaviour.md §4.21; docs/behaviour.md §7')).toHaveLength(2);
  });

  it('checks every mark of a list (`§4, §9`, `§4/§8`, `§9 / §3`)', () => {
    expect(problemsIn('(docs/behaviour.md §4, §9) (docs/behaviour.md §4/§8)')).toEqual([]);
    expect(problemsIn('(docs/behaviour.md §9 / §3)')).toEqual(['no heading of docs/behaviour.md starts with §3']);
  });

  it('resolves a quoted heading, also when it wraps onto the next comment line', () => {
    expect(problemsIn('/** one downlink (docs/architecture.md "Media path"). */')).toEqual([]);
    expect(problemsIn('/**\n * one downlink (docs/architecture.md "Media\n * path"). */')).toEqual([]);
    expect(problemsIn('// docs/architecture.md "Media paths"')).toEqual(['docs/architecture.md has no heading "Media paths"']);
  });

  it('fails on a docs page that does not exist', () => {
    expect(problemsIn('// see docs/design.md "Media path"')).toEqual(['docs/design.md does not exist']);
  });

  it('fails on a remaining SPEC § or DESIGN citation', () => {
    expect(problemsIn('/** Room states (SPEC §4). */')).toHaveLength(1);
    expect(problemsIn('// one downlink (DESIGN "Media path")')).toHaveLength(1);
    // A variable named SPEC (the media job's Python) is not a citation.
    expect(problemsIn("int(SPEC.get('fps', 15))")).toEqual([]);
  });
});
