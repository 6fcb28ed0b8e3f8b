import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Records the page's RTCPeerConnections in `window.__pcs` (the statistics helpers and call-quality.ts read them);
 * once per page, whoever installs it first.
 */
export const RECORD_PEER_CONNECTIONS = `
(() => {
  if (window.__pcs) return;
  const Original = window.RTCPeerConnection;
  window.__pcs = [];
  function Recorded(...args) { const pc = new Original(...args); window.__pcs.push(pc); return pc; }
  Recorded.prototype = Original.prototype;
  Object.setPrototypeOf(Recorded, Original);
  window.RTCPeerConnection = Recorded;
})();
`;

/** In-page helpers: drive the SDK through its public API and record what an app would see. */
const PAGE_SCRIPT = `
window.e2e = {
  events: [],
  client: null,
  record(client) {
    for (const name of Object.values(TRTC.EVENT)) {
      client.on(name, (data) => {
        const plain = data && typeof data === 'object' ? JSON.parse(JSON.stringify({ ...data, track: undefined, sourceTrack: undefined })) : data;
        if (data instanceof Error) { plain.code = data.code; plain.extraCode = data.extraCode; plain.message = data.message; }
        window.e2e.events.push({ type: name, data: plain, at: Date.now() });
      });
    }
  },
  async join(options) {
    if (!options.reuse) {
      const client = TRTC.create();
      window.e2e.client = client;
      window.e2e.record(client);
    }
    const client = window.e2e.client;
    try {
      if (options.publish !== false) {
        const local = document.createElement('div');
        local.id = 'local'; local.style.cssText = 'width:320px;height:240px';
        document.body.appendChild(local);
        await client.startLocalVideo({ view: local, option: { profile: options.profile || '480p' } });
        await client.startLocalAudio();
      }
      await client.enterRoom(options.enter);
      return { ok: true };
    } catch (error) {
      return { ok: false, name: error.name, code: error.code, extraCode: error.extraCode, message: error.message, isRtcError: error instanceof Error && error.name === 'RtcError' };
    }
  },
  async watch(userId, streamType = 'main') {
    const view = document.createElement('div');
    view.id = 'remote-' + userId + '-' + streamType; view.style.cssText = 'width:320px;height:240px';
    document.body.appendChild(view);
    await window.e2e.client.startRemoteVideo({ userId, streamType, view });
  },
  async media() {
    let framesDecoded = 0, audioEnergy = 0, audioBytes = 0, videoBytes = 0;
    for (const pc of window.__pcs) {
      if (pc.connectionState === 'closed') continue;
      const stats = await pc.getStats();
      stats.forEach((s) => {
        if (s.type !== 'inbound-rtp') return;
        if (s.kind === 'video') { framesDecoded += s.framesDecoded || 0; videoBytes += s.bytesReceived || 0; }
        if (s.kind === 'audio') { audioEnergy += s.totalAudioEnergy || 0; audioBytes += s.bytesReceived || 0; }
      });
    }
    const widths = [...document.querySelectorAll('[id^="remote-"] video')].map((v) => v.videoWidth);
    return { framesDecoded, audioEnergy, audioBytes, videoBytes, videoWidth: Math.max(0, ...widths) };
  },
  eventsOf(type) { return window.e2e.events.filter((e) => e.type === type); },
  /** Calls a client method; resolves to {ok, value} or the RtcError's fields. */
  async call(method, args) {
    const client = window.e2e.client;
    try {
      const value = await client[method](...args);
      return { ok: true, value: value === undefined ? null : value };
    } catch (error) {
      return { ok: false, name: error.name, code: error.code, extraCode: error.extraCode, message: error.message, functionName: error.functionName };
    }
  },
  /** Creates a client without joining (for API-contract checks). */
  create(options) {
    const client = TRTC.create(options);
    window.e2e.client = client;
    window.e2e.record(client);
  },
};
`;

/**
 * The app under test: a page on its own origin that loads the SDK from the Conclave server with
 * <script src="…/sdk/trtc.js">, as an app written for the original SDK would. The SDK must find its
 * server from that script's origin with no configuration.
 */
export class AppHost {
  readonly #http: Server;
  readonly url: string;

  private constructor(http: Server, url: string) {
    this.#http = http;
    this.url = url;
  }

  /** Serves the app on `host` (loopback by default), loading the SDK from `serverUrl`. */
  static async start(serverUrl: string, host = '127.0.0.1'): Promise<AppHost> {
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>e2e app</title></head><body>
<script src="${serverUrl}/sdk/trtc.js"></script><script>${PAGE_SCRIPT}</script></body></html>`;
    const http = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html);
    });
    await new Promise<void>((resolve) => http.listen(0, host, resolve));
    return new AppHost(http, `http://${host}:${(http.address() as AddressInfo).port}/`);
  }

  /** Opens a new page of the app. */
  async open(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('[page error]', error.message));
    await page.addInitScript(RECORD_PEER_CONNECTIONS);
    await page.goto(this.url);
    return page;
  }

  close(): Promise<void> {
    this.#http.closeAllConnections();
    return new Promise((resolve) => this.#http.close(() => resolve()));
  }
}

/** Media figures the page receives. */
export interface MediaFigures {
  framesDecoded: number;
  audioEnergy: number;
  audioBytes: number;
  videoBytes: number;
  videoWidth: number;
}

export interface RecordedEvent {
  type: string;
  data: Record<string, unknown>;
  at: number;
}

/** The outcome of a client call made in the page. */
export interface CallResult {
  ok: boolean;
  value?: unknown;
  name?: string;
  code?: number;
  extraCode?: number;
  message?: string;
  functionName?: string;
}

/** Calls `client[method](...args)` in the page through the public API. */
export const call = (page: Page, method: string, ...args: unknown[]): Promise<CallResult> =>
  page.evaluate(([m, a]) => (window as unknown as { e2e: { call(m: string, a: unknown[]): Promise<CallResult> } }).e2e.call(m as string, a as unknown[]), [method, args] as const);

export const media = (page: Page): Promise<MediaFigures> => page.evaluate(() => (window as unknown as { e2e: { media(): Promise<MediaFigures> } }).e2e.media());
export const eventsOf = (page: Page, type: string): Promise<RecordedEvent[]> =>
  page.evaluate((t) => (window as unknown as { e2e: { eventsOf(t: string): RecordedEvent[] } }).e2e.eventsOf(t), type);
