/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every word the demo and the admin page show goes through the en/zh table (i18n.ts): this test reads the
 * sources with TypeScript's parser and lists text that does not.
 * - In TSX: JSX text, and string literals given as JSX children or as a visible attribute (title,
 *   aria-label, placeholder, alt, …), through `?:`, `&&`, `||`, `??` and template literals.
 * - In every source: a literal that reads like prose (two words in a row), outside console calls,
 *   imports, class names and test ids.
 * ALLOWED lists the few literals that are not words for a user (each with why).
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const VISIBLE_ATTRS = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-valuetext', 'aria-description', 'aria-roledescription']);
/** Files whose literals are the table itself, or not shown (tests). */
const SKIP = /(^|\/)(i18n|translations\/[a-z]+)\.ts$|\.test\.tsx?$/;
/** file → literals that are not for translation. */
const ALLOWED: Record<string, readonly string[]> = {
  // The product's name and the API's own field names (what the server and the docs call them), and an
  // example value: the same in every language.
  'JoinForm.tsx': ['Conclave', 'SDKAppID', 'userSig', 'code', 'extraCode'],
  'admin/AdminApp.tsx': ['sdkAppId', '1400000001'],
  'panels/CdnSettings.tsx': ['rtmp://cdn.example.com/live/room'],
  // A DeviceWord value (a key of DEVICE_KEY), not a text.
  'errors.ts': ['camera and microphone'],
  // Developer errors (the HTML page lacks its root element): never seen by a user of a working build.
  'main.tsx': ['#root is missing from index.html'],
  'admin/main.tsx': ['#admin-root is missing from admin.html'],
};
const LETTER = /\p{L}/u;
const PROSE = /\p{L}{2,}[ \u00a0]+\p{L}{2,}/u;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !SKIP.test(relative(SRC, path)) ? [path] : [];
  });
}

/** The literal text parts of an expression shown as is (not inside calls or nested JSX). */
function shownLiterals(node: ts.Node): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
  if (ts.isParenthesizedExpression(node)) return shownLiterals(node.expression);
  if (ts.isConditionalExpression(node)) return [...shownLiterals(node.whenTrue), ...shownLiterals(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return shownLiterals(node.right);
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) {
      return [...shownLiterals(node.left), ...shownLiterals(node.right)];
    }
  }
  return [];
}

/** Whether a literal sits where its text is not for people: console.*, imports, class names, test ids, keys. */
function notShown(node: ts.Node): boolean {
  for (let up: ts.Node | undefined = node.parent; up; up = up.parent) {
    if (ts.isImportDeclaration(up) || ts.isExportDeclaration(up)) return true;
    if (ts.isCallExpression(up) && ts.isPropertyAccessExpression(up.expression) && ts.isIdentifier(up.expression.expression) && up.expression.expression.text === 'console') return true;
    if (ts.isJsxAttribute(up)) {
      const name = up.name.getText();
      return name === 'className' || name.startsWith('data-') || name === 'key' || name === 'id';
    }
    if (ts.isPropertyAssignment(up) && up.name.getText() === 'className') return true;
    if (ts.isJsxElement(up) || ts.isJsxSelfClosingElement(up) || ts.isFunctionLike(up)) return false;
  }
  return false;
}

/** Text of `file` that a user sees and that does not come from the table. */
export function untranslated(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = new Set<string>();
  const add = (literal: string) => {
    const trimmed = literal.replace(/\s+/g, ' ').trim();
    if (LETTER.test(trimmed)) found.add(trimmed);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) add(node.text);
    else if (ts.isJsxExpression(node) && node.expression) {
      const parent = node.parent;
      if (ts.isJsxElement(parent) || ts.isJsxFragment(parent)) shownLiterals(node.expression).forEach(add);
      else if (ts.isJsxAttribute(parent) && VISIBLE_ATTRS.has(parent.name.getText())) shownLiterals(node.expression).forEach(add);
    } else if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer) && VISIBLE_ATTRS.has(node.name.getText())) {
      add(node.initializer.text);
    } else if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && PROSE.test(node.text) && !notShown(node)) {
      add(node.text);
    } else if (ts.isTemplateExpression(node) && !notShown(node)) {
      for (const part of [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]) if (PROSE.test(part)) add(part);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found];
}

describe('the demo’s words go through the en/zh table', () => {
  // Parses every source: give it time on a loaded machine.
  it('no TSX or TS source shows a literal of its own (JSX text, visible attributes, prose)', { timeout: 30_000 }, () => {
    const offenders: string[] = [];
    for (const path of sources(SRC)) {
      const file = relative(SRC, path).split('\\').join('/');
      const allowed = new Set(ALLOWED[file] ?? []);
      for (const literal of untranslated(file, readFileSync(path, 'utf8'))) if (!allowed.has(literal)) offenders.push(`${file}: ${literal}`);
    }
    expect(offenders).toEqual([]);
  });

  it('the check itself finds JSX text, a visible attribute, a literal child and prose, and passes keys and class names', () => {
    const sample = `export const A = ({ on }: { on: boolean }) => (
      <p title="Hover words" className="a b-c" data-testid="x y">Hello there {on ? 'Yes' : t('k.no')} {t('ok.key')}
        <b aria-label={\`Pin \${name}\`} />
      </p>);
      export function f() { console.warn('not for people'); return 'Some prose here'; }`;
    expect(untranslated('sample.tsx', sample).sort()).toEqual(['Hello there', 'Hover words', 'Pin', 'Some prose here', 'Yes'].sort());
  });
});
