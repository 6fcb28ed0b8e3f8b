/**
 * Must show (issue 15, relay switching): a media path made slower than signalling (the UDP leaving a
 * browser's network namespace delayed, TCP untouched) triggers the relay switch through coturn, over TCP,
 * and media continues; a forced relay that fails (coturn stopped) switches back and media continues.
 * Issue 40 (5.18's poor-network switch): sustained random UDP loss above the schedule's loss threshold, signalling
 * fast, moves media to TURN over TCP; the decision is remembered for the client address (the next join starts
 * there) and forgotten when the relay fails.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { NetNamespace } from './harness/netns.js';
import { startTestServer, type TestServer } from './harness/server.js';
import { TurnServer } from '../../kit/turn-server.js';

const SECRET = 'conclave-e2e-relay-switch-secret';
/** Namespace index (resilience uses 1, recovery its own). */
const NS_INDEX = 7;
/** Where the SDK remembers a switch (as the original's key). */
const MEMORY_KEY = 'TRTC_WEB_FORCE_TURN_CLIENT_IP';
const memory = (page: Page) => page.evaluate((key) => localStorage.getItem(key), MEMORY_KEY);

/** The local candidate of the selected pair of every connected peer connection of a page. */
const selectedLocal = (page: Page) => page.evaluate(async () => {
  const found: { candidateType: string; relayProtocol?: string }[] = [];
  for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    if (pc.connectionState !== 'connected') continue;
    const byId = new Map<string, Record<string, unknown>>();
    (await pc.getStats()).forEach((s: Record<string, unknown>) => byId.set(String(s.id), s));
    const transport = [...byId.values()].find((s) => s.type === 'transport' && s.selectedCandidatePairId);
    const pair = transport ? byId.get(String(transport.selectedCandidatePairId)) : undefined;
    const local = pair ? byId.get(String(pair.localCandidateId)) : undefined;
    if (local) found.push({ candidateType: String(local.candidateType), ...(local.relayProtocol ? { relayProtocol: String(local.relayProtocol) } : {}) });
  }
  return found;
});

/** Frames decoded so far, then a wait until more arrive (bounded): proof that video flows now. */
async function framesFlow(page: Page, timeout = 45_000): Promise<void> {
  const before = (await media(page)).framesDecoded;
  await expect.poll(async () => (await media(page)).framesDecoded, { timeout, interval: 500 }).toBeGreaterThan(before + 10);
}

describe('relay switching: a media path slower than signalling', () => {
  let ns: NetNamespace;
  let turn: TurnServer;
  let server: TestServer;
  let hostBrowser: LaunchedBrowser;
  let nsBrowser: LaunchedBrowser;
  let hostApp: AppHost;
  let nsApp: AppHost;
  let alice: Page;
  let bob: Page;
  let carol: Page | undefined;
  const bobLogs: string[] = [];
  const carolLogs: string[] = [];

  beforeAll(async () => {
    ns = NetNamespace.create(NS_INDEX);
    // coturn on the namespace's link (the namespace cannot reach this host's loopback), TCP and UDP, relaying
    // from that address too: Janus, bound to it (ice_enforce_list), answers no check arriving from another one.
    turn = await TurnServer.start({ kind: 'secret', secret: SECRET }, { ip: ns.hostIp, relayIp: ns.hostIp, minPort: 49601, maxPort: 49700 });
    server = await startTestServer({
      host: '0.0.0.0', iceAddress: ns.hostIp,
      // Low thresholds: the slowed path is ~300 ms against a signalling round trip of a few ms.
      // Loss: above 10 % for 3 checks (the loss test applies 30 %).
      turn: { urls: [turn.url, turn.tcpUrl], secret: SECRET, ttlSeconds: 600, useTurnTcpInfo: { rttRatioThreshold: 2, rttThreshold: 150, loss: 10, lossCount: 3 } },
    });
    const nsServerUrl = `http://${ns.hostIp}:${server.port}`;
    hostApp = await AppHost.start(`http://127.0.0.1:${server.port}`);
    nsApp = await AppHost.start(nsServerUrl, ns.hostIp);
    hostBrowser = await launchBrowser();
    nsBrowser = await launchBrowser([`--unsafely-treat-insecure-origin-as-secure=${nsApp.url.replace(/\/$/, '')},${nsServerUrl}`], ns.chromiumWrapper());
  });

  afterAll(async () => {
    if (bobLogs.length > 0) console.log(`[bob's relay log]\n${bobLogs.join('\n')}`);
    if (carolLogs.length > 0) console.log(`[carol's relay log]\n${carolLogs.join('\n')}`);
    const step = async (name: string, run: () => unknown) => {
      const started = Date.now();
      await run();
      if (Date.now() - started > 5000) console.log(`teardown: ${name} took ${Date.now() - started} ms`);
    };
    await step('clear delay', () => { ns?.clearDelay(); ns?.restore(); });
    await step('pages', async () => { await alice?.close(); await bob?.close(); await carol?.close(); });
    await step('ns browser', () => nsBrowser?.close());
    await step('host browser', () => hostBrowser?.close());
    await step('apps', async () => { await nsApp?.close(); await hostApp?.close(); });
    await step('server', () => server?.close());
    await step('coturn', () => turn?.stop());
    await step('namespace', () => ns?.destroy());
  }, 120_000);

  it('a media path made slower than signalling triggers the relay switch through coturn (TCP) and media continues', async () => {
    alice = await hostApp.open(hostBrowser.context);
    bob = await nsApp.open(nsBrowser.context);
    bob.on('console', (message) => {
      if (/relay|round trip|failed|link/i.test(message.text())) bobLogs.push(`${new Date().toISOString().slice(11, 19)} ${message.text()}`);
    });
    expect(await join(alice, server, 'alice', { roomId: 7101 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 7101 })).toEqual({ ok: true });
    for (const [page, other] of [[alice, 'bob'], [bob, 'alice']] as const) {
      await expect.poll(async () => (await eventsOf(page, 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain(other);
      await watch(page, other);
    }
    await framesFlow(alice);
    await framesFlow(bob);
    // Direct at first: no relay candidate selected.
    const before = await selectedLocal(bob);
    expect(before.length).toBeGreaterThan(0);
    expect(before.map((c) => c.candidateType)).not.toContain('relay');

    const kind = ns.delayUdp(300);
    console.log(`UDP out of the namespace slowed (${kind})`);
    const trace = setInterval(() => {
      bob.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.map((pc) => `${pc.connectionState}/${pc.iceConnectionState}`).join(' '))
        .then((states) => bobLogs.push(`${new Date().toISOString().slice(11, 19)} pcs ${states}`), () => undefined);
    }, 2000);
    // 5 slow checks 2 s apart, then the links are rebuilt through TURN over TCP.
    try {
      await expect.poll(async () => {
        const now = await selectedLocal(bob);
        return now.length >= 2 && now.every((c) => c.candidateType === 'relay' && c.relayProtocol === 'tcp');
      }, { timeout: 90_000, interval: 1000 }).toBe(true);
    } finally {
      clearInterval(trace);
    }
    // Media continues: alice decodes bob's frames sent through the relay, bob decodes alice's.
    await framesFlow(alice);
    await framesFlow(bob);
    expect(bobLogs.some((line) => /switching the links to relay/.test(line))).toBe(true);
    // ...through the relay still: no relayed link failed and switched back meanwhile.
    expect(bobLogs.filter((line) => /relay failed/.test(line))).toEqual([]);
    expect((await selectedLocal(bob)).map((c) => c.candidateType)).not.toContain('host');
  });

  it('40 sustained UDP loss above the schedule\'s loss threshold moves media to TURN over TCP, remembered for the client address: the next join starts there', async () => {
    expect(alice && bob).toBeTruthy();
    ns.clearDelay();
    // Bob's switch above connected through relay: remembered for the namespace's address (pages share localStorage).
    await expect.poll(async () => JSON.parse(await memory(bob) ?? '{}').clientIp, { timeout: 15_000 }).toBe(ns.nsIp);
    carol = await nsApp.open(nsBrowser.context);
    const page = carol;
    page.on('console', (message) => {
      if (/relay|round trip|failed|link/i.test(message.text())) carolLogs.push(`${new Date().toISOString().slice(11, 19)} ${message.text()}`);
    });
    await page.evaluate((key) => localStorage.removeItem(key), MEMORY_KEY);
    expect(await join(page, server, 'carol', { roomId: 7101 })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(page, 'remote-video-available')).map((e) => e.data.userId), { timeout: 20_000 }).toContain('alice');
    await watch(page, 'alice');
    await framesFlow(page);
    expect((await selectedLocal(page)).map((c) => c.candidateType)).not.toContain('relay');

    // 30 % of the UDP in and out of the namespace lost at random; TCP (signalling, TURN/TCP) untouched.
    ns.loseUdp(0.3);
    const lossAt = Date.now();
    await expect.poll(async () => {
      const now = await selectedLocal(page);
      return now.length >= 2 && now.every((c) => c.candidateType === 'relay' && c.relayProtocol === 'tcp');
    }, { timeout: 60_000, interval: 1000 }).toBe(true);
    console.log(`30 % UDP loss: carol on TURN/TCP after ${Date.now() - lossAt} ms`);
    const switched = carolLogs.find((line) => /switching the links to relay/.test(line)) ?? '';
    expect(Number(/loss ([\d.]+) %/.exec(switched)?.[1])).toBeGreaterThan(10);
    await framesFlow(page);
    // Remembered once the relay connected (10 s after the switch at most).
    await expect.poll(async () => JSON.parse(await memory(page) ?? '{}').clientIp, { timeout: 15_000 }).toBe(ns.nsIp);

    // The loss is gone, so a direct path would do: a new join from the same page starts on TURN/TCP at once.
    ns.restore();
    await page.evaluate(() => (window as unknown as { e2e: { client: { exitRoom(): Promise<void> } } }).e2e.client.exitRoom());
    const rejoinAt = Date.now();
    const switches = carolLogs.filter((line) => /switching the links to relay/.test(line)).length;
    expect(await join(page, server, 'carol', { roomId: 7101 })).toEqual({ ok: true });
    await expect.poll(async () => (await selectedLocal(page)).length, { timeout: 20_000 }).toBeGreaterThan(0);
    const first = await selectedLocal(page);
    console.log(`rejoin: first selected pairs ${JSON.stringify(first)} after ${Date.now() - rejoinAt} ms`);
    expect(first.every((c) => c.candidateType === 'relay' && c.relayProtocol === 'tcp')).toBe(true);
    expect(carolLogs.some((line) => line.includes(`relay remembered for ${ns.nsIp}`))).toBe(true);
    expect(carolLogs.filter((line) => /switching the links to relay/.test(line))).toHaveLength(switches);
  });

  it('a forced relay that fails (coturn stopped) switches back to direct and media continues', async () => {
    expect(alice && bob).toBeTruthy();
    ns.clearDelay();
    await turn.stop();
    await expect.poll(async () => {
      const now = await selectedLocal(bob);
      return now.length >= 2 && now.every((c) => c.candidateType !== 'relay');
    }, { timeout: 90_000, interval: 1000 }).toBe(true);
    await framesFlow(alice);
    await framesFlow(bob);
    expect(bobLogs.some((line) => /relay failed/.test(line))).toBe(true);
    // The failed relay is forgotten: the next join from this address starts direct.
    await expect.poll(() => memory(bob), { timeout: 20_000 }).toBeNull();
  });
});
