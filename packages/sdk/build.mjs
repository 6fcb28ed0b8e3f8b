// Builds the browser bundles: ESM (dist/trtc.esm.js) and UMD (dist/trtc.js, global TRTC), minified; each plugin
// of plugin-entries.mjs as dist/plugins/<path>/<name>.{esm,umd,iife}.js + .esm.d.ts; the bundled public
// declarations (dist/trtc.d.ts, no import of workspace packages); the assets; and package.json's exports.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { coreBundle, pluginBundle } from './build-options.mjs';
import { buildAssets } from './build-assets.mjs';
import { bundleDeclarations } from './build-dts.mjs';
import { PLUGIN_ENTRIES, packageExports } from './plugin-entries.mjs';

/** UMD footer: hands the IIFE's default export to CommonJS, AMD or a global. */
const umdFooter = (tmp, globalName) =>
  `(function(root,f){if(typeof module==='object'&&module.exports){module.exports=f}else if(typeof define==='function'&&define.amd){define([],function(){return f})}else{root.${globalName}=f}})(typeof self!=='undefined'?self:this,${tmp}.default);`;

const common = { ...coreBundle, sourcemap: true };
await build({ ...common, format: 'esm', outfile: 'dist/trtc.esm.js' });
await build({ ...common, format: 'iife', globalName: '__conclave', outfile: 'dist/trtc.js', footer: { js: umdFooter('__conclave', 'TRTC') } });

for (const entry of PLUGIN_ENTRIES) {
  const options = { ...pluginBundle(entry), sourcemap: true };
  const out = `dist/plugins/${entry.path}/${entry.name}`;
  await build({ ...options, format: 'esm', outfile: `${out}.esm.js` });
  await build({ ...options, format: 'iife', globalName: '__conclavePlugin', outfile: `${out}.umd.js`, footer: { js: umdFooter('__conclavePlugin', entry.globalName) } });
  // IIFE: a plain script that defines the global (var at a script's top level).
  await build({ ...options, format: 'iife', globalName: '__conclavePlugin', outfile: `${out}.iife.js`, footer: { js: `var ${entry.globalName}=__conclavePlugin.default;` } });
  writeFileSync(`dist/plugins/${entry.path}/package.json`, `${JSON.stringify({
    name: `@conclave/plugin-${entry.name}`, main: `./${entry.name}.esm.js`, module: `./${entry.name}.esm.js`, types: `./${entry.name}.esm.d.ts`,
  }, null, 2)}\n`);
}

await buildAssets();
await bundleDeclarations(PLUGIN_ENTRIES);

// package.json's exports follow the plugin table (rewritten only when they differ).
const pkgText = readFileSync('package.json', 'utf8');
const pkg = JSON.parse(pkgText);
pkg.exports = packageExports();
const next = `${JSON.stringify(pkg, null, 2)}\n`;
if (next !== pkgText) writeFileSync('package.json', next);
