/**
 * The layer rules of layers.cjs (docs/architecture.md "Layers") hold for the server's sources, and fail on a
 * back-arrow: a fixture tree with an engine module importing signalling and the wire protocol is refused, and one
 * using werift, an engine's internals or the WebRTC toolkit's files around their doors (issue 41).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const rules = createRequire(import.meta.url)(join(PACKAGE_DIR, 'layers.cjs')) as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

/** The violations of the rules in `baseDir`'s src/. */
async function violations(baseDir: string, tsConfig?: string): Promise<{ found: IViolation[]; modules: number }> {
  const { options } = rules;
  const result = await cruise(['src'], {
    ...options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsConfig: tsConfig ? { fileName: tsConfig } : undefined,
  });
  if (typeof result.output === 'string') throw new Error('unexpected string output');
  return { found: result.output.summary.violations, modules: result.output.summary.totalCruised };
}

describe('server layers (dependency-cruiser)', () => {
  it('the layer rules enforced: no back-arrow in packages/server/src', async () => {
    const { found, modules } = await violations(PACKAGE_DIR, join(PACKAGE_DIR, 'tsconfig.json'));
    expect(modules).toBeGreaterThan(80);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 60_000);

  it('a back-arrow fails the rules (engine → signalling, engine → wire protocol, domain → root context)', async () => {
    expect(await fixtureViolations({
      'src/signal/session.ts': 'export const session = 1;\n',
      'src/context.ts': 'export const context = 1;\n',
      'src/engine/engine.ts': "import { session } from '../signal/session.js';\nexport const engine = session;\n",
      'src/room/room.ts': "import { context } from '../context.js';\nexport const room = context;\n",
    })).toEqual([
      'engine-not-above: src/engine/engine.ts → src/signal/session.ts',
      'no-root-imports: src/room/room.ts → src/context.ts',
    ]);
  }, 60_000);

  it("41 the WebRTC toolkit: werift outside src/webrtc/, an engine's internals outside src/engine/, the toolkit past its index and one engine in the other fail the rules", async () => {
    expect(await fixtureViolations({
      'src/webrtc/peer-census.ts': 'export const census = 1;\n',
      'src/webrtc/peer.ts': "import { uplink } from '../engine/embedded/uplink.js';\nexport const peer = uplink;\n",
      'src/webrtc/index.ts': "export { census } from './peer-census.js';\nexport { peer } from './peer.js';\n",
      'src/engine/embedded/uplink.ts': "export const uplink = 1;\n",
      'src/engine/media-engine.ts': "export type LinkState = 'connected';\n",
      'src/webrtc/link.ts': "import type { LinkState } from '../engine/media-engine.js';\nexport const state: LinkState = 'connected';\n",
      'src/engine/embedded/embedded-engine.ts': "import { census } from '../../webrtc/index.js';\nexport const engine = census;\n",
      'src/engine/janus/janus-playback.ts': "import { uplink } from '../embedded/uplink.js';\nexport const relay = uplink;\n",
      'src/whep/mix-streams.ts': "import { RtpPacket } from 'werift';\nimport { census } from '../webrtc/index.js';\nexport const mix = [RtpPacket, census];\n",
      'src/data-link/data-link.ts': "import { uplink } from '../engine/embedded/uplink.js';\nexport const link = uplink;\n",
      'src/ops/resource-metrics.ts': "import { census } from '../webrtc/peer-census.js';\nexport const gauges = census;\n",
      'src/index.ts': "export { engine } from './engine/embedded/embedded-engine.js';\n",
    })).toEqual([
      'engine-internals-private: src/data-link/data-link.ts → src/engine/embedded/uplink.ts',
      'engine-internals-private: src/webrtc/peer.ts → src/engine/embedded/uplink.ts',
      'janus-not-embedded: src/engine/janus/janus-playback.ts → src/engine/embedded/uplink.ts',
      'toolkit-beneath-the-engines: src/webrtc/link.ts → src/engine/media-engine.ts',
      'toolkit-beneath-the-engines: src/webrtc/peer.ts → src/engine/embedded/uplink.ts',
      'toolkit-through-its-index: src/ops/resource-metrics.ts → src/webrtc/peer-census.ts',
      'werift-only-in-the-toolkit: src/whep/mix-streams.ts → werift',
    ]);
  }, 60_000);

  it('41 metrics through observers: signalling, the admin API and the cloud API importing the metrics (a Deps carrying Metrics), and the metrics importing a transport, fail the rules', async () => {
    const metrics = 'export class Metrics { error(): void {} }\n';
    const deps = (folder: string) => `import type { Metrics } from '../ops/metrics.js';\nexport interface Deps { metrics: Metrics }\n`.replace('Deps', `${folder}Deps`);
    expect(await fixtureViolations({
      'src/ops/metrics.ts': metrics,
      'src/signal/signal-deps.ts': deps('Signal'),
      'src/admin/admin-deps.ts': deps('Admin'),
      'src/cloud-api/cloud-api-deps.ts': deps('CloudApi'),
      'src/context.ts': "export { Metrics } from './ops/metrics.js';\n",
      'src/whep/whep-quota.ts': 'export interface WhepSnapshot { open: number }\n',
      'src/ops/whep-gauges.ts': "import type { WhepSnapshot } from '../whep/whep-quota.js';\nexport type Read = () => WhepSnapshot;\n",
    })).toEqual([
      'observed-not-calling-metrics: src/admin/admin-deps.ts → src/ops/metrics.ts',
      'observed-not-calling-metrics: src/cloud-api/cloud-api-deps.ts → src/ops/metrics.ts',
      'observed-not-calling-metrics: src/signal/signal-deps.ts → src/ops/metrics.ts',
      'ops-not-transports: src/ops/whep-gauges.ts → src/whep/whep-quota.ts',
    ]);
  }, 60_000);
});

/** The violations, sorted, of a fixture tree of `files` (path → text). */
async function fixtureViolations(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true }, include: ['src'] }));
    const { found } = await violations(dir, join(dir, 'tsconfig.json'));
    return found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
