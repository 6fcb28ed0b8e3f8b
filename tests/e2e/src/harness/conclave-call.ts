/**
 * The Conclave CallDriver of harness/bad-network.ts: the e2e app page (client-page.ts) loading the SDK from the
 * server, one AppHost per host address a side reaches (loopback, or a namespace's host end), the SDK's public API
 * only. The server is the caller's (started on 0.0.0.0 with its ICE address on the viewer's host end, which every
 * namespace reaches through its default route).
 */
import type { Page } from 'playwright-core';
import type { CallDriver, PublishOptions, Side } from './bad-network.js';
import { installSpeech } from './speech.js';
import { AppHost, eventsOf } from './client-page.js';
import { pinPressure } from './pressure.js';
import { TEST_APP, type TestServer } from './server.js';

type E2eWindow = { e2e: { create(): void; client: Record<string, (o: unknown) => Promise<void>> }; __speech?: { track: MediaStreamTrack } };

export class ConclaveDriver implements CallDriver {
  readonly engine: string;
  readonly #server: TestServer;
  readonly #apps = new Map<string, AppHost>();

  constructor(server: TestServer, engine: string) {
    this.#server = server;
    this.engine = engine;
  }

  #serverUrl(hostIp: string): string {
    return `http://${hostIp}:${this.#server.port}`;
  }

  async #app(hostIp: string): Promise<AppHost> {
    let app = this.#apps.get(hostIp);
    if (!app) {
      app = await AppHost.start(this.#serverUrl(hostIp), hostIp);
      this.#apps.set(hostIp, app);
    }
    return app;
  }

  async browserArgs(hostIp: string): Promise<string[]> {
    // Media capture needs a secure origin: the app's and the server's origins on a namespace's host end are treated as one.
    const app = await this.#app(hostIp);
    return hostIp === '127.0.0.1' ? [] : [`--unsafely-treat-insecure-origin-as-secure=${app.url.replace(/\/$/, '')},${this.#serverUrl(hostIp)}`];
  }

  async #open(side: Side): Promise<Page> {
    const app = await this.#app(side.hostIp);
    const page = await app.open(side.browser.context);
    // CPU pressure on a shared machine would make the SDK itself ask for small streams (docs/behaviour.md §4).
    await pinPressure(side.browser.context, page);
    return page;
  }

  async publish(side: Side, userId: string, options: PublishOptions): Promise<Page> {
    const page = await this.#open(side);
    if (options.speech) await installSpeech(page, options.speech);
    const result = await page.evaluate(async ({ sdkAppId, userSig, userId: id, roomId, profile, small }) => {
      const w = window as unknown as E2eWindow;
      w.e2e.create();
      const view = document.createElement('div');
      view.style.cssText = 'width:160px;height:120px';
      document.body.appendChild(view);
      try {
        await w.e2e.client.startLocalVideo!({ view, option: { profile, small } });
        if (w.__speech) await w.e2e.client.startLocalAudio!({ option: { audioTrack: w.__speech.track } });
        await w.e2e.client.enterRoom!({ sdkAppId, userId: id, userSig, roomId });
        return 'ok';
      } catch (error) {
        return String(error);
      }
    }, { sdkAppId: TEST_APP.sdkAppId, userSig: await this.#server.sig(userId), userId, roomId: options.roomId, profile: options.profile, small: options.small });
    if (result !== 'ok') throw new Error(`${userId} could not publish: ${result}`);
    return page;
  }

  async view(side: Side, userId: string, options: { roomId: number; publishers: string[] }): Promise<Page> {
    const page = await this.#open(side);
    const result = await page.evaluate(async ({ sdkAppId, userSig, userId: id, roomId }) => {
      const w = window as unknown as E2eWindow;
      w.e2e.create();
      try {
        await w.e2e.client.enterRoom!({ sdkAppId, userId: id, userSig, roomId });
        return 'ok';
      } catch (error) {
        return String(error);
      }
    }, { sdkAppId: TEST_APP.sdkAppId, userSig: await this.#server.sig(userId), userId, roomId: options.roomId });
    if (result !== 'ok') throw new Error(`${userId} could not join: ${result}`);
    const deadline = Date.now() + 20_000;
    for (const publisher of options.publishers) {
      while (!(await eventsOf(page, 'remote-video-available')).some((e) => e.data.userId === publisher)) {
        if (Date.now() > deadline) throw new Error(`${publisher}'s video never became available to ${userId}`);
        await page.waitForTimeout(200);
      }
      await page.evaluate((p) => (window as unknown as { e2e: { watch(id: string): Promise<void> } }).e2e.watch(p), publisher);
    }
    return page;
  }

  async close(): Promise<void> {
    for (const app of this.#apps.values()) await app.close();
    this.#apps.clear();
  }
}
