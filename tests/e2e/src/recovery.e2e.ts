import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media, type RecordedEvent } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { freePort } from '../../kit/ports.js';
import { ServerCli } from './harness/server-process.js';
import { startTestServer, type TestServer } from './harness/server.js';
import { TurnServer } from '../../kit/turn-server.js';

const userIds = (events: RecordedEvent[]) => events.map((e) => e.data.userId);
const states = async (page: Page) => (await eventsOf(page, 'connection-state-changed')).map((e) => e.data.state);

async function framesFlow(page: Page, timeout = 30_000): Promise<void> {
  const before = (await media(page)).framesDecoded;
  await expect.poll(async () => (await media(page)).framesDecoded, { timeout, interval: 250 }).toBeGreaterThan(before);
}

describe('the server process killed and restarted', () => {
  let server: ServerCli;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    server = new ServerCli(await freePort());
    await server.start();
    app = await AppHost.start(server.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.kill();
  });

  it('both pages return to CONNECTED and see each other\'s video again, with no app code', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 7101 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 7101 })).toEqual({ ok: true });
    await expect.poll(async () => userIds(await eventsOf(alice, 'remote-video-available')), { timeout: 15_000 }).toContain('bob');
    await expect.poll(async () => userIds(await eventsOf(bob, 'remote-video-available')), { timeout: 15_000 }).toContain('alice');
    await watch(alice, 'bob');
    await watch(bob, 'alice');
    await framesFlow(alice);
    await framesFlow(bob);

    await server.kill();
    // The original's announcement of a lost channel (docs/behaviour.md §4.2): DISCONNECTED, then attempts.
    await expect.poll(async () => (await states(alice)).slice(2), { timeout: 30_000 }).toContain('DISCONNECTED');
    await server.start();
    for (const page of [alice, bob]) {
      await expect.poll(async () => (await states(page)).at(-1), { timeout: 60_000, interval: 500 }).toBe('CONNECTED');
    }
    // Nothing more was called on either page: the SDK rejoined, republished, resubscribed and re-rendered.
    await framesFlow(alice, 45_000);
    await framesFlow(bob, 45_000);
    // Each failed attempt is CONNECTING then DISCONNECTED again; the last one ends CONNECTED.
    expect((await states(alice)).join(' ')).toMatch(/^CONNECTING CONNECTED DISCONNECTED( CONNECTING DISCONNECTED)* CONNECTING CONNECTED$/);
    expect(userIds(await eventsOf(alice, 'remote-user-exit'))).toEqual([]);
    await alice.close();
    await bob.close();
  });
});

describe('TURN: forced relay through coturn', () => {
  let turn: TurnServer;
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    turn = await TurnServer.start();
    server = await startTestServer();
    app = await AppHost.start(server.url);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
    await turn?.stop();
  });

  it("with proxy.turnServer and iceTransportPolicy 'relay', media flows through the TURN server", async () => {
    const proxy = { turnServer: { url: turn.url, username: turn.username, credential: turn.credential, credentialType: 'password' }, iceTransportPolicy: 'relay' };
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 7201 }, { enter: { proxy } })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 7201 }, { enter: { proxy } })).toEqual({ ok: true });
    await expect.poll(async () => userIds(await eventsOf(alice, 'remote-video-available')), { timeout: 15_000 }).toContain('bob');
    await watch(alice, 'bob');
    await expect.poll(async () => (await media(alice)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await media(alice)).audioEnergy, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    // Every connected pair of both pages goes through a relay candidate.
    for (const page of [alice, bob]) {
      const types = await page.evaluate(async () => {
        const found: string[] = [];
        for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
          if (pc.connectionState !== 'connected') continue;
          const byId = new Map<string, { type: string; candidateType?: string; localCandidateId?: string; nominated?: boolean; state?: string }>();
          (await pc.getStats()).forEach((s) => byId.set(s.id, s));
          for (const s of byId.values()) {
            if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') found.push(byId.get(s.localCandidateId ?? '')?.candidateType ?? 'unknown');
          }
        }
        return found;
      });
      expect(types.length).toBeGreaterThan(0);
      expect(new Set(types)).toEqual(new Set(['relay']));
    }
    await alice.close();
    await bob.close();
  });
});
