import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KIT, kitCopies, kitNames, kitProblems } from './test-kit.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the test kit (tests/kit)', () => {
  it('41 one test kit: ports, process readiness, Redis, coturn, the callback receiver, the official server API client, a socket\'s close and the next second are written once, in tests/kit, and no test project imports another\'s helpers', async () => {
    expect(kitNames(ROOT)).toEqual(expect.arrayContaining(['CallbackReceiver', 'TestRedis', 'TurnServer', 'freePort', 'freeUdpPort', 'nextSecond', 'officialTrtcClient', 'socketClosed', 'spawnRedis', 'trtcRefusal', 'whenReady']));
    expect(kitProblems(ROOT).map((p) => `${p.file}: ${p.problem}`)).toEqual([]);
    expect(await kitCopies(ROOT)).toEqual([]);
  }, 60_000);

  it('41 one test kit: a helper written again, a copied kit file and an import of the server\'s test wing fail the check (fixture)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'test-kit-'));
    try {
      cpSync(join(ROOT, KIT), join(dir, KIT), { recursive: true });
      const file = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      file('tests/e2e/src/harness/udp.ts', 'export function freeUdpPort(): Promise<number> {\n  return Promise.resolve(0);\n}\n');
      file('bench/src/load.ts', "import { startTestServer } from '../../packages/server/test/support/clients.js';\nexport const start = startTestServer;\n");
      cpSync(join(ROOT, KIT, 'redis-server.ts'), join(dir, 'packages/server/test/support/redis-copy.ts'));
      expect(kitProblems(dir).map((p) => `${p.file}: ${p.problem}`).sort()).toEqual([
        "bench/src/load.ts: imports packages/server/test/support/clients.js, another test project's helper (share it through tests/kit)",
        'packages/server/test/support/redis-copy.ts: declares TestRedis, which tests/kit has',
        'packages/server/test/support/redis-copy.ts: declares spawnRedis, which tests/kit has',
        'tests/e2e/src/harness/udp.ts: declares freeUdpPort, which tests/kit has',
      ]);
      expect(await kitCopies(dir)).toEqual([expect.stringMatching(/redis-(server|copy)\.ts.* ~ .*redis-(server|copy)\.ts/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
