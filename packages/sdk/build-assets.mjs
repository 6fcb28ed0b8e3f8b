// Builds the plugin assets served beside the SDK at /sdk/assets/ (the default assetsPath):
// denoiser-wasm.js, the AIDenoiser's AudioWorklet with RNNoise's wasm (from @jitsi/rnnoise-wasm) embedded,
// like the original's file of that name.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

/** Writes dist/assets/. */
export async function buildAssets() {
  mkdirSync('dist/assets', { recursive: true });
  const wasm = readFileSync(require.resolve('@jitsi/rnnoise-wasm/dist/rnnoise.wasm'));
  await build({
    entryPoints: [fileURLToPath(new URL('./src/plugins/ai-denoiser/worklet.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    logLevel: 'warning',
    define: { RNNOISE_WASM_BASE64: JSON.stringify(wasm.toString('base64')) },
    outfile: 'dist/assets/denoiser-wasm.js',
  });
}
