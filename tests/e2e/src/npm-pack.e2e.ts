import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';
import { MediaServer } from './plugins-media.js';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SDK_DIR = join(REPO, 'packages/sdk');
/** The versions the repository already has (so the install is served from the npm cache). */
const version = (name: string) => (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A React + TypeScript app written for trtc-sdk-v5: joins the room from the URL, shows local and remote video. */
const APP_TSX = `
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import TRTC, { type AudioMixerOptions, type RtcError } from 'trtc-sdk-v5';

const params = new URLSearchParams(location.search);
const trtc = TRTC.create();
// An option object typed with the original's plugin typings (checked by tsc, not used).
export const music: AudioMixerOptions = { id: 'bgm', url: '/bgm.mp3', loop: true, volume: 0.5 };

/** One remote user's video, started once its element is in the document. */
function Remote({ userId, streamType }: { userId: string; streamType: 'main' | 'sub' }) {
  const view = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (view.current) void trtc.startRemoteVideo({ userId, streamType, view: view.current });
  }, [userId, streamType]);
  return <div ref={view} className="remote" style={{ width: 320, height: 240 }} />;
}

function App() {
  const [state, setState] = useState('idle');
  const [remotes, setRemotes] = useState<{ userId: string; streamType: 'main' | 'sub' }[]>([]);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    trtc.on(TRTC.EVENT.REMOTE_VIDEO_AVAILABLE, ({ userId, streamType }) => setRemotes((list) => [...list, { userId, streamType }]));
    trtc.on(TRTC.EVENT.ERROR, (error: RtcError) => setState('error ' + error.code));
    (async () => {
      await trtc.startLocalVideo({ view: 'local' });
      await trtc.enterRoom({ sdkAppId: Number(params.get('sdkAppId')), userId: params.get('userId') ?? '', userSig: params.get('userSig') ?? '', roomId: Number(params.get('roomId')) });
      setState('joined');
    })().catch((error: unknown) => setState('failed: ' + String(error)));
  }, []);
  return (
    <main>
      <p id="state">{state}</p>
      <div id="local" style={{ width: 320, height: 240 }} />
      {remotes.map((r) => <Remote key={r.userId + r.streamType} {...r} />)}
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
`;

let fx: AppFixture | undefined;
let work: string;
let site: MediaServer | undefined;

beforeAll(async () => {
  fx = await startAppFixture();
  work = mkdtempSync(join(tmpdir(), 'conclave-npm-app-'));
}, 60_000);

afterAll(async () => {
  await site?.close();
  await stopAppFixture(fx ?? {});
  if (work) rmSync(work, { recursive: true, force: true });
});

/** True once the page shows a remote video with decoded frames. */
const seesRemote = (page: Page) => page.evaluate(() => [...document.querySelectorAll('.remote video')].some((v) => (v as HTMLVideoElement).videoWidth > 0));

describe('Must show 5: the packed SDK installs into a fresh React + TypeScript + Vite app outside the repository under the name trtc-sdk-v5', () => {
  it('packs, installs, type-checks, builds, and two pages of the app join a room and see each other', async () => {
    /** Runs a command without blocking the test worker; a failure carries its output. */
    const run = async (cmd: string, args: string[], cwd: string) => {
      try {
        return (await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout;
      } catch (error) {
        const e = error as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
      }
    };
    // Pack: the tarball must stand alone (no workspace package in its dependencies or its declarations).
    const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], SDK_DIR)) as { filename: string }[];
    const tarball = join(work, packed[0].filename);
    const app = join(work, 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({
      name: 'fresh-app', private: true, type: 'module',
      dependencies: { react: version('react'), 'react-dom': version('react-dom') },
      devDependencies: {
        typescript: version('typescript'), vite: version('vite'), '@vitejs/plugin-react': version('@vitejs/plugin-react'),
        '@types/react': version('@types/react'), '@types/react-dom': version('@types/react-dom'),
      },
    }, null, 2));
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, noEmit: true, lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: false, types: [] },
      include: ['src'],
    }, null, 2));
    writeFileSync(join(app, 'vite.config.ts'), `import { defineConfig } from 'vite';\nimport react from '@vitejs/plugin-react';\nexport default defineConfig({ plugins: [react()] });\n`);
    // The deployment names the Conclave server outside the app's code (SDK README).
    writeFileSync(join(app, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><meta name="conclave-server" content="${fx!.server.url}"><title>fresh app</title></head><body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>`);
    writeFileSync(join(app, 'src/main.tsx'), APP_TSX);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], app);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', `trtc-sdk-v5@file:${tarball}`], app);
    const installed = JSON.parse(readFileSync(join(app, 'node_modules/trtc-sdk-v5/package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string> };
    expect(installed.name).toBe('@conclave/sdk');
    expect(Object.keys(installed.dependencies ?? {})).toEqual([]);
    expect(readFileSync(join(app, 'node_modules/trtc-sdk-v5/dist/trtc.d.ts'), 'utf8')).not.toMatch(/^\s*(import|export)\b[^\n]*from ['"](@conclave|zod)/m);
    await run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
    await run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app);
    site = await MediaServer.start(join(app, 'dist'), { '/': { type: 'text/html', body: readFileSync(join(app, 'dist/index.html'), 'utf8') } });
    const pages: Page[] = [];
    for (const userId of ['alice', 'bob']) {
      const page = await fx!.browser.context.newPage();
      page.on('pageerror', (error) => console.error('[app page error]', error.message));
      const query = new URLSearchParams({ sdkAppId: String(TEST_APP.sdkAppId), userId, userSig: await fx!.server.sig(userId), roomId: '41006' });
      await page.goto(`${site.url}/?${query}`);
      pages.push(page);
    }
    for (const page of pages) {
      await expect.poll(() => page.locator('#state').innerText(), { timeout: 20_000 }).toBe('joined');
      await expect.poll(() => seesRemote(page), { timeout: 30_000 }).toBe(true);
    }
  }, 480_000);
});
