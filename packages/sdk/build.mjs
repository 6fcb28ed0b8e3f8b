// Builds the browser bundles: ESM (dist/trtc.esm.js) and UMD (dist/trtc.js, global TRTC), minified.
import { build } from 'esbuild';
import { coreBundle } from './build-options.mjs';

const common = { ...coreBundle, sourcemap: true };

await build({ ...common, format: 'esm', outfile: 'dist/trtc.esm.js' });
// UMD: an IIFE that hands its default export to CommonJS, AMD or the TRTC global.
await build({
  ...common,
  format: 'iife',
  globalName: '__conclave',
  outfile: 'dist/trtc.js',
  footer: {
    js: `(function(root,f){if(typeof module==='object'&&module.exports){module.exports=f}else if(typeof define==='function'&&define.amd){define([],function(){return f})}else{root.TRTC=f}})(typeof self!=='undefined'?self:this,__conclave.default);`,
  },
});
