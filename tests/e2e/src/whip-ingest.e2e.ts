import { spawn } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useAppFixture } from './harness/fixture.js';
import { eventsOf, media } from './harness/client-page.js';
import { join, watch } from './harness/join.js';
import { exchange, mediaToken, outboundBytes, plainPage, resourceRequest, whipUrl } from './whep-pages.js';

describe('WHIP ingest: a WHIP client publishes into a room as a user', () => {
  const fixture = useAppFixture();

  it('a Chromium WHIP page (plain RTCPeerConnection and fetch) publishes and an SDK page in the room decodes it', async () => {
    const { server, app, browser } = fixture;
    const viewer = await app.open(browser.context);
    expect(await join(viewer, server, 'viewer', { roomId: 5201 }, { publish: false })).toEqual({ ok: true });
    const obs = await plainPage(await browser.context.newPage(), server.url);
    const answered = await exchange(obs, whipUrl(server.url, 5201), await mediaToken('obs', 5201, 'publish'), 'sendonly');
    expect(answered.status).toBe(201);
    expect(answered.location).toMatch(/^\/whip\/v1\/resources\/[\w-]+$/);
    expect(answered.body).toMatch(/a=rtpmap:\d+ H264\/90000/);
    await expect.poll(async () => (await eventsOf(viewer, 'remote-user-enter')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('obs');
    await expect.poll(async () => (await eventsOf(viewer, 'remote-video-available')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('obs');
    await expect.poll(async () => (await eventsOf(viewer, 'remote-audio-available')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('obs');
    await expect.poll(() => outboundBytes(obs), { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    await watch(viewer, 'obs');
    await expect.poll(async () => (await media(viewer)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await media(viewer)).audioEnergy, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);

    // DELETE leaves the room.
    expect(await resourceRequest(obs, `${server.url}${answered.location!}`, 'DELETE')).toBe(200);
    await expect.poll(async () => (await eventsOf(viewer, 'remote-user-exit')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('obs');
    await obs.close();
    await viewer.close();
  });

  it('a WHIP client that vanishes without DELETE (closes its peer connection) leaves the room within 8 s', async () => {
    const { server, app, browser } = fixture;
    const viewer = await app.open(browser.context);
    expect(await join(viewer, server, 'viewer4', { roomId: 5204 }, { publish: false })).toEqual({ ok: true });
    const obs = await plainPage(await browser.context.newPage(), server.url);
    expect((await exchange(obs, whipUrl(server.url, 5204), await mediaToken('obs4', 5204, 'publish'), 'sendonly')).status).toBe(201);
    await expect.poll(async () => (await eventsOf(viewer, 'remote-user-enter')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('obs4');
    await expect.poll(() => outboundBytes(obs), { timeout: 15_000, interval: 250 }).toBeGreaterThan(0); // the uplink is up
    const closedAt = Date.now();
    await obs.evaluate(() => (window as unknown as { pc: RTCPeerConnection }).pc.close());
    await expect.poll(async () => (await eventsOf(viewer, 'remote-user-exit')).map((e) => e.data.userId), { timeout: 8000, interval: 100 }).toContain('obs4');
    expect(Date.now() - closedAt).toBeLessThan(8000);
    await obs.close();
    await viewer.close();
  });

  it('a WHIP publish without a token, or with a play-only one, is refused and nobody enters', async () => {
    const { server, app, browser } = fixture;
    const viewer = await app.open(browser.context);
    expect(await join(viewer, server, 'viewer2', { roomId: 5202 }, { publish: false })).toEqual({ ok: true });
    const obs = await plainPage(await browser.context.newPage(), server.url);
    const none = await exchange(obs, whipUrl(server.url, 5202), undefined, 'sendonly');
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).message).toMatch(/bearer token/);
    const playOnly = await exchange(obs, whipUrl(server.url, 5202), await mediaToken('obs2', 5202, 'play'), 'sendonly');
    expect(playOnly.status).toBe(403);
    expect(JSON.parse(playOnly.body).message).toMatch(/SEND_AUDIO/);
    expect(await eventsOf(viewer, 'remote-user-enter')).toEqual([]);
    await obs.close();
    await viewer.close();
  });
});

/** A routable address of this machine: libnice (GStreamer's ICE) pairs no candidate with a loopback one. */
function routableAddress(): string {
  const address = Object.values(networkInterfaces()).flat().find((i) => i?.family === 'IPv4' && !i.internal)?.address;
  if (!address) throw new Error('this machine has no routable IPv4 address for the GStreamer WHIP client');
  return address;
}

describe('WHIP ingest from a non-browser client', () => {
  const gstFixture = useAppFixture({ iceAddress: routableAddress() });

  it('a GStreamer webrtcbin WHIP client (non-browser, video m-line first) publishes and an SDK page in the room decodes it', async () => {
    const { server, app, browser } = gstFixture;
    const viewer = await app.open(browser.context);
    expect(await join(viewer, server, 'viewer3', { roomId: 5203 }, { publish: false })).toEqual({ ok: true });
    const script = fileURLToPath(new URL('./whip-gst-client.py', import.meta.url));
    const gst = spawn('/usr/bin/python3', [script, whipUrl(server.url, 5203), await mediaToken('gst', 5203, 'publish')], { stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: Record<string, unknown>[] = [];
    createInterface({ input: gst.stdout }).on('line', (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    try {
      // The exchange's outcome (answered, refused or error); ICE and connection state lines may come before it.
      const outcome = () => lines.find((line) => line.event !== 'ice' && line.event !== 'connection');
      await expect.poll(outcome, { timeout: 30_000, interval: 250 }).toMatchObject({ event: 'answered', status: 201 });
      await expect.poll(async () => (await eventsOf(viewer, 'remote-video-available')).map((e) => e.data.userId), { timeout: 15_000 }).toContain('gst');
      await watch(viewer, 'gst');
      await expect.poll(async () => (await media(viewer)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
      await expect.poll(async () => (await media(viewer)).audioEnergy, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    } finally {
      gst.stdin.end();
      gst.kill();
    }
    await viewer.close();
  });
});
