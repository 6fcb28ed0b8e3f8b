import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLUGIN_ENTRIES, packageExports } from '../../plugin-entries.mjs';
import { BUILT_IN_PLUGINS } from '../plugin-api/built-ins.js';

describe('the plugin table (plugin-entries.mjs)', () => {
  it('maps a separate plugin to the subpath export the original uses', () => {
    const exports = packageExports([{ name: 'watermark', path: 'video-effect/watermark', globalName: 'Watermark', source: 'x.ts' }]);
    expect(exports['./plugins/video-effect/watermark']).toEqual({
      types: './dist/plugins/video-effect/watermark/watermark.esm.d.ts',
      import: './dist/plugins/video-effect/watermark/watermark.esm.js',
      default: './dist/plugins/video-effect/watermark/watermark.umd.js',
    });
  });

  it('package.json exports are the table\'s (the build rewrites them)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { exports: unknown };
    expect(pkg.exports).toEqual(packageExports());
  });

  it('every built-in the core loads lazily is an entry of the table', () => {
    for (const file of Object.values(BUILT_IN_PLUGINS)) {
      expect(PLUGIN_ENTRIES.some((entry) => `${entry.path}/${entry.name}` === file && entry.builtIn)).toBe(true);
    }
  });
});
