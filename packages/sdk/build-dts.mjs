// Bundles the public declaration files so the npm package stands alone: dist/trtc.d.ts for the core and
// dist/plugins/<path>/<name>.esm.d.ts per plugin, with workspace packages' types inlined (no import of
// @conclave/protocol or its dependencies survives; the build fails if one does).
import { readFileSync } from 'node:fs';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

async function bundle(input, file) {
  const result = await rollup({ input, plugins: [dts({ respectExternal: true })], onwarn: () => undefined });
  await result.write({ file, format: 'es' });
  await result.close();
  const text = readFileSync(file, 'utf8');
  const foreign = text.match(/^import .* from ['"][^.'"][^'"]*['"]/m);
  if (foreign) throw new Error(`${file} still imports a package: ${foreign[0]}`);
}

/** Writes the bundled declarations of the core and of every plugin entry. */
export async function bundleDeclarations(entries) {
  await bundle('dist/types/index.d.ts', 'dist/trtc.d.ts');
  for (const entry of entries) {
    const source = entry.source.replace(/\.ts$/, '.d.ts');
    await bundle(`dist/types/plugins/${source}`, `dist/plugins/${entry.path}/${entry.name}.esm.d.ts`);
  }
}
