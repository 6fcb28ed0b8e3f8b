import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { CORE_GZIP_BUDGET_BYTES, coreBundle } from '../../packages/sdk/build-options.mjs';
import type { Row } from './table.js';

const gz = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/** Sizes of our core ESM bundle and of the original package's own ESM build, measured now. */
export async function measureBundleSize(): Promise<{ ours: { raw: number; gzip: number }; original: { raw: number; gzip: number; version: string }; budget: number }> {
  const result = await build({ ...coreBundle, format: 'esm', write: false });
  const ours = result.outputFiles[0].contents;
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('trtc-sdk-v5/package.json', { paths: [new URL('../../packages/sdk/', import.meta.url).pathname] });
  const version = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string }).version;
  const original = readFileSync(pkgPath.replace(/package\.json$/, 'trtc.esm.js'));
  return { ours: { raw: ours.length, gzip: gz(ours) }, original: { raw: original.length, gzip: gz(original), version }, budget: CORE_GZIP_BUDGET_BYTES };
}

export function bundleSizeRows(r: Awaited<ReturnType<typeof measureBundleSize>>): Row[] {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const b = 'SDK core bundle size';
  return [
    { benchmark: b, figure: kb(r.ours.gzip), unit: 'KB gzip', notes: `Conclave core ESM, minified (${kb(r.ours.raw)} KB raw); budget ${kb(r.budget)} KB; 48.4 KB before issues 11–17 (issue 11: no larger)` },
    { benchmark: b, figure: kb(r.original.gzip), unit: 'KB gzip', notes: `trtc-sdk-v5@${r.original.version} trtc.esm.js as shipped (${kb(r.original.raw)} KB raw)` },
  ];
}
