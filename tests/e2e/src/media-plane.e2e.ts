import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from './harness/browser.js';
import { AppHost, eventsOf, media } from './harness/client-page.js';
import { startAppFixture, stopAppFixture } from './harness/fixture.js';
import { join, watch } from './harness/join.js';
import { E2E_ENGINE, type TestServer } from './harness/server.js';

/** Live (not closed) peer connections of a page. */
const peerConnections = (page: Page): Promise<number> => page.evaluate(() =>
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState !== 'closed').length);

/** Remote videos rendered in the page, with their size. */
const renderedWidths = (page: Page): Promise<number[]> => page.evaluate(() =>
  [...document.querySelectorAll('[id^="remote-"] video')].map((v) => (v as HTMLVideoElement).videoWidth));

/** What a page receives, for a failure message: its peer connections' states, each remote video element and
 * each inbound video stream (bytes, frames decoded, size). */
const receiveState = (page: Page): Promise<string> => page.evaluate(async () => {
  const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.filter((pc) => pc.connectionState !== 'closed');
  const inbound: string[] = [];
  for (const pc of pcs) {
    (await pc.getStats()).forEach((s: { type: string; kind?: string; bytesReceived?: number; framesReceived?: number; framesDecoded?: number;
      keyFramesDecoded?: number; framesDropped?: number; packetsLost?: number; pliCount?: number; nackCount?: number; frameWidth?: number; mid?: string }) => {
      if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
      inbound.push(`mid ${s.mid}: ${s.bytesReceived ?? 0} B, ${s.framesReceived ?? 0} frames in, ${s.framesDecoded ?? 0} decoded (${s.keyFramesDecoded ?? 0} key, `
        + `${s.framesDropped ?? 0} dropped), ${s.frameWidth ?? 0} px, lost ${s.packetsLost ?? 0}, PLI ${s.pliCount ?? 0}, NACK ${s.nackCount ?? 0}`);
    });
  }
  const videos = [...document.querySelectorAll('[id^="remote-"] video')].map((v) => {
    const video = v as HTMLVideoElement;
    return `${video.closest('[id^="remote-"]')?.id}: ${video.videoWidth} px, ready ${video.readyState}${video.paused ? ', paused' : ''}`;
  });
  return `pcs ${pcs.map((pc) => `${pc.connectionState}/${pc.signalingState}`).join(', ')}; videos [${videos.join('; ')}]; inbound [${inbound.join('; ')}]`;
});

/** What a publishing page sends: its outbound video bytes and frames encoded. */
const sendState = (page: Page): Promise<string> => page.evaluate(async () => {
  const out: string[] = [];
  for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
    if (pc.connectionState === 'closed') continue;
    (await pc.getStats()).forEach((s: { type: string; kind?: string; bytesSent?: number; framesEncoded?: number }) => {
      if (s.type === 'outbound-rtp' && s.kind === 'video') out.push(`${s.bytesSent ?? 0} B/${s.framesEncoded ?? 0} frames`);
    });
    out.push(`(${pc.connectionState})`);
  }
  return out.join(' ');
});

/** The Janus process this test process's server spawned (its child named janus). */
function janusChildPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'janus' && ppid === process.pid) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

describe(`media plane (${E2E_ENGINE} engine)`, () => {
  let server: TestServer;
  let browser: LaunchedBrowser;
  let app: AppHost;

  beforeAll(async () => {
    ({ server, app, browser } = await startAppFixture());
  });

  afterAll(() => stopAppFixture({ server, app, browser }));

  it('a 12-user room: 11 pages publish 120p without rendering, a 12th renders all 11, every page has at most 3 peer connections', async () => {
    const publishers: Page[] = [];
    for (let i = 1; i <= 11; i++) {
      const page = await app.open(browser.context);
      // Publishers render nobody and receive nobody (no audio either): the 12th page is the one that receives.
      expect(await join(page, server, `pub-${i}`, { roomId: 1601 }, { profile: '120p', enter: { autoReceiveAudio: false } })).toEqual({ ok: true });
      publishers.push(page);
    }
    const viewer = await app.open(browser.context);
    expect(await join(viewer, server, 'viewer', { roomId: 1601 }, { publish: false })).toEqual({ ok: true });
    await expect.poll(async () => new Set((await eventsOf(viewer, 'remote-video-available')).map((e) => e.data.userId)).size, { timeout: 60_000, interval: 500 }).toBe(11);
    for (let i = 1; i <= 11; i++) await watch(viewer, `pub-${i}`);
    // The embedded engine on a loaded 2-core CI machine once rendered 6 of 11 within 90 s: a longer bound.
    try {
      await expect.poll(async () => (await renderedWidths(viewer)).filter((w) => w > 0).length, { timeout: 150_000, interval: 1000 }).toBe(11);
    } catch (error) {
      const sent = await Promise.all(publishers.map(async (page, i) => `pub-${i + 1} ${await sendState(page)}`));
      throw new Error(`${(error as Error).message}\nviewer: ${await receiveState(viewer)}\npublishers: ${sent.join('; ')}`);
    }
    for (const page of [viewer, ...publishers]) expect(await peerConnections(page)).toBeLessThanOrEqual(3);
    // Twelve publishing pages would load the machine through the next test.
    await Promise.all([viewer, ...publishers].map((page) => page.close()));
  }, 300_000);

  it.skipIf(E2E_ENGINE !== 'janus')('Janus killed with SIGKILL mid-call: both pages decode each other again with no app code and no remote-user-exit', async () => {
    const alice = await app.open(browser.context);
    const bob = await app.open(browser.context);
    expect(await join(alice, server, 'alice', { roomId: 1602 })).toEqual({ ok: true });
    expect(await join(bob, server, 'bob', { roomId: 1602 })).toEqual({ ok: true });
    await watch(alice, 'bob');
    await watch(bob, 'alice');
    for (const page of [alice, bob]) await expect.poll(async () => (await media(page)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);

    const pid = janusChildPid();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    const atKill = await Promise.all([alice, bob].map(async (page) => (await media(page)).framesDecoded));
    // Frames in flight at the kill are a handful; 60 more mean video decodes again on new links.
    for (const [i, page] of [alice, bob].entries()) {
      await expect.poll(async () => (await media(page)).framesDecoded, { timeout: 90_000, interval: 1000 }).toBeGreaterThan(atKill[i] + 60);
    }
    expect(janusChildPid()).not.toBe(pid);
    for (const page of [alice, bob]) expect(await eventsOf(page, 'remote-user-exit')).toEqual([]);
    await Promise.all([alice.close(), bob.close()]);
  }, 180_000);
});
