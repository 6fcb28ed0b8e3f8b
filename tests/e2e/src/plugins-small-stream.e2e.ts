import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { NetNamespace } from './harness/netns.js';
import { pinPressure } from './harness/pressure.js';
import { startTestServer, TEST_APP, type TestServer } from './harness/server.js';

/** This file's network namespace (the other fault files use 1 and 7). */
const NS_INDEX = 25;
/** The host's end of the namespace's veth pair (NetNamespace names it so). */
const HOST_IF = `cvh${NS_INDEX}`;

const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();

/**
 * A poor downlink for the namespace, for real: UDP packets towards it go through a 200 kbit/s bottleneck whose
 * queue holds them up to 600 ms (netem's delay where the kernel has netem, this box's kernel has not: the
 * queue makes the delay, its overflow the loss) and 20 % of the UDP packets it receives are dropped
 * (iptables' statistic match). TCP (signalling) is untouched. The bottleneck overflows at once under the big stream
 * (480p, up to 900 kbit/s; ~300 at the least when the sender's encoder scales down under load) and carries the
 * small one with audio (100 + ~40 kbit/s). Two CI failures fixed the width: at 96 kbit/s the small stream's first
 * key frame got through only by luck; at 400 kbit/s a big stream scaled down under load nearly fitted, and the
 * downlink took ~10 s to look poor.
 */
function degrade(ns: NetNamespace): () => void {
  const tc = (...args: string[]) => sh('tc', args);
  const dev = ['dev', HOST_IF];
  tc('qdisc', 'add', ...dev, 'root', 'handle', '1:', 'htb', 'default', '10');
  tc('class', 'add', ...dev, 'parent', '1:', 'classid', '1:10', 'htb', 'rate', '10gbit');
  tc('class', 'add', ...dev, 'parent', '1:', 'classid', '1:20', 'htb', 'rate', '10gbit');
  try {
    tc('qdisc', 'add', ...dev, 'parent', '1:20', 'handle', '20:', 'netem', 'delay', '300ms', 'loss', '20%');
  } catch {
    tc('qdisc', 'add', ...dev, 'parent', '1:20', 'handle', '20:', 'tbf', 'rate', '200kbit', 'burst', '1600', 'latency', '600ms');
  }
  tc('filter', 'add', ...dev, 'parent', '1:', 'protocol', 'ip', 'u32', 'match', 'ip', 'protocol', '17', '0xff', 'flowid', '1:20');
  const drop = ['INPUT', '-p', 'udp', '!', '-i', 'lo', '-m', 'statistic', '--mode', 'random', '--probability', '0.2', '-j', 'DROP'];
  sh('ip', ['netns', 'exec', ns.name, 'iptables', '-I', ...drop]);
  return () => {
    sh('ip', ['netns', 'exec', ns.name, 'iptables', '-D', ...drop]);
    tc('qdisc', 'del', ...dev, 'root');
  };
}

/**
 * Which stream of `userId`'s main video the page shows, from the picture's size: the big one is 640x480
 * (480p; the sender's encoder may scale it down under CPU load, to 320x240 at worst here), the small one the
 * default 160x120 (the statistics name the stream received, videoType 'big' or 'small': remoteVideoTypes).
 */
async function received(page: Page, userId: string): Promise<'big' | 'small' | undefined> {
  const width = await page.evaluate((id) => (document.querySelector(`#remote-${id}-main video`) as HTMLVideoElement | null)?.videoWidth ?? 0, userId);
  return width >= 240 ? 'big' : width > 0 && width <= 180 ? 'small' : undefined;
}

/** The videoType of each remote video of `userId` in the page's latest statistics event. */
async function remoteVideoTypes(page: Page, userId: string): Promise<string[] | undefined> {
  const last = (await eventsOf(page, 'statistics')).at(-1)?.data as { remoteStatistics: { userId: string; video: { videoType: string }[] }[] } | undefined;
  return last?.remoteStatistics.find((r) => r.userId === userId)?.video.map((v) => v.videoType);
}

const lastQuality = async (page: Page) => (await eventsOf(page, 'network-quality')).at(-1)?.data as { downlinkRTT: number; downlinkLoss: number } | undefined;

describe('Must show 5: SmallStreamAutoSwitcher — loss and delay added to a subscriber\'s network switch it to the small stream within poorDuration + a bound; removed, back to big', () => {
  let ns: NetNamespace;
  let server: TestServer;
  let hostBrowser: LaunchedBrowser;
  let nsBrowser: LaunchedBrowser;
  let hostApp: AppHost;
  let nsApp: AppHost;
  let nsServerUrl: string;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    ns = NetNamespace.create(NS_INDEX);
    // The plugin's rule is what is shown: the server's downlink allocator (issue 43) would move this viewer to the
    // small stream itself, before the plugin sees the loss (its NACKs then repair the random loss, and no queue
    // overflows): off for this server.
    server = await startTestServer({ host: '0.0.0.0', iceAddress: ns.hostIp, downlinkAllocator: false });
    nsServerUrl = `http://${ns.hostIp}:${server.port}`;
    hostApp = await AppHost.start(`http://127.0.0.1:${server.port}`);
    nsApp = await AppHost.start(nsServerUrl, ns.hostIp);
    hostBrowser = await launchBrowser();
    nsBrowser = await launchBrowser([`--unsafely-treat-insecure-origin-as-secure=${nsApp.url.replace(/\/$/, '')},${nsServerUrl}`], ns.chromiumWrapper());
  });

  afterAll(async () => {
    restore?.();
    await nsBrowser?.close();
    await hostBrowser?.close();
    await nsApp?.close();
    await hostApp?.close();
    await server?.close();
    ns?.destroy();
  });

  it('poor downlink → small within poorDuration + 12 s; network restored → big within goodDuration + 12 s', async () => {
    const POOR_MS = 4000;
    const GOOD_MS = 6000;
    const BOUND_MS = 12_000;
    // Alice (host network) publishes a big and a small stream.
    const alice = await hostApp.open(hostBrowser.context);
    // CPU pressure on this shared machine would make the SDK itself receive small streams (docs/behaviour.md §4): pinned nominal.
    await pinPressure(hostBrowser.context, alice);
    const published = await alice.evaluate(async ({ sdkAppId, userSig }) => {
      const w = window as unknown as { e2e: { create(): void; client: { startLocalVideo(o: unknown): Promise<void>; enterRoom(o: unknown): Promise<void> } } };
      w.e2e.create();
      const view = document.createElement('div');
      document.body.appendChild(view);
      await w.e2e.client.startLocalVideo({ view, option: { profile: '480p', small: true } });
      await w.e2e.client.enterRoom({ sdkAppId, userId: 'alice', userSig, roomId: 25005 });
      return 'ok';
    }, { sdkAppId: TEST_APP.sdkAppId, userSig: await server.sig('alice') }).catch((error: unknown) => String(error));
    expect(published).toBe('ok');
    // Bob (inside the namespace) registers the plugin from its UMD file, as a script-tag app does.
    const bob = await nsApp.open(nsBrowser.context);
    await pinPressure(nsBrowser.context, bob);
    const logs: string[] = [];
    bob.on('console', (message) => logs.push(message.text()));
    await bob.addScriptTag({ url: `${nsServerUrl}/sdk/plugins/small-stream-auto-switcher/small-stream-auto-switcher.umd.js` });
    await bob.evaluate(() => {
      const w = window as unknown as { e2e: { create(o: unknown): void }; SmallStreamAutoSwitcher: unknown };
      w.e2e.create({ plugins: [w.SmallStreamAutoSwitcher] });
    });
    expect(await join(bob, server, 'bob', { roomId: 25005 }, { publish: false, reuse: true })).toEqual({ ok: true });
    await expect.poll(async () => (await eventsOf(bob, 'remote-video-available')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('alice');
    await watch(bob, 'alice');
    await expect.poll(() => received(bob, 'alice'), { timeout: 20_000 }).toBe('big');
    const started = await bob.evaluate((o) => (window as unknown as { e2e: { call(m: string, a: unknown[]): Promise<{ ok: boolean }> } }).e2e.call('startPlugin', ['SmallStreamAutoSwitcher', o]),
      { rttPoorLimit: 200, lossPoorLimit: 5, poorDuration: POOR_MS, rttGoodLimit: 150, lossGoodLimit: 3, goodDuration: GOOD_MS, sleepTime: 2000, maxAutoSwitchToSmallCount: 2 });
    expect(started).toMatchObject({ ok: true });
    // A healthy network does not switch (for 2 × poorDuration).
    const healthyUntil = Date.now() + 2 * POOR_MS;
    while (Date.now() < healthyUntil) {
      expect(await received(bob, 'alice')).toBe('big');
      await bob.waitForTimeout(500);
    }

    restore = degrade(ns);
    const degradedAt = Date.now();
    try {
      await expect.poll(() => received(bob, 'alice'), { timeout: POOR_MS + BOUND_MS, interval: 250 }).toBe('small');
    } catch (error) {
      // What the subscriber saw, to tell a slow rule from a network that did not degrade.
      console.log('[small-stream] downlink samples:', JSON.stringify((await eventsOf(bob, 'network-quality')).slice(-10).map((e) => e.data)));
      console.log('[small-stream] plugin log:', logs.filter((l) => /SmallStream/.test(l)).join('\n'));
      throw error;
    }
    const toSmallMs = Date.now() - degradedAt;
    const poorQuality = await lastQuality(bob);
    expect(logs.some((line) => /switching alice to the small stream/.test(line))).toBe(true);
    // The statistics report the stream actually received (as the original's remote video 'small').
    await expect.poll(() => remoteVideoTypes(bob, 'alice'), { timeout: 10_000, interval: 500 }).toEqual(['small']);

    restore();
    restore = undefined;
    const restoredAt = Date.now();
    await expect.poll(() => received(bob, 'alice'), { timeout: GOOD_MS + BOUND_MS, interval: 250 }).toBe('big');
    const toBigMs = Date.now() - restoredAt;
    console.log(`[small-stream] to small after ${toSmallMs} ms (downlink then ${JSON.stringify(poorQuality)}); back to big after ${toBigMs} ms`);
    expect(logs.some((line) => /switching alice to the big stream/.test(line))).toBe(true);
    await expect.poll(() => remoteVideoTypes(bob, 'alice'), { timeout: 10_000, interval: 500 }).toEqual(['big']);
    await alice.close();
    await bob.close();
  }, 180_000);
});
