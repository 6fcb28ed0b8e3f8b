/**
 * Checks that the code's citations of the project's docs resolve: `docs/behaviour.md §N` (or `§N.M`, or a list
 * such as `§4, §9` / `§4/§8`) must name a heading of that page starting with the mark, and
 * `docs/architecture.md "Heading"` a heading with that text. Citations of the documents that are not in the
 * repository (`SPEC §N`, `DESIGN "…"`) are failures, as is a citation of a docs page that does not exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One citation that does not resolve, with where it is. */
export interface Problem {
  file: string;
  line: number;
  citation: string;
  reason: string;
}

/** The headings of each docs page, by page name (`behaviour.md`); a page not in the map does not exist. */
export type DocHeadings = ReadonlyMap<string, readonly string[]>;

/** The text of every Markdown heading (`#` to `######`) of a page, outside fenced code blocks. */
export function headingsOf(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match) headings.push(match[1]!);
  }
  return headings;
}

/** The docs pages of a folder and their headings. */
export function loadDocs(docsDir: string): Map<string, string[]> {
  const docs = new Map<string, string[]>();
  for (const name of readdirSync(docsDir)) {
    if (name.endsWith('.md')) docs.set(name, headingsOf(readFileSync(join(docsDir, name), 'utf8')));
  }
  return docs;
}

const MARK = String.raw`§\d+(?:\.\d+)*`;
/** `docs/<page>.md §4`, `§4.2`, `§4, §9`, `§4/§8`, `§9 / §3`. */
const SECTION_CITATION = new RegExp(String.raw`docs/([\w.-]+\.md) (${MARK}(?:\s*[,/]\s*${MARK})*)`, 'g');
/** `docs/<page>.md "Heading"`; the heading may wrap once onto the next comment line. */
const HEADING_CITATION = /docs\/([\w.-]+\.md) "([^"\n]+(?:\n[ \t]*(?:\*|\/\/|#)?[ \t]*[^"\n]*)?)"/g;
/** Any mention of a docs page, to catch pages that do not exist. */
const PAGE_MENTION = /(?<![\w./-])docs\/([\w.-]+\.md)\b/g;
/** Citations of the documents that are not in the repository. */
const LEGACY_CITATION = /\bSPEC §\d+|\bDESIGN "[^"\n]*"?/g;

/** Whether a heading starts with the § mark (`§4` matches "§4 States…" but not "§4.2 …" or "§42 …"). */
function startsWithMark(heading: string, mark: string): boolean {
  return heading.startsWith(mark) && !/^[\d.]/.test(heading.slice(mark.length).replace(/^\.(?!\d)/, ''));
}

/** Collapses a heading that wrapped across comment lines into one line. */
function unwrap(text: string): string {
  return text.replace(/\n[ \t]*(?:\*|\/\/|#)?[ \t]*/g, ' ').replace(/\s+/g, ' ').trim();
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Every citation in `text` (the contents of `file`) that does not resolve against `docs`. */
export function checkText(file: string, text: string, docs: DocHeadings): Problem[] {
  const problems: Problem[] = [];
  const report = (index: number, citation: string, reason: string) =>
    problems.push({ file, line: lineAt(text, index), citation: unwrap(citation), reason });

  for (const m of text.matchAll(PAGE_MENTION)) {
    if (!docs.has(m[1]!)) report(m.index, m[0], `docs/${m[1]} does not exist`);
  }
  for (const m of text.matchAll(SECTION_CITATION)) {
    const headings = docs.get(m[1]!);
    if (!headings) continue; // reported above
    for (const mark of m[2]!.match(new RegExp(MARK, 'g')) ?? []) {
      if (!headings.some((h) => startsWithMark(h, mark))) report(m.index, m[0], `no heading of docs/${m[1]} starts with ${mark}`);
    }
  }
  for (const m of text.matchAll(HEADING_CITATION)) {
    const headings = docs.get(m[1]!);
    if (!headings) continue;
    const wanted = unwrap(m[2]!);
    if (!headings.includes(wanted)) report(m.index, m[0], `docs/${m[1]} has no heading "${wanted}"`);
  }
  for (const m of text.matchAll(LEGACY_CITATION)) {
    report(m.index, m[0], 'cites a document that is not in the repository: cite docs/behaviour.md §N or docs/architecture.md "Heading"');
  }
  return problems;
}

/** Source extensions whose comments may cite the docs. */
const SOURCE = /\.(ts|tsx|mts|mjs|js|py|md)$/;

function walk(dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
}

/**
 * The files whose citations are checked: sources under packages/*\/src and packages/*\/test, packages/*\/*.mjs, apps/*\/src,
 * tests/e2e/src, tests/kit and bench/src, the READMEs of packages, apps, tests and bench, and the docs themselves.
 */
export function filesToCheck(root: string): string[] {
  const files: string[] = [];
  const dirs = (parent: string) => (existsSync(join(root, parent)) ? readdirSync(join(root, parent)).map((d) => join(parent, d)) : []);
  for (const pkg of dirs('packages')) {
    walk(join(root, pkg, 'src'), files);
    walk(join(root, pkg, 'test'), files);
    for (const name of existsSync(join(root, pkg)) ? readdirSync(join(root, pkg)) : []) {
      if (name.endsWith('.mjs') || name === 'README.md') files.push(join(root, pkg, name));
    }
  }
  for (const app of dirs('apps')) {
    walk(join(root, app, 'src'), files);
    if (existsSync(join(root, app, 'README.md'))) files.push(join(root, app, 'README.md'));
  }
  walk(join(root, 'tests', 'e2e', 'src'), files);
  walk(join(root, 'tests', 'kit'), files);
  walk(join(root, 'bench', 'src'), files);
  walk(join(root, 'docs'), files);
  for (const readme of ['tests/e2e/README.md', 'bench/README.md']) {
    if (existsSync(join(root, readme))) files.push(join(root, readme));
  }
  return files;
}

/** Checks every file of the repository at `root` against its docs folder. */
export function checkRepository(root: string): { files: number; problems: Problem[] } {
  const docs = loadDocs(join(root, 'docs'));
  const files = filesToCheck(root);
  const problems = files.flatMap((path) => checkText(relative(root, path), readFileSync(path, 'utf8'), docs));
  return { files: files.length, problems };
}
