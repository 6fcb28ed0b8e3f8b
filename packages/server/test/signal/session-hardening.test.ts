import { PROTOCOL_VERSION, ROLE_CODE, SCENE_CODE, SERVER_CODE } from '@conclave/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, type AppConfig } from '../../src/config/config.js';
import { closeContext, createContext, type ServerContext } from '../../src/context.js';
import { createLogger } from '../../src/log/logger.js';
import { joinData, metricsText, startTestServer, WsClient } from '../support/clients.js';
import { waitFor } from '../support/engine-peers.js';
import { RecordingEngine } from '../support/recording-engine.js';
import { sessionClient } from '../support/session-client.js';

const APP: AppConfig = { sdkAppId: 1400380005, secretKey: 'session-hardening-secret-0123456' };

/** A RecordingEngine whose publishes and subscribes wait until released, counting how many run at once. */
class GatedEngine extends RecordingEngine {
  running = 0;
  mostAtOnce = 0;
  readonly #held: (() => void)[] = [];

  async #hold(): Promise<void> {
    this.running++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await new Promise<void>((resolve) => this.#held.push(resolve));
    this.running--;
  }

  protected override negotiating(): Promise<void> {
    return this.#hold();
  }

  get held(): number {
    return this.#held.length;
  }

  releaseAll(): void {
    for (const release of this.#held.splice(0)) release();
  }
}

describe('38.low signalling sessions', () => {
  let ctx: ServerContext | undefined;
  afterEach(() => {
    if (ctx) closeContext(ctx);
    ctx = undefined;
  });
  const setup = (engine = new RecordingEngine(), limits = {}) => {
    const config = configFromEnv({}, { apps: [APP], logLevel: 'silent', storage: { path: ':memory:' }, limits });
    ctx = createContext(config, { engine, logger: createLogger('silent') });
    return ctx;
  };

  it('38.low a live audience that resumes with trtcScene 1 keeps its live scene: it still cannot publish', async () => {
    const node = setup();
    const audience = sessionClient(node);
    const first = await audience.send('join', await joinData(APP, 'watcher', '10', { trtcScene: SCENE_CODE.live, trtcRole: ROLE_CODE.audience }));
    expect(first.code).toBe(0);
    const { sessionToken } = first.data as { sessionToken: string };
    audience.session.closed('timeout', false);
    const resumed = sessionClient(node);
    const again = await resumed.send('join', await joinData(APP, 'watcher', '10', { trtcScene: SCENE_CODE.rtc, trtcRole: ROLE_CODE.anchor, resumeToken: sessionToken }));
    expect(again).toMatchObject({ code: 0, data: { resumed: true } });
    expect((await resumed.send('publish', { sdp: 'v=0' })).code).toBe(SERVER_CODE.PERMISSION_DENIED);
    expect((await resumed.send('mute-flag', { flag: 1 })).code).toBe(SERVER_CODE.PERMISSION_DENIED);
  });

  it('38.low a connection\'s negotiations are bounded: publishes sent at once reach the engine one at a time, pipelined subscribes at most commandsInFlight at once, heartbeats are answered meanwhile', async () => {
    const engine = new GatedEngine();
    const node = setup(engine, { commandsInFlight: 3 });
    const source = sessionClient(node);
    expect((await source.send('join', await joinData(APP, 'source', '20'))).code).toBe(0);
    const client = sessionClient(node);
    expect((await client.send('join', await joinData(APP, 'client', '20'))).code).toBe(0);
    const publishes = Array.from({ length: 5 }, () => client.send('publish', { sdp: 'v=0' }));
    await waitFor(() => engine.held === 1, 2_000, 'the first publish negotiating');
    expect((await client.send('heartbeat', {})).code).toBe(0);
    for (let i = 0; i < 4; i++) {
      engine.releaseAll();
      await waitFor(() => engine.held === 1, 2_000, 'the next publish negotiating');
    }
    engine.releaseAll();
    expect((await Promise.all(publishes)).map((r) => r.code)).toEqual([0, 0, 0, 0, 0]);
    expect(engine.mostAtOnce).toBe(1);
    // Eight subscribes pipelined, as the SDK does when it enters a room: all answered, three at a time.
    const subscribes = Array.from({ length: 8 }, () => client.send('subscribe', { srcUserId: 'source', audio: true, bigVideo: true, auxVideo: false, smallVideo: false }));
    const allAnswered = Promise.all(subscribes).then(() => true);
    for (let round = 0; round < 100 && (await Promise.race([allAnswered, new Promise((resolve) => setTimeout(resolve, 20, false))])) !== true; round++) engine.releaseAll();
    expect((await Promise.all(subscribes)).map((r) => r.code)).toEqual(Array(8).fill(0));
    expect(engine.mostAtOnce).toBe(3);
  });

  it('38.low an unpublish cancels the publishes still waiting behind the one negotiating', async () => {
    const engine = new GatedEngine();
    const node = setup(engine);
    const client = sessionClient(node);
    expect((await client.send('join', await joinData(APP, 'racer', '30'))).code).toBe(0);
    const first = client.send('publish', { sdp: 'v=0' });
    const second = client.send('publish', { sdp: 'v=0' });
    await waitFor(() => engine.held === 1, 2_000, 'the first publish negotiating');
    expect((await client.send('unpublish', {})).code).toBe(0);
    engine.releaseAll();
    expect((await first).code).toBe(SERVER_CODE.MEDIA_ERROR);
    expect(await second).toMatchObject({ code: SERVER_CODE.MEDIA_ERROR, message: 'publish cancelled: an unpublish came while it waited' });
    expect(engine.published).toEqual([expect.any(String)]);
  });
});

describe('38.low outgoing WebSocket buffers are bounded', () => {
  it('38.low a client that never reads is closed once its send buffer passes limits.signalSendBufferBytes, and counted', async () => {
    const server = await startTestServer({ apps: [APP], limits: { requestsPerSecond: 1_000_000, signalSendBufferBytes: 16 * 1024 } });
    try {
      const reader = await WsClient.connect(server);
      expect((await reader.request('join', await joinData(APP, 'reader', '40', { protocolVersion: PROTOCOL_VERSION }))).code).toBe(0);
      const idle = await WsClient.connect(server);
      (idle.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      // Requests whose refusals are long (a strict schema names each unknown key): ~16 KB answered per request.
      const keys = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`.padEnd(100, 'x'), 1]));
      const request = JSON.stringify({ id: 1, cmd: 'cdn-stop', data: keys });
      const started = Date.now();
      while (idle.closeCode === undefined && Date.now() - started < 5_000) {
        for (let i = 0; i < 20; i++) idle.sendRaw(request);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(idle.closeCode).toBeDefined();
      expect(await metricsText(server)).toMatch(/^conclave_connections_closed_total\{reason="send buffer full"\} 1$/m);
      // The reading client was not affected.
      expect((await reader.request('heartbeat', {})).code).toBe(0);
      reader.close();
    } finally {
      await server.close();
    }
  }, 15_000);
});
