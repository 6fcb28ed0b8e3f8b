import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { CORE_GZIP_BUDGET_BYTES, coreBundle } from '../build-options.mjs';

describe('size budget', () => {
  it('40 the core SDK as a minified ESM bundle is at most 55 KB gzipped, the 5.18 additions included', async () => {
    const result = await build({ ...coreBundle, format: 'esm', write: false });
    const gzipped = gzipSync(result.outputFiles[0].contents, { level: 9 }).length;
    expect(gzipped).toBeGreaterThan(1000);
    expect(gzipped).toBeLessThanOrEqual(CORE_GZIP_BUDGET_BYTES);
  }, 60_000);
});
