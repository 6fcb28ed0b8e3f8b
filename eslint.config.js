import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import conclave from './tests/repo/no-silent-catch.js';

/** Sources that belong to a TypeScript project (type-aware rules need the types). */
const TYPED_SOURCES = [
  'packages/*/src/**/*.ts',
  'packages/server/test/**/*.ts',
  'apps/demo/src/**/*.{ts,tsx}',
  'tests/e2e/src/**/*.ts',
  'bench/src/**/*.ts',
  'tests/fuzz/*.ts',
  'tests/kit/*.ts',
  'packages/sdk/type-tests/*.ts',
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'tests/e2e/artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Promises are awaited, returned, or explicitly `void`ed / caught with logging; none is passed where a
    // void callback is expected. The server's test wing is a project of its own (packages/server/test/tsconfig.json);
    // the other unit tests (outside the projects) are linted without types.
    files: TYPED_SOURCES,
    ignores: ['packages/!(server)/**/*.test.ts', 'apps/**/*.test.ts', 'tests/**/*.test.ts', 'bench/**/*.test.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // No failure dropped silently (docs/architecture.md "Failures"): production code only; tests catch to assert.
    files: ['packages/*/src/**/*.ts', 'apps/demo/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    plugins: { conclave },
    rules: { 'conclave/no-silent-catch': 'error' },
  },
  {
    // The SDK ships to browsers at es2020 (see packages/sdk/build-options.mjs): private members are
    // TypeScript's `private _name` (mangled by the build), never ES `#name` (lowered to WeakMap helpers); and
    // since every `_name` property is mangled, nothing public or sent on the wire may start with `_`.
    files: ['packages/sdk/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'PrivateIdentifier',
        message: 'Use `private _name` in the SDK: #private members cost WeakMap helpers at es2020.',
      }],
      '@typescript-eslint/naming-convention': ['error',
        { selector: 'memberLike', modifiers: ['private'], format: null, leadingUnderscore: 'require' },
        // A base class's internals shared with its subclass (trtc-core.ts): mangled like private ones, and
        // marked @internal so the published declarations drop them.
        { selector: 'memberLike', modifiers: ['protected'], format: null, leadingUnderscore: 'require' },
        { selector: 'memberLike', format: null, leadingUnderscore: 'forbid' },
      ],
    },
  },
  {
    // The core never imports a plugin: plugins are separate bundles that reach the core only through the
    // plugin API (packages/sdk/src/plugin-api/, where the plugin manager and the list of lazily loaded
    // built-ins live too). The one documented exception: the public entry (src/index.ts) re-exports the
    // built-ins' option types (AudioMixerOptions, AIDenoiserOptions), type-only and erased from the bundle.
    files: ['packages/sdk/src/**/*.ts'],
    ignores: ['packages/sdk/src/plugins/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/plugins/**', './plugins/*'], message: 'The SDK core must not import src/plugins/ (use src/plugin-api/).' }],
      }],
    },
  },
  {
    files: ['packages/sdk/src/index.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/plugins/**', './plugins/*'], allowTypeImports: true, message: 'src/index.ts may re-export plugin types only (export type).' }],
      }],
    },
  },
);
