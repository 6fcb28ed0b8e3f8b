// esbuild options of the browser bundles, shared by the build and the size checks.
import { fileURLToPath } from 'node:url';

/** The core bundle: the SDK without plugins, minified, for browsers. */
export const coreBundle = {
  entryPoints: [fileURLToPath(new URL('./src/index.ts', import.meta.url))],
  bundle: true,
  minify: true,
  target: 'es2020',
  logLevel: 'warning',
};

/** One plugin's bundle (an entry of plugin-entries.mjs): self-contained, it reaches the core only through its context. */
export function pluginBundle(entry) {
  return {
    entryPoints: [fileURLToPath(new URL(`./src/plugins/${entry.source}`, import.meta.url))],
    bundle: true,
    minify: true,
    target: 'es2020',
    logLevel: 'warning',
  };
}

/** Size budget of the core ESM bundle, minified and gzipped (issue: at most 60 KB). */
export const CORE_GZIP_BUDGET_BYTES = 60 * 1024;
