import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium; override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless Chromium on a closed network, with fake camera and microphone. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium with a fresh profile directory (optionally another executable, e.g. a netns wrapper). */
export async function launchBrowser(extraArgs: string[] = [], executablePath: string = CHROMIUM_PATH): Promise<LaunchedBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'conclave-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required', ...extraArgs],
    ignoreDefaultArgs: ['--mute-audio'],
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
