import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const version = (name: string) => (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** Every plugin path of trtc-sdk-v5 5.17.1 (5.11.1's are a subset) and 5.18's audio-player: its class (named export) and UMD global. */
const PATHS: { path: string; name: string; className: string }[] = [
  { path: 'audio-player', name: 'audio-player', className: 'AudioPlayer' },
  { path: 'cdn-streaming', name: 'cdn-streaming', className: 'CDNStreaming' },
  { path: 'chorus', name: 'chorus', className: 'Chorus' },
  { path: 'cross-room', name: 'cross-room', className: 'CrossRoom' },
  { path: 'custom-encryption', name: 'custom-encryption', className: 'CustomEncryption' },
  { path: 'device-detector', name: 'device-detector', className: 'DeviceDetector' },
  { path: 'lebplayer', name: 'lebplayer', className: 'LEBPlayer' },
  { path: 'realtime-transcriber', name: 'realtime-transcriber', className: 'RealtimeTranscriber' },
  { path: 'small-stream-auto-switcher', name: 'small-stream-auto-switcher', className: 'SmallStreamAutoSwitcher' },
  { path: 'video-decoder', name: 'video-decoder', className: 'TRTCVideoDecoder' },
  { path: 'voice-changer', name: 'voice-changer', className: 'VoiceChanger' },
  { path: 'video-effect/basic-beauty', name: 'basic-beauty', className: 'BasicBeauty' },
  { path: 'video-effect/beauty', name: 'beauty', className: 'Beauty' },
  { path: 'video-effect/face-detection', name: 'face-detection', className: 'FaceDetection' },
  { path: 'video-effect/video-mixer', name: 'video-mixer', className: 'VideoMixer' },
  { path: 'video-effect/virtual-background', name: 'virtual-background', className: 'VirtualBackground' },
  { path: 'video-effect/watermark', name: 'watermark', className: 'Watermark' },
];

/** The app: imports every path (named and default), registers every class, probes each, then joins a room. */
const MAIN_TS = `
import TRTC from 'trtc-sdk-v5';
${PATHS.map((p) => `import ${p.className}Default, { ${p.className} } from 'trtc-sdk-v5/plugins/${p.path}';`).join('\n')}
// Option objects typed with the paths' own typings (checked by tsc, as an app migrating from the original has them).
import type { StartCrossRoomOption } from 'trtc-sdk-v5/plugins/cross-room';
import type { StartChorusOption } from 'trtc-sdk-v5/plugins/chorus';
import type { SmallStreamAutoSwitcherOptions } from 'trtc-sdk-v5/plugins/small-stream-auto-switcher';
import type { VoiceChangerStartOptions } from 'trtc-sdk-v5/plugins/voice-changer';
import type { EncryptionOptions } from 'trtc-sdk-v5/plugins/custom-encryption';
import type { DeviceDetectorOptions } from 'trtc-sdk-v5/plugins/device-detector';
import type { StartLEBPlayerOption } from 'trtc-sdk-v5/plugins/lebplayer';
import type { StartRealtimeTranscriberOption } from 'trtc-sdk-v5/plugins/realtime-transcriber';
import type { BeautyOptions } from 'trtc-sdk-v5/plugins/video-effect/beauty';
import type { FaceDetectionOptions } from 'trtc-sdk-v5/plugins/video-effect/face-detection';
import type { AudioPlayerOptions } from 'trtc-sdk-v5/plugins/audio-player';

const params = new URLSearchParams(location.search);
const sdkAppId = Number(params.get('sdkAppId'));
const userId = params.get('userId') ?? '';
const userSig = params.get('userSig') ?? '';
const room: StartCrossRoomOption = { roomId: 2, userId: 'other' };
const probes: Record<string, unknown> = {
  CrossRoom: room,
  Chorus: { useOriginalSong: true } satisfies StartChorusOption,
  LEBPlayer: { view: 'leb', url: 'webrtc://example/live/x', loggerConfig: { sdkAppId, userId } } satisfies StartLEBPlayerOption,
  RealtimeTranscriber: { sourceLanguage: 'en' } satisfies StartRealtimeTranscriberOption,
  SmallStreamAutoSwitcher: {} satisfies SmallStreamAutoSwitcherOptions,
  VoiceChanger: { sdkAppId, userId, userSig, voiceType: 0 } satisfies VoiceChangerStartOptions,
  CustomEncryption: { mode: 'webrtc', audio: true, video: true, builtinOptions: { algorithm: 'AES-GCM', secretKey: new Uint8Array(16) } } satisfies EncryptionOptions,
  DeviceDetector: { allowSkip: true, language: 'en' } satisfies DeviceDetectorOptions,
  Beauty: { sdkAppId, userId, userSig, whiten: 0.5 } satisfies BeautyOptions,
  FaceDetection: { onFaceDetectionStateChanged: () => undefined } satisfies FaceDetectionOptions,
  AudioPlayer: { id: 'probe', sourceType: 'pcm' } satisfies AudioPlayerOptions,
};
const pairs: [string, unknown, unknown][] = [
${PATHS.map((p) => `  ['${p.className}', ${p.className}, ${p.className}Default],`).join('\n')}
];

async function run() {
  const sameDefault = pairs.filter(([, named, def]) => named !== def || typeof named !== 'function').map(([n]) => n);
  const trtc = TRTC.create({ plugins: pairs.map(([, named]) => named as never) });
  const results: Record<string, { ok: boolean; code?: number; message?: string; isError?: boolean }> = {};
  for (const [name] of pairs) {
    try {
      // A plugin that waits for its user (DeviceDetector's dialog) counts as started after 3 s; stop closes it.
      const started = trtc.startPlugin(name as never, probes[name] as never);
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, 3000))]);
      results[name] = { ok: true };
      await trtc.stopPlugin(name as never, undefined as never).catch(() => undefined);
      await started;
    } catch (error) {
      const e = error as { code?: number; message?: string };
      results[name] = { ok: false, code: e.code, message: e.message, isError: error instanceof Error };
    }
  }
  try {
    await trtc.startPlugin('AudioProcessor' as never, { sdkAppId, userId, userSig } as never);
    results.AudioProcessor = { ok: true };
  } catch (error) {
    const e = error as { code?: number; message?: string };
    results.AudioProcessor = { ok: false, code: e.code, message: e.message, isError: error instanceof Error };
  }
  // The rest of the page keeps working: the microphone publishes and the client joins the room.
  let joined = 'no';
  try {
    await trtc.startLocalAudio();
    await trtc.enterRoom({ sdkAppId, userId, userSig, roomId: Number(params.get('roomId')) });
    joined = 'joined';
  } catch (error) {
    joined = 'failed: ' + String(error);
  }
  return { sameDefault, results, joined };
}

(window as unknown as { app: unknown }).app = run();
`;

let fx: AppFixture | undefined;
let work: string;
let site: MediaServer | undefined;
let page: Page | undefined;

beforeAll(async () => {
  fx = await startAppFixture();
  work = mkdtempSync(join(tmpdir(), 'conclave-plugin-paths-'));
}, 60_000);

afterAll(async () => {
  await page?.close();
  await site?.close();
  await stopAppFixture(fx ?? {});
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a command without blocking the test worker; a failure carries its output. */
async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

interface AppResult {
  sameDefault: string[];
  results: Record<string, { ok: boolean; code?: number; message?: string; isError?: boolean }>;
  joined: string;
}

let appResult: AppResult | undefined;

describe('Must show 1: a fresh Vite app with the packed SDK installed as trtc-sdk-v5 imports every plugin path of 5.17.1 and bundles; each exported class registers with TRTC.create({ plugins })', () => {
  it('packs, installs, type-checks and bundles an app importing all 17 paths (named and default exports)', async () => {
    const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], SDK_DIR)) as { filename: string }[];
    const app = join(work, 'app');
    mkdirSync(join(app, 'src'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({
      name: 'fresh-plugin-app', private: true, type: 'module',
      devDependencies: { typescript: version('typescript'), vite: version('vite') },
    }, null, 2));
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: false, types: [] },
      include: ['src'],
    }, null, 2));
    writeFileSync(join(app, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><meta name="conclave-server" content="${fx!.server.url}"><title>plugins</title></head><body><div id="leb"></div><script type="module" src="/src/main.ts"></script></body></html>`);
    writeFileSync(join(app, 'src/main.ts'), MAIN_TS);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', `trtc-sdk-v5@file:${join(work, packed[0].filename)}`, ...Object.entries({ typescript: version('typescript'), vite: version('vite') }).map(([n, v]) => `${n}@${v}`)], app);
    const pkg = join(app, 'node_modules/trtc-sdk-v5');
    expect((JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { name: string }).name).toBe('@conclave/sdk');
    // Each path ships .esm.js, .umd.js and .esm.d.ts, and its typings import nothing outside the package.
    for (const p of PATHS) {
      for (const ext of ['esm.js', 'umd.js', 'esm.d.ts']) expect(existsSync(join(pkg, 'dist/plugins', p.path, `${p.name}.${ext}`)), `${p.path} .${ext}`).toBe(true);
      expect(readFileSync(join(pkg, 'dist/plugins', p.path, `${p.name}.esm.d.ts`), 'utf8')).not.toMatch(/^\s*(import|export)\b[^\n]*from ['"](@conclave|zod)/m);
    }
    await run(join(app, 'node_modules/.bin/tsc'), ['-p', '.'], app);
    await run(join(app, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], app);
    site = await MediaServer.start(join(app, 'dist'), { '/': { type: 'text/html', body: readFileSync(join(app, 'dist/index.html'), 'utf8') } });
    page = await fx!.browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const query = new URLSearchParams({ sdkAppId: String(TEST_APP.sdkAppId), userId: 'paths', userSig: await fx!.server.sig('paths'), roomId: '41025' });
    await page.goto(`${site.url}/?${query}`);
    await expect.poll(() => page!.evaluate(() => typeof (window as unknown as { app?: unknown }).app), { timeout: 20_000 }).toBe('object');
    appResult = await page.evaluate(() => (window as unknown as { app: Promise<AppResult> }).app);
    expect(errors).toEqual([]);
    // Named and default exports are one class per path.
    expect(appResult.sameDefault).toEqual([]);
    // Registered: no class is refused as unknown ("register it first"); each answered for itself.
    for (const p of PATHS) {
      const result = appResult.results[p.className];
      expect(result, p.className).toBeDefined();
      expect(result.message ?? '', p.className).not.toMatch(/register it first/);
      if (!result.ok) expect(result.isError, `${p.className} rejects with an Error`).toBe(true);
    }
  }, 480_000);

  it('serves every path\'s files under /sdk/plugins/, whose UMD builds set the original\'s globals', async () => {
    const umd = await fx!.browser.context.newPage();
    try {
      await umd.goto(`${fx!.server.url}/sdk/plugins/chorus/package.json`);
      for (const p of PATHS) {
        for (const ext of ['esm.js', 'esm.d.ts']) {
          const status = await umd.evaluate(async (url) => (await fetch(url)).status, `${fx!.server.url}/sdk/plugins/${p.path}/${p.name}.${ext}`);
          expect(status, `${p.path} .${ext}`).toBe(200);
        }
        await umd.addScriptTag({ url: `${fx!.server.url}/sdk/plugins/${p.path}/${p.name}.umd.js` });
        const name = await umd.evaluate((g) => (window as unknown as Record<string, { Name?: string } | undefined>)[g]?.Name, p.className);
        expect(name, `window.${p.className}`).toBe(p.className);
      }
    } finally {
      await umd.close();
    }
  }, 60_000);
});

describe('Must show 7: the vendor-cloud plugins reject with the documented error; nothing else in the page breaks', () => {
  it('Chorus and AudioProcessor reject with ENV_NOT_SUPPORTED naming the vendor\'s cloud; the server-side ones say they are not yet available; the page still joins', () => {
    expect(appResult, 'the app of Must show 1 ran').toBeDefined();
    const { results, joined } = appResult!;
    for (const name of ['Chorus', 'AudioProcessor']) {
      expect(results[name], name).toMatchObject({ ok: false, code: 5200, isError: true });
      expect(results[name].message, name).toMatch(/vendor's paid cloud service, which a self-hosted Conclave server does not have/);
    }
    expect(results.Chorus.message).toMatch(/song catalogue/);
    expect(results.AudioProcessor.message).toMatch(/proprietary model/);
    // LEBPlayer plays WHEP URLs now (whep-playback.e2e.ts): this probe's URL has no server behind it.
    expect(results.LEBPlayer).toMatchObject({ ok: false, code: 5500, isError: true, message: expect.stringMatching(/WHEP server could not be reached/) });
    // RealtimeTranscriber and CrossRoom run on this server: before enterRoom they ask for the room first.
    expect(results.RealtimeTranscriber).toMatchObject({ ok: false, code: 5100, isError: true });
    expect(results.CrossRoom).toMatchObject({ ok: false, code: 5100, isError: true });
    expect(joined).toBe('joined');
  });
});
