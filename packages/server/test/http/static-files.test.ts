import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { startTestServer } from '../support/clients.js';

/*
 * Issue 38, Low: the SDK builds (/sdk/) and the demo (/) are served from their folders and nothing else: no
 * dotfiles, no symlink leading out of the folder, no build by-products (only an allow-list of extensions).
 */

describe('38.low static serving', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conclave-static-'));
  const sdk = join(dir, 'sdk');
  const demo = join(dir, 'demo');
  const outside = join(dir, 'outside');
  let server: RunningServer;
  const get = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, init);
    return { status: response.status, type: response.headers.get('content-type') ?? '', cors: response.headers.get('access-control-allow-origin'), text: await response.text() };
  };

  beforeAll(async () => {
    for (const d of [sdk, join(sdk, 'plugins', 'x'), join(sdk, 'assets'), demo, join(demo, 'assets'), join(demo, '.git'), outside]) mkdirSync(d, { recursive: true });
    writeFileSync(join(outside, 'secret.js'), 'SECRET OUTSIDE');
    writeFileSync(join(outside, 'index.html'), 'OUTSIDE INDEX');
    writeFileSync(join(sdk, 'trtc.js'), 'window.TRTC = 1;');
    writeFileSync(join(sdk, 'trtc.js.map'), '{"version":3}');
    writeFileSync(join(sdk, 'trtc.d.ts'), 'export {};');
    writeFileSync(join(sdk, 'trtc-core.ts'), 'const SOURCE = 1;');
    writeFileSync(join(sdk, 'tsconfig.tsbuildinfo'), '{"root":"/home/dev/secret-path"}');
    writeFileSync(join(sdk, 'plugins', 'x', 'x.umd.js'), 'plugin');
    writeFileSync(join(sdk, 'assets', 'model.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
    writeFileSync(join(sdk, '.npmrc'), '//registry/:_authToken=SECRET');
    symlinkSync(join(outside, 'secret.js'), join(sdk, 'leak.js'));
    symlinkSync(outside, join(sdk, 'linked'));
    writeFileSync(join(demo, 'index.html'), '<!doctype html>DEMO');
    writeFileSync(join(demo, 'assets', 'app.css'), 'body{}');
    writeFileSync(join(demo, '.env'), 'SECRET=1');
    writeFileSync(join(demo, '.git', 'config'), '[core]');
    server = await startTestServer({ sdkDir: sdk, demoDir: demo });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('38.low serves the builds\' files with their types (cross-origin, for apps that embed the SDK), and the demo\'s pages', async () => {
    expect(await get('/sdk/trtc.js')).toMatchObject({ status: 200, type: expect.stringMatching(/javascript/) as string, cors: '*', text: 'window.TRTC = 1;' });
    expect(await get('/sdk/trtc.js.map')).toMatchObject({ status: 200, text: '{"version":3}' });
    expect(await get('/sdk/plugins/x/x.umd.js')).toMatchObject({ status: 200, text: 'plugin' });
    expect(await get('/sdk/assets/model.wasm')).toMatchObject({ status: 200, type: 'application/wasm' });
    // The typings, public in the npm package too (script-tag users of a plugin read them from here).
    expect(await get('/sdk/trtc.d.ts')).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/plain/) as string, text: 'export {};' });
    expect(await get('/')).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/html/) as string, text: '<!doctype html>DEMO' });
    expect(await get('/assets/app.css')).toMatchObject({ status: 200, type: expect.stringMatching(/^text\/css/) as string });
    // The demo is a single-page app: a path of its own is its index.
    expect(await get('/room/1234')).toMatchObject({ status: 200, text: '<!doctype html>DEMO' });
    expect((await get('/sdk/trtc.js', { method: 'HEAD' })).status).toBe(200);
  });

  it('38.low refuses dotfiles, symlinks out of the folder and files off the allow-list (tsconfig.tsbuildinfo, a .ts source), with a 404', async () => {
    for (const path of [
      '/sdk/.npmrc', '/.env', '/.git/config', '/sdk/%2enpmrc', '/sdk/tsconfig.tsbuildinfo', '/sdk/trtc-core.ts',
      '/sdk/leak.js', '/sdk/linked/secret.js', '/sdk/linked/index.html', '/sdk/../outside/secret.js', '/sdk/%2e%2e/outside/secret.js', '/%2e%2e/outside/secret.js',
    ]) {
      const answer = await get(path);
      expect([path, answer.status], answer.text).toEqual([path, 404]);
      expect(answer.text).not.toMatch(/SECRET|OUTSIDE|secret-path|\[core\]|SOURCE/);
    }
  });
});
