// Builds the plugin assets served beside the SDK at /sdk/assets/ (the default assetsPath):
// denoiser-wasm.js, the AIDenoiser's AudioWorklet with RNNoise's wasm (from @jitsi/rnnoise-wasm) embedded,
// like the original's file of that name; selfie_segmentation/, VirtualBackground's MediaPipe files.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);

/** VirtualBackground's person segmentation: MediaPipe's script, wasm and model, from its npm package. */
function copySelfieSegmentation() {
  const from = dirname(require.resolve('@mediapipe/selfie_segmentation/package.json'));
  const to = 'dist/assets/selfie_segmentation';
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) {
    if (/\.(js|wasm|tflite|binarypb|data)$/.test(file)) copyFileSync(join(from, file), join(to, file));
  }
}

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
  copySelfieSegmentation();
}
