import { describe, expect, it } from 'vitest';
import { useAppFixture } from './harness/fixture.js';
import { join } from './harness/join.js';
import { TEST_APP } from './harness/server.js';
import { exchange, inbound, mediaToken, plainPage, resourceRequest, whepUrl } from './whep-pages.js';

describe('WHEP playback of a room\'s streams (RFC 9725)', () => {
  const fixture = useAppFixture();

  it('a plain WHEP page (only the RFC\'s HTTP exchange and RTCPeerConnection, no SDK) plays a room user\'s stream', async () => {
    const { server, app, browser } = fixture;
    const anchor = await app.open(browser.context);
    expect(await join(anchor, server, 'anchor', { roomId: 5101 })).toEqual({ ok: true });
    const viewer = await plainPage(await browser.context.newPage(), server.url);
    const answered = await exchange(viewer, whepUrl(server.url, 5101, 'anchor'), await mediaToken('viewer', 5101, 'play'), 'recvonly');
    expect(answered.status).toBe(201);
    expect(answered.contentType).toBe('application/sdp');
    expect(answered.location).toMatch(/^\/whep\/v1\/resources\/[\w-]+$/);
    expect(answered.body).toMatch(/a=candidate:/); // every candidate in the answer: no trickle needed
    await expect.poll(async () => (await inbound(viewer)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await inbound(viewer)).audioBytes, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    expect((await inbound(viewer)).width).toBeGreaterThan(0);

    const resource = `${server.url}${answered.location!}`;
    expect(await resourceRequest(viewer, resource, 'PATCH')).toBe(405);
    expect(await resourceRequest(viewer, resource, 'DELETE')).toBe(200);
    expect(await resourceRequest(viewer, resource, 'DELETE')).toBe(404);
    await expect.poll(() => viewer.evaluate(() => (window as unknown as { pc: RTCPeerConnection }).pc.connectionState), { timeout: 20_000, interval: 500 })
      .toMatch(/disconnected|failed|closed/);
    await viewer.close();
    await anchor.close();
  });

  it('bad tokens are refused with 401 and a body; an unknown stream is 404', async () => {
    const { server, app, browser } = fixture;
    const anchor = await app.open(browser.context);
    expect(await join(anchor, server, 'anchor2', { roomId: 5102 })).toEqual({ ok: true });
    const viewer = await plainPage(await browser.context.newPage(), server.url);
    const url = whepUrl(server.url, 5102, 'anchor2');
    const none = await exchange(viewer, url, undefined, 'recvonly');
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body)).toMatchObject({ code: expect.any(Number), message: expect.stringMatching(/bearer token/) });
    const foreign = await exchange(viewer, url, await mediaToken('viewer', 5102, 'play', 'another-apps-secret'), 'recvonly');
    expect(foreign.status).toBe(401);
    expect(JSON.parse(foreign.body).message).toMatch(/wrong-key/);
    const otherRoom = await exchange(viewer, url, await mediaToken('viewer', 9999, 'play'), 'recvonly');
    expect(otherRoom.status).toBe(401);
    expect(JSON.parse(otherRoom.body).message).toMatch(/9999/);
    const publishOnly = await exchange(viewer, url, await mediaToken('viewer', 5102, 'publish'), 'recvonly');
    expect(publishOnly.status).toBe(403);
    const unknown = await exchange(viewer, whepUrl(server.url, 5102, 'nobody'), await mediaToken('viewer', 5102, 'play'), 'recvonly');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).message).toMatch(/nobody/);
    const noRoom = await exchange(viewer, `${server.url}/whep/v1/${TEST_APP.sdkAppId}/rooms/5103/users/anchor2`, await mediaToken('viewer', 5103, 'play'), 'recvonly');
    expect(noRoom.status).toBe(404);
    await viewer.close();
    await anchor.close();
  });
});
