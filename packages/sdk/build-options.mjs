// esbuild options of the browser bundles, shared by the build and the size checks.
import { fileURLToPath } from 'node:url';

/**
 * What every browser bundle shares. es2020 is docs/behaviour.md §2's browser floor (Edge 80, Chrome 80), where ES private
 * members would be lowered to WeakMap helpers: the sources use TypeScript's `private _name` instead (a lint
 * rule keeps it so), `_name` properties are mangled to short names, and class fields are plain assignments
 * (tsconfig.json's useDefineForClassFields: false, which esbuild and vitest read too).
 * A public member or wire key must therefore never start with `_` (also a lint rule).
 */
const browserBundle = {
  bundle: true,
  minify: true,
  target: 'es2020',
  mangleProps: /^_[a-zA-Z]/,
  logLevel: 'warning',
};

/** The core bundle: the SDK without plugins, minified, for browsers. */
export const coreBundle = {
  ...browserBundle,
  entryPoints: [fileURLToPath(new URL('./src/index.ts', import.meta.url))],
};

/** One plugin's bundle (an entry of plugin-entries.mjs): self-contained, it reaches the core only through its context. */
export function pluginBundle(entry) {
  return {
    ...browserBundle,
    entryPoints: [fileURLToPath(new URL(`./src/plugins/${entry.source}`, import.meta.url))],
  };
}

/**
 * Size budget of the core ESM bundle, minified and gzipped: 55 KB (issue 40; it was 60 KB), with the parts only some
 * apps use loaded lazily (docs/architecture.md "SDK plugins").
 */
export const CORE_GZIP_BUDGET_BYTES = 55 * 1024;
