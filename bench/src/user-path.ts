/**
 * "first frame, the user's path": join → first remote frame measured as a newcomer gets it from a server started
 * the way `npm start` starts it — `node packages/server/dist/cli.js`, no ICE address, default host (0.0.0.0),
 * default log level — rather than the bench's own server child (loopback ICE address, `warn` logs). The pages are
 * the first-frame benchmark's: an app page loading `<server>/sdk/trtc.js`, startRemoteVideo() called in the
 * remote-video-available handler, the publisher already in the room.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { genUserSig } from '@conclave/usersig';
import { freePort } from '../../tests/kit/ports.js';
import { whenReady } from '../../tests/kit/child-output.js';
import { AppHost } from '../../tests/e2e/src/harness/client-page.js';
import { TEST_APP } from '../../tests/e2e/src/harness/server.js';
import { runFirstFrame, type FirstFrameResult } from './first-frame.js';
import { progress } from './stats.js';
import type { Row } from './table.js';

export type UserPathEngine = 'embedded' | 'janus';

export interface UserPathResult {
  engine: UserPathEngine;
  firstFrame: FirstFrameResult;
}

const CLI = fileURLToPath(new URL('../../packages/server/dist/cli.js', import.meta.url));

/**
 * The server as `npm start` runs it. Settings given: the port (chosen at run time), the test app's keys (so the
 * harness can sign userSigs; the dev app `npm start` generates differs only in its keys), a storage file in a
 * temporary directory, and the engine for Janus.
 */
async function startCli(engine: UserPathEngine, dir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort('0.0.0.0'); // free on every interface: the CLI's default host
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), CONCLAVE_SDKAPPID: String(TEST_APP.sdkAppId), CONCLAVE_SECRET_KEY: TEST_APP.secretKey, CONCLAVE_DB: joinPath(dir, 'conclave.db') };
  for (const key of ['HOST', 'CONCLAVE_ICE_ADDRESS', 'CONCLAVE_LOG_LEVEL', 'CONCLAVE_ENGINE', 'CONCLAVE_CONFIG']) delete env[key];
  if (engine === 'janus') env.CONCLAVE_ENGINE = 'janus';
  const child = spawn(process.execPath, [CLI], { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  await whenReady(child, { ready: 'Conclave is running at', name: 'conclave-server', timeoutMs: 30_000 }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  // Keep draining its logs (info level, as `npm start` writes them) so the pipe never fills; into
  // BENCH_USER_PATH_SERVER_LOG when set (a file, to line them up with the joins' paths).
  child.stdout?.removeAllListeners('data');
  const logFile = process.env.BENCH_USER_PATH_SERVER_LOG;
  if (logFile) child.stdout?.pipe(createWriteStream(`${logFile}.${engine}`));
  else child.stdout?.resume();
  return { child, url: `http://127.0.0.1:${port}` };
}

async function stopCli(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
  await exited;
  clearTimeout(timer);
}

/** BENCH_USER_PATH_ENGINES (comma-separated; embedded,janus by default). */
export function userPathEngines(): UserPathEngine[] {
  const wanted = (process.env.BENCH_USER_PATH_ENGINES ?? 'embedded,janus').split(',').map((e) => e.trim());
  return (['embedded', 'janus'] as const).filter((engine) => wanted.includes(engine));
}

/** The user-path first frame on each engine, each with a server of its own and `iterations` fresh pages. */
export async function runUserPath(context: BrowserContext, { iterations = 10, engines = ['embedded', 'janus'] as UserPathEngine[] } = {}): Promise<UserPathResult[]> {
  const results: UserPathResult[] = [];
  for (const engine of engines) {
    const dir = mkdtempSync(joinPath(tmpdir(), 'conclave-user-path-'));
    const { child, url } = await startCli(engine, dir);
    progress(`user path (${engine}): conclave-server at ${url}`);
    const app = await AppHost.start(url);
    try {
      const server = { sig: (userId: string) => genUserSig({ sdkAppId: TEST_APP.sdkAppId, secretKey: TEST_APP.secretKey, userId }) };
      const firstFrame = await runFirstFrame(context, app, server, { iterations, roomId: 9400, label: `user path (${engine})` });
      results.push({ engine, firstFrame });
    } finally {
      await app.close();
      await stopCli(child);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}

export function userPathRows(results: readonly UserPathResult[]): Row[] {
  const b = 'first frame, the user\'s path';
  return results.flatMap(({ engine, firstFrame: r }) => {
    const s = r.summary;
    const m = r.medianMarks;
    return [
      { benchmark: b, figure: s.median.toFixed(0), unit: `ms (median, ${engine})`, notes: `n=${s.count}; server as \`npm start\` runs it (no ICE address, 0.0.0.0, info logs), page loads <server>/sdk/trtc.js, startRemoteVideo in remote-video-available; enterRoom() → first rVFC frame; goal ≤ 200` },
      { benchmark: b, figure: s.p90.toFixed(0), unit: `ms (p90, ${engine})`, notes: `min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)}; medians of: enterRoom ${m.enterRoom.toFixed(0)}, track ${m.track.toFixed(0)}, downlink connected ${m.pcConnected.toFixed(0)}, 1st packet ${m.firstPacket.toFixed(0)}` },
    ];
  });
}
