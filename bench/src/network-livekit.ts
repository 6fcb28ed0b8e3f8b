/**
 * LiveKit beside Conclave on bad networks (bench/README.md "Bad networks"): LiveKit server v1.13.5 (the load
 * lab's build, bench/loadgen/livekit-server.sh) and its JS client `livekit-client` (the npm package's UMD build,
 * fetched once with `npm pack` into bench/loadgen/bin/, gitignored) in the same Chromium, with the same camera,
 * the same speech track and the same impairments as Conclave's pages. LiveKit's defaults throughout (simulcast,
 * RED and DTX for audio, its server's congestion control and stream allocator), but the camera's encoding set
 * to Conclave's (640×480 15 fps, 900 kbit/s; a 160×120 low layer as the small stream).
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { CallDriver, PublishOptions, Side } from '../../tests/e2e/src/harness/bad-network.js';
import { QUALITY_INIT_SCRIPT } from '../../tests/e2e/src/harness/call-quality.js';
import { LOADGEN_DIR } from '../../tests/e2e/src/harness/loadgen.js';
import { installSpeech } from '../../tests/e2e/src/harness/speech.js';
import { buildLivekit, LIVEKIT_KEY, spawnLivekit } from './load-servers.js';

export const LIVEKIT_CLIENT_VERSION = '2.23.0';

/** The livekit-client UMD build, fetched once (npm pack, the registry's ordinary client) into bench/loadgen/bin/. */
export function livekitClientScript(): string {
  const path = `${LOADGEN_DIR}bin/livekit-client-${LIVEKIT_CLIENT_VERSION}.umd.js`;
  if (!existsSync(path)) {
    const dir = mkdtempSync(join(tmpdir(), 'conclave-lkc-'));
    try {
      execFileSync('npm', ['pack', `livekit-client@${LIVEKIT_CLIENT_VERSION}`, '--silent', '--pack-destination', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      execFileSync('tar', ['xzf', join(dir, `livekit-client-${LIVEKIT_CLIENT_VERSION}.tgz`), '-C', dir, 'package/dist/livekit-client.umd.js']);
      execFileSync('mkdir', ['-p', `${LOADGEN_DIR}bin`]);
      renameSync(join(dir, 'package/dist/livekit-client.umd.js'), path);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return readFileSync(path, 'utf8');
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** A LiveKit access token (HS256 JWT) for `identity` in `room`. */
export function livekitToken(identity: string, room: string, ttlSeconds = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const claims = b64url(JSON.stringify({
    iss: LIVEKIT_KEY.apiKey, sub: identity, name: identity, nbf: now - 10, exp: now + ttlSeconds,
    video: { room, roomJoin: true, canPublish: true, canSubscribe: true },
  }));
  const signature = createHmac('sha256', LIVEKIT_KEY.apiSecret).update(`${header}.${claims}`).digest('base64url');
  return `${header}.${claims}.${signature}`;
}

/** LiveKit server on every address, announcing `nodeIp` as its ICE candidate (one UDP port, muxed). */
export async function startLivekitServer(nodeIp: string): Promise<{ port: number; close(): Promise<void> }> {
  const { port, close } = await spawnLivekit((await buildLivekit()).path, { bind: '0.0.0.0', nodeIp, logLevel: 'error', startTimeoutMs: 30_000 });
  return { port, close };
}

const PROFILES = { '240p': [320, 240, 400_000], '480p': [640, 480, 900_000], '720p': [1280, 720, 1_500_000] } as const;

type LkWindow = {
  LivekitClient: {
    Room: new (options: unknown) => LkRoom;
    VideoPreset: new (width: number, height: number, maxBitrate: number, maxFramerate: number) => unknown;
    RoomEvent: Record<string, string>;
    Track: { Source: Record<string, string> };
  };
  __speech?: { track: MediaStreamTrack };
  __lk?: { room: LkRoom; videos: Set<string> };
};
type LkTrack = { kind: string; attach(): HTMLMediaElement };
type LkRoom = {
  connect(url: string, token: string, options?: unknown): Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): LkRoom;
  localParticipant: { setCameraEnabled(on: boolean, options?: unknown, publish?: unknown): Promise<unknown>; publishTrack(track: MediaStreamTrack, options?: unknown): Promise<unknown> };
  disconnect(): Promise<void>;
};

/** The LiveKit CallDriver: one page host per host address, serving a page with the client's UMD build. */
export class LivekitDriver implements CallDriver {
  readonly engine = 'livekit';
  readonly #port: number;
  readonly #script: string;
  readonly #hosts = new Map<string, { http: Server; url: string }>();

  constructor(serverPort: number) {
    this.#port = serverPort;
    this.#script = livekitClientScript();
  }

  async #host(hostIp: string): Promise<string> {
    let host = this.#hosts.get(hostIp);
    if (!host) {
      const html = '<!doctype html><html><head><meta charset="utf-8"><title>livekit</title><script src="/livekit-client.umd.js"></script></head><body></body></html>';
      const http = createServer((req, res) => {
        const js = req.url === '/livekit-client.umd.js';
        res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
        res.end(js ? this.#script : html);
      });
      await new Promise<void>((resolve) => http.listen(0, hostIp, resolve));
      host = { http, url: `http://${hostIp}:${(http.address() as AddressInfo).port}/` };
      this.#hosts.set(hostIp, host);
    }
    return host.url;
  }

  async browserArgs(hostIp: string): Promise<string[]> {
    const url = await this.#host(hostIp);
    return hostIp === '127.0.0.1' ? [] : [`--unsafely-treat-insecure-origin-as-secure=${url.replace(/\/$/, '')},http://${hostIp}:${this.#port}`];
  }

  async #open(side: Side): Promise<Page> {
    const page = await side.browser.context.newPage();
    page.on('pageerror', (error) => console.error('[livekit page error]', error.message));
    await page.addInitScript(QUALITY_INIT_SCRIPT);
    await page.goto(await this.#host(side.hostIp));
    return page;
  }

  async publish(side: Side, userId: string, options: PublishOptions): Promise<Page> {
    const page = await this.#open(side);
    if (options.speech) await installSpeech(page, options.speech);
    const [width, height, maxBitrate] = PROFILES[options.profile];
    const result = await page.evaluate(async ({ url, token, width: w, height: h, maxBitrate: bitrate, small }) => {
      const lk = (window as unknown as LkWindow).LivekitClient;
      const room = new lk.Room({
        publishDefaults: {
          simulcast: small,
          videoEncoding: { maxBitrate: bitrate, maxFramerate: 15 },
          videoSimulcastLayers: [new lk.VideoPreset(160, 120, 100_000, 15)],
        },
      });
      try {
        await room.connect(url, token);
        await room.localParticipant.setCameraEnabled(true, { resolution: { width: w, height: h, frameRate: 15 } });
        const speech = (window as unknown as LkWindow).__speech;
        if (speech) await room.localParticipant.publishTrack(speech.track, { source: lk.Track.Source.Microphone, name: 'speech' });
        (window as unknown as LkWindow).__lk = { room, videos: new Set() };
        return 'ok';
      } catch (error) {
        return String(error);
      }
    }, { url: `ws://${side.hostIp}:${this.#port}`, token: livekitToken(userId, String(options.roomId)), width, height, maxBitrate, small: options.small });
    if (result !== 'ok') throw new Error(`${userId} could not publish on LiveKit: ${result}`);
    return page;
  }

  async view(side: Side, userId: string, options: { roomId: number; publishers: string[] }): Promise<Page> {
    const page = await this.#open(side);
    const result = await page.evaluate(async ({ url, token }) => {
      const lk = (window as unknown as LkWindow).LivekitClient;
      // LiveKit's defaults for what a subscriber receives: no adaptive stream (no element-size hints), its server's allocator.
      const room = new lk.Room({});
      const videos = new Set<string>();
      (window as unknown as LkWindow).__lk = { room, videos };
      room.on(lk.RoomEvent.TrackSubscribed!, (...args: unknown[]) => {
        const [track, , participant] = args as [LkTrack, unknown, { identity: string }];
        const el = track.attach();
        if (track.kind === 'video') {
          el.style.cssText = 'width:320px;height:240px';
          videos.add(participant.identity);
        }
        document.body.appendChild(el);
      });
      try {
        await room.connect(url, token, { autoSubscribe: true });
        return 'ok';
      } catch (error) {
        return String(error);
      }
    }, { url: `ws://${side.hostIp}:${this.#port}`, token: livekitToken(userId, String(options.roomId)) });
    if (result !== 'ok') throw new Error(`${userId} could not join LiveKit: ${result}`);
    await page.waitForFunction((ids) => ids.every((id) => (window as unknown as LkWindow).__lk!.videos.has(id)), options.publishers, { timeout: 20_000 });
    return page;
  }

  async close(): Promise<void> {
    for (const { http } of this.#hosts.values()) {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
    this.#hosts.clear();
  }
}
