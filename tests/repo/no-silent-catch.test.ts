import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RULE = 'conclave/no-silent-catch';

let plugin: { rules: Record<string, Rule.RuleModule> };
beforeAll(async () => {
  plugin = ((await import(pathToFileURL(join(ROOT, 'tests/repo/no-silent-catch.js')).href)) as { default: typeof plugin }).default;
});

/** The lines the rule reports in `code`. */
function silentLines(code: string): number[] {
  const config: Linter.Config = {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { conclave: plugin },
    rules: { [RULE]: 'error' },
  };
  const messages = new Linter().verify(code, config, 'fixture.ts');
  expect(messages.filter((m) => m.ruleId !== RULE)).toEqual([]);
  return messages.map((m) => m.line);
}

describe('41 no silent catch', () => {
  it('41 no silent catch: a catch clause or promise handler that neither calls, rethrows nor comments fails the lint', () => {
    // Fixtures: silent catches on purpose, the ones the rule must find.
    expect(silentLines('try { f(); } catch {}')).toEqual([1]);
    expect(silentLines('try { f(); } catch (e) { return undefined; }')).toEqual([1]);
    expect(silentLines('let ok = true;\ntry { f(); } catch {\n  ok = false;\n}')).toEqual([2]);
    expect(silentLines('void p.catch(() => undefined);')).toEqual([1]);
    expect(silentLines('void p.catch(() => {});')).toEqual([1]);
    expect(silentLines('void p.catch(function () { return null; });')).toEqual([1]);
    expect(silentLines('void p.then(() => g(), () => undefined);')).toEqual([1]);
    // A call inside a function made in the handler runs later, if at all: it does not count.
    expect(silentLines('void p.catch(() => () => log());')).toEqual([1]);
    // A comment elsewhere in the file does not explain this catch.
    expect(silentLines('// about something else\n\nf();\nvoid p.catch(() => undefined);')).toEqual([4]);
  });

  it('41 no silent catch: a catch that logs, counts, rethrows, falls back through a call or says why passes', () => {
    expect(silentLines('try { f(); } catch (e) { log.warn("f failed", e); }')).toEqual([]);
    expect(silentLines('try { f(); } catch (e) { metrics.failures++; throw e; }')).toEqual([]);
    expect(silentLines('try { f(); } catch {\n  // f fails only on a closed socket, which the close handler reports\n}')).toEqual([]);
    expect(silentLines('try { f(); } catch { /* why */ return undefined; }')).toEqual([]);
    expect(silentLines('void p.catch((e) => report(e));')).toEqual([]);
    expect(silentLines('void p.catch(report);')).toEqual([]);
    expect(silentLines('void p.catch(() => undefined); // the close races the peer\'s own close')).toEqual([]);
    expect(silentLines('// the close races the peer\'s own close\nvoid p.catch(() => undefined);')).toEqual([]);
    expect(silentLines('void p\n  // the page is gone anyway\n  .catch(() => undefined);')).toEqual([]);
    expect(silentLines('void p.then((v) => use(v));')).toEqual([]);
    // zod's `.catch(value)` is a fallback value, not a handler.
    expect(silentLines('const s = z.string().catch("x");')).toEqual([]);
  });

  it('41 no silent catch: the lint applies the rule to production code, not to tests or the test kit', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const ruleIn = async (file: string): Promise<unknown> => {
      const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as Linter.Config | undefined;
      return config?.rules?.[RULE];
    };
    for (const file of ['packages/server/src/cli.ts', 'packages/sdk/src/trtc.ts', 'packages/usersig/src/verify.ts',
      'packages/protocol/src/codes.ts', 'apps/demo/src/main.tsx']) {
      expect([file, await ruleIn(file)]).toEqual([file, [2]]);
    }
    expect(await ruleIn('packages/server/src/signal/heartbeat.test.ts')).toBeUndefined();
  });
});
