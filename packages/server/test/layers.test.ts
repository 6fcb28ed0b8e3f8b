/**
 * The layer rules of layers.cjs (docs/architecture.md "Layers") hold for the server's sources, and fail on a
 * back-arrow: a fixture tree with an engine module importing signalling and the wire protocol is refused. Beside
 * them (issue 41): no import circle among the production folders, no production file importing the test wing,
 * no test file in src/, werift only in the WebRTC toolkit and metrics through observers — each shown to fail on a
 * fixture.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type IModule } from 'dependency-cruiser';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderCircles } from './support/folder-circles.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const rules = createRequire(import.meta.url)(join(PACKAGE_DIR, 'layers.cjs')) as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

interface Cruised {
  /** Each violation as "rule: from → to", once per rule and importing file pair. */
  found: string[];
  modules: IModule[];
}

/** The rules' violations and the modules in `baseDir`'s src/ (and what it imports). */
async function cruised(baseDir: string): Promise<Cruised> {
  const result = await cruise(['src'], {
    ...rules.options,
    baseDir,
    validate: true,
    ruleSet: { forbidden: rules.forbidden },
    tsConfig: { fileName: join(baseDir, 'tsconfig.json') },
  });
  if (typeof result.output === 'string') throw new Error('unexpected string output');
  const found = result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
  return { found: [...new Set(found)], modules: result.output.modules };
}

/** A fixture package: `files` under a fresh folder, with a tsconfig; removed after `use`. */
async function withFixture<T>(files: Record<string, string>, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true }, include: ['src', 'test'] }));
    return await use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('server layers (dependency-cruiser)', () => {
  let tree: Cruised;
  beforeAll(async () => {
    tree = await cruised(PACKAGE_DIR);
  }, 60_000);

  it('the layer rules enforced: no back-arrow in packages/server/src', () => {
    expect(tree.modules.filter((m) => m.source.startsWith('src/')).length).toBeGreaterThan(80);
    expect(tree.found).toEqual([]);
  });

  it('a back-arrow fails the rules (engine → signalling, engine → wire protocol, domain → root context)', async () => {
    const { found } = await withFixture({
      'src/signal/session.ts': 'export const session = 1;\n',
      'src/context.ts': 'export const context = 1;\n',
      'src/engine/engine.ts': "import { session } from '../signal/session.js';\nexport const engine = session;\n",
      'src/room/room.ts': "import { context } from '../context.js';\nexport const room = context;\n",
    }, cruised);
    expect(found.sort()).toEqual([
      'engine-not-above: src/engine/engine.ts → src/signal/session.ts',
      'no-root-imports: src/room/room.ts → src/context.ts',
    ]);
  }, 60_000);

  it('41 layers: no import circle among production folders (the folder graph of dependency-cruiser\'s modules)', () => {
    const circles = folderCircles(tree.modules);
    expect(circles, `folder circles:\n${circles.join('\n')}`).toEqual([]);
  });

  it('41 layers: a circle among folders fails the check and is printed, though no file imports itself back (fixture)', async () => {
    const { modules } = await withFixture({
      'src/signal/a.ts': "import { b } from '../whep/b.js';\nexport const a = b;\n",
      'src/signal/d.ts': 'export const d = 1;\n',
      'src/whep/b.ts': 'export const b = 1;\n',
      'src/whep/c.ts': "import { d } from '../signal/d.js';\nexport const c = d;\n",
      'src/room/room.ts': "import { a } from '../signal/a.js';\nexport const room = a;\n",
    }, cruised);
    expect(folderCircles(modules)).toEqual(['signal → whep → signal']);
  }, 60_000);

  it('41 layers: no production file imports the test wing, and no test file sits in src/', () => {
    expect(tree.found.filter((v) => /^no-test-(wing-imports|file-in-src):/.test(v))).toEqual([]);
    // The rules saw the tree: src/ has files and none of them is a test.
    expect(tree.modules.some((m) => m.source.startsWith('src/') && m.source.endsWith('.test.ts'))).toBe(false);
  });

  it('41 layers: a production file importing the test wing or a test helper, and a test file in src/, fail the rules (fixture)', async () => {
    const { found } = await withFixture({
      'test/support/clients.ts': 'export const client = 1;\n',
      'src/room/room.ts': "import { client } from '../../test/support/clients.js';\nexport const room = client;\n",
      // What a test written before the move would import: the helpers' old folder (gone, so unresolved).
      'src/signal/session.ts': "import { startTestServer } from '../test-support/clients.js';\nexport const session = startTestServer;\n",
      'src/signal/session.test.ts': "import { session } from './session.js';\nexport const test = session;\n",
    }, cruised);
    expect(found.sort()).toEqual([
      'no-test-file-in-src: src/signal/session.test.ts → src/signal/session.ts',
      'no-test-wing-imports: src/room/room.ts → test/support/clients.ts',
      'no-test-wing-imports: src/signal/session.ts → ../test-support/clients.js',
    ]);
  }, 60_000);

  it("41 the WebRTC toolkit: werift outside src/webrtc/, an engine's internals outside src/engine/, the toolkit past its index and one engine in the other fail the rules", async () => {
    expect((await withFixture({
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
    }, cruised)).found.sort()).toEqual([
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
    expect((await withFixture({
      'src/ops/metrics.ts': metrics,
      'src/signal/signal-deps.ts': deps('Signal'),
      'src/admin/admin-deps.ts': deps('Admin'),
      'src/cloud-api/cloud-api-deps.ts': deps('CloudApi'),
      'src/context.ts': "export { Metrics } from './ops/metrics.js';\n",
      'src/whep/whep-quota.ts': 'export interface WhepSnapshot { open: number }\n',
      'src/ops/whep-gauges.ts': "import type { WhepSnapshot } from '../whep/whep-quota.js';\nexport type Read = () => WhepSnapshot;\n",
    }, cruised)).found.sort()).toEqual([
      'observed-not-calling-metrics: src/admin/admin-deps.ts → src/ops/metrics.ts',
      'observed-not-calling-metrics: src/cloud-api/cloud-api-deps.ts → src/ops/metrics.ts',
      'observed-not-calling-metrics: src/signal/signal-deps.ts → src/ops/metrics.ts',
      'ops-not-transports: src/ops/whep-gauges.ts → src/whep/whep-quota.ts',
    ]);
  }, 60_000);
});
