import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startAppFixture, stopAppFixture, type AppFixture } from './harness/fixture.js';
import { TEST_APP } from './harness/server.js';
import { enterWithAudio, generateMedia, listenTo, MediaServer, RAW_MIC, spectrum, type TestMedia } from './plugins-media.js';

const SDK_ESM = fileURLToPath(new URL('../../../packages/sdk/dist/trtc.esm.js', import.meta.url));

/** The bundled app's code: imports only the ESM build, registers nothing, mixes music and denoises. */
const APP_SOURCE = `
import TRTC from ${JSON.stringify(SDK_ESM)};
window.app = {
  async run({ sdkAppId, userId, userSig, roomId, music }) {
    const client = TRTC.create();
    window.e2e = { client };
    await client.startLocalAudio({ option: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
    await client.enterRoom({ sdkAppId, userId, userSig, roomId });
    await client.startPlugin('AudioMixer', { id: 'music', url: music, loop: true });
    await client.startPlugin('AIDenoiser', { sdkAppId, userId, userSig });
    return 'ok';
  },
};`;

/** In a page of the script-tag app (window.e2e from the harness), the same calls. */
async function runInScriptTagPage(page: Page, userId: string, userSig: string, roomId: number, music: string): Promise<string> {
  return page.evaluate(async ({ sdkAppId, userId: id, userSig: sig, roomId: room, music: url }) => {
    const w = window as unknown as { e2e: { create(): void; client: { startLocalAudio(o: unknown): Promise<void>; enterRoom(o: unknown): Promise<void>; startPlugin(n: string, o: unknown): Promise<unknown> } } };
    w.e2e.create();
    const client = w.e2e.client;
    try {
      await client.startLocalAudio({ option: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
      await client.enterRoom({ sdkAppId, userId: id, userSig: sig, roomId: room });
      await client.startPlugin('AudioMixer', { id: 'music', url, loop: true });
      await client.startPlugin('AIDenoiser', { sdkAppId, userId: id, userSig: sig });
      return 'ok';
    } catch (error) {
      return (error as Error).message;
    }
  }, { sdkAppId: TEST_APP.sdkAppId, userId, userSig, roomId, music });
}

/** Records every URL a page requests, through the DevTools network log (it also sees AudioWorklet module fetches). */
async function recordRequests(page: Page): Promise<string[]> {
  const urls: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  cdp.on('Network.requestWillBeSent', (event: { request: { url: string } }) => urls.push(event.request.url));
  await cdp.send('Network.enable');
  return urls;
}

let fx: AppFixture | undefined;
let media: TestMedia;
let bundled: MediaServer | undefined;

beforeAll(async () => {
  media = generateMedia();
  fx = await startAppFixture({}, [`--use-file-for-fake-audio-capture=${media.path('speech-noise.wav')}`]);
  const result = await build({ stdin: { contents: APP_SOURCE, resolveDir: media.dir, loader: 'js' }, bundle: true, format: 'esm', write: false, logLevel: 'silent' });
  writeFileSync(media.path('app.js'), result.outputFiles[0].contents);
  // The bundled app lives on its own origin and names its Conclave server in a meta tag (no code change).
  bundled = await MediaServer.start(media.dir, {
    '/': { type: 'text/html', body: `<!doctype html><html><head><meta charset="utf-8"><meta name="conclave-server" content="${fx.server.url}"><script type="module" src="/app.js"></script></head><body></body></html>` },
  });
}, 90_000);

afterAll(async () => {
  await bundled?.close();
  await stopAppFixture(fx ?? {});
  media?.remove();
});

/** Every request went to the app's own origin or to the Conclave server, and the plugin files came from the server. */
function expectAssetsFromServer(urls: string[], appOrigin: string): void {
  const server = new URL(fx!.server.url).origin;
  const foreign = urls.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && ![server, appOrigin].includes(new URL(u).origin));
  expect(foreign).toEqual([]);
  for (const file of ['/sdk/plugins/audio-mixer/audio-mixer.esm.js', '/sdk/plugins/ai-denoiser/ai-denoiser.esm.js', '/sdk/assets/denoiser-wasm.js', '/api/v1/audioAiAuth']) {
    expect(urls.some((u) => u.startsWith(`${server}${file}`)), file).toBe(true);
  }
  expect(urls.filter((u) => /\/(plugins|assets)\//.test(u) && new URL(u).origin !== server)).toEqual([]);
}

describe('Must show 4: a plain script-tag page that loads only /sdk/trtc.js, and a bundled app that imports only the ESM build, both use AudioMixer and AIDenoiser with no registration', () => {
  it('the script-tag page: music heard by the other page, denoiser on; every asset came from our server', async () => {
    const page = await fx!.app.open(fx!.browser.context);
    const urls = await recordRequests(page);
    await page.reload();
    const listener = await fx!.app.open(fx!.browser.context);
    expect(await enterWithAudio(listener, fx!.server, 'listener', 41_004)).toEqual({ ok: true });
    expect(await runInScriptTagPage(page, 'tag-page', await fx!.server.sig('tag-page'), 41_004, media.dataUrl('tone440.mp3'))).toBe('ok');
    await listenTo(listener, 'tag-page');
    await expect.poll(async () => Math.abs((await spectrum(listener, 600)).peakHz - 440), { timeout: 20_000 }).toBeLessThanOrEqual(20);
    expectAssetsFromServer(urls, new URL(fx!.app.url).origin);
    await page.close();
    await listener.close();
  });

  it('the bundled app on its own origin: music heard by the other page, denoiser on; every asset came from our server', async () => {
    const page = await fx!.browser.context.newPage();
    page.on('pageerror', (e) => console.log('[bundled error]', e.message));
    const urls = await recordRequests(page);
    await page.goto(`${bundled!.url}/`);
    await page.waitForFunction(() => 'app' in window, undefined, { timeout: 15_000 });
    const listener = await fx!.app.open(fx!.browser.context);
    expect(await enterWithAudio(listener, fx!.server, 'listener2', 41_005, RAW_MIC)).toEqual({ ok: true });
    const userSig = await fx!.server.sig('bundled');
    const outcome = await page.evaluate((args) => (window as unknown as { app: { run(a: unknown): Promise<string> } }).app.run(args).catch((e: Error) => e.message),
      { sdkAppId: TEST_APP.sdkAppId, userId: 'bundled', userSig, roomId: 41_005, music: media.dataUrl('tone440.ogg') });
    expect(outcome).toBe('ok');
    await listenTo(listener, 'bundled');
    await expect.poll(async () => Math.abs((await spectrum(listener, 600)).peakHz - 440), { timeout: 20_000 }).toBeLessThanOrEqual(20);
    expectAssetsFromServer(urls, bundled!.url);
    await page.close();
    await listener.close();
  });
});
