// Builds the plugin assets served beside the SDK at /sdk/assets/ (the default assetsPath).
import { mkdirSync } from 'node:fs';

/** Writes dist/assets/. */
export async function buildAssets() {
  mkdirSync('dist/assets', { recursive: true });
}
