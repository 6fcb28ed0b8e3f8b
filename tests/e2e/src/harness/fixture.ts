import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './browser.js';
import { AppHost } from './client-page.js';
import { startTestServer, type TestServer } from './server.js';

/** What most e2e files start once: a server, the app host that loads the SDK from it, and a browser. */
export interface AppFixture {
  server: TestServer;
  app: AppHost;
  browser: LaunchedBrowser;
}

/** Starts the server (with overrides), the app host and a Chromium (with extra flags). */
export async function startAppFixture(serverOptions: Parameters<typeof startTestServer>[0] = {}, browserArgs: string[] = []): Promise<AppFixture> {
  const server = await startTestServer(serverOptions);
  const app = await AppHost.start(server.url);
  const browser = await launchBrowser(browserArgs);
  return { server, app, browser };
}

/** Stops what was started, browser first; parts that never started are skipped. */
export async function stopAppFixture(parts: Partial<AppFixture>): Promise<void> {
  await parts.browser?.close();
  await parts.app?.close();
  await parts.server?.close();
}

/**
 * The fixture of a describe block: started before its tests, stopped after them. Read its parts inside
 * tests (they are set once beforeAll has run).
 */
export function useAppFixture(serverOptions: Parameters<typeof startTestServer>[0] = {}, browserArgs: string[] = []): AppFixture {
  const fixture = {} as AppFixture;
  beforeAll(async () => {
    Object.assign(fixture, await startAppFixture(serverOptions, browserArgs));
  });
  afterAll(() => stopAppFixture(fixture));
  return fixture;
}
