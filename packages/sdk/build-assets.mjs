// Builds the plugin assets served beside the SDK at /sdk/assets/ (the default assetsPath).
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
  copySelfieSegmentation();
}
