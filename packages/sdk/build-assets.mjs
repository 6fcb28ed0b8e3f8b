// Builds the plugin assets served beside the SDK at /sdk/assets/ (the default assetsPath):
// denoiser-wasm.js, the AIDenoiser's AudioWorklet with RNNoise's wasm (from @jitsi/rnnoise-wasm) embedded,
// like the original's file of that name; selfie_segmentation/, face_detection/ and face_mesh/, the MediaPipe
// files of VirtualBackground, FaceDetection and Beauty;
// video-decoder/, TRTCVideoDecoder's worker and wasm; autoplay-dialog.js, hw-encoder.js, experimental.js,
// canvas-renderer.js and sei-channel.js, lazily loaded parts of the core.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { coreBundle } from './build-options.mjs';

const require = createRequire(import.meta.url);

/** Lazily loaded parts of the core: [entry module under src/, asset name]. */
const LAZY_CORE_PARTS = [
  ['experimental/experimental-api.ts', 'experimental'],
  ['playback/canvas-renderer.ts', 'canvas-renderer'],
  ['sei/sei-channel.ts', 'sei-channel'],
];

/**
 * A MediaPipe solution's script, wasm and model files, from its npm package, into dist/assets/<folder>/:
 * VirtualBackground's person segmentation, FaceDetection's face detector (the short-range model only, the
 * one it uses) and Beauty's face mesh (landmarks; its models are packed in a .data file).
 */
function copyMediaPipe(pkg, folder, skip = /^$/) {
  const from = dirname(require.resolve(`${pkg}/package.json`));
  const to = `dist/assets/${folder}`;
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from)) {
    if (/\.(js|wasm|tflite|binarypb|data)$/.test(file) && !skip.test(file)) copyFileSync(join(from, file), join(to, file));
  }
}

/**
 * TRTCVideoDecoder's decode worker (video-decoder/decode-worker.js) and its wasm software decoder: TinyH264's
 * wasm, which the package embeds as a data URI, is written out as tinyh264.wasm and cut from the script (the
 * worker fetches it and hands it over as wasmBinary).
 */
async function buildVideoDecoderAssets() {
  mkdirSync('dist/assets/video-decoder', { recursive: true });
  const dataUri = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;
  const script = readFileSync(require.resolve('tinyh264/es/TinyH264.js'), 'utf8');
  const match = dataUri.exec(script);
  if (!match) throw new Error('tinyh264: embedded wasm not found');
  writeFileSync('dist/assets/video-decoder/tinyh264.wasm', Buffer.from(match[1], 'base64'));
  await build({
    entryPoints: [fileURLToPath(new URL('./src/plugins/video-decoder/worker/decode-worker.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    logLevel: 'warning',
    outfile: 'dist/assets/video-decoder/decode-worker.js',
    plugins: [{
      name: 'tinyh264-without-embedded-wasm',
      setup(b) {
        b.onLoad({ filter: /TinyH264\.js$/ }, () => ({ contents: script.replace(dataUri, '"tinyh264.wasm"'), loader: 'js' }));
      },
    }],
  });
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
  copyMediaPipe('@mediapipe/selfie_segmentation', 'selfie_segmentation');
  copyMediaPipe('@mediapipe/face_detection', 'face_detection', /full/);
  copyMediaPipe('@mediapipe/face_mesh', 'face_mesh');
  await buildVideoDecoderAssets();
  // The autoplay dialog, loaded by the core on first need (src/playback/autoplay-dialog-loader.ts).
  await build({
    ...coreBundle,
    entryPoints: [fileURLToPath(new URL('./src/playback/autoplay-dialog.ts', import.meta.url))],
    format: 'esm',
    outfile: 'dist/assets/autoplay-dialog.js',
  });
  // The hardware encoder switch, loaded by the core for preferHW (src/transport/hw-encoder-loader.ts).
  await build({
    ...coreBundle,
    entryPoints: [fileURLToPath(new URL('./src/transport/hw-encoder.ts', import.meta.url))],
    format: 'esm',
    outfile: 'dist/assets/hw-encoder.js',
  });
  // Parts of the core only some apps use, loaded on first use (docs/architecture.md "SDK plugins"): the
  // experimental APIs (src/experimental/lazy-experimental.ts), the canvas player's renderer (src/playback/video-player.ts)
  // and SEI's channel (src/sei/sei-sender.ts).
  for (const [source, name] of LAZY_CORE_PARTS) {
    await build({ ...coreBundle, entryPoints: [fileURLToPath(new URL(`./src/${source}`, import.meta.url))], format: 'esm', outfile: `dist/assets/${name}.js` });
  }
}
