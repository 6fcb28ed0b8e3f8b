import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cdn, rect, useCdnPlugin } from './harness/cdn-client.js';
import { useAppFixture, type AppFixture } from './harness/fixture.js';
import { join } from './harness/join.js';
import { TEST_APP } from './harness/server.js';
import { exchange, inbound, mediaToken, plainPage, resourceRequest, whepUrl } from './whep-pages.js';

/** What the LEBPlayer page recorded: callback calls and the player's elements. */
interface LebState {
  events: { name: string; data: Record<string, unknown> }[];
  videoWidth: number;
  volume: number;
  muted: boolean;
  objectFit: string;
  elements: number;
  /** The Web Audio gain of volumes above 100 (undefined: the element's own volume plays). */
  gain: string | undefined;
}

const lebState = (page: Page): Promise<LebState> => page.evaluate(() => {
  const w = window as unknown as { lebEvents: LebState['events'] };
  const video = document.querySelector<HTMLVideoElement>('#leb video');
  const audio = document.querySelector<HTMLAudioElement>('#leb audio');
  return {
    events: w.lebEvents, videoWidth: video?.videoWidth ?? 0, volume: audio?.volume ?? -1, muted: audio?.muted ?? false,
    objectFit: video?.style.objectFit ?? '', elements: document.querySelectorAll('#leb video, #leb audio').length,
    gain: document.querySelector<HTMLElement>('#leb [data-conclave=lebplayer]')?.dataset.gain,
  };
});

type PluginCall = { ok: boolean; code?: number; message?: string };
/** Calls startPlugin / updatePlugin / stopPlugin('LEBPlayer', options) in the page; options.callback is filled in. */
const leb = (page: Page, method: 'startPlugin' | 'updatePlugin' | 'stopPlugin', options?: Record<string, unknown>): Promise<PluginCall> =>
  page.evaluate(async ({ method, options }) => {
    const w = window as unknown as { lebEvents: { name: string; data: unknown }[]; e2e: { client: Record<string, (...a: unknown[]) => Promise<unknown>> } };
    const record = (name: string) => (data: unknown) => w.lebEvents.push({ name, data: JSON.parse(JSON.stringify(data ?? null)) as unknown });
    const withCallbacks = method === 'startPlugin' && options ? {
      ...options, callback: {
        onLoadStart: (type: string) => record('load-start')({ type }), onPlayStateChanged: record('play-state'), onStats: record('stats'),
        onError: (error: { code: number }) => record('error')({ code: error.code }),
      },
    } : options;
    try {
      await w.e2e.client[method]('LEBPlayer', ...(withCallbacks ? [withCallbacks] : []));
      return { ok: true };
    } catch (error) {
      const e = error as { code?: number; message?: string };
      return { ok: false, code: e.code, message: e.message };
    }
  }, { method, options });

/** A page of the app with the LEBPlayer plugin registered and a 320×240 view `#leb`. */
async function lebPage({ server, app, browser }: AppFixture): Promise<Page> {
  const page = await app.open(browser.context);
  await page.addScriptTag({ url: `${server.url}/sdk/plugins/lebplayer/lebplayer.umd.js` });
  await page.evaluate(() => {
    const w = window as unknown as { lebEvents: unknown[]; LEBPlayer: unknown; e2e: { create(o: unknown): void } };
    w.lebEvents = [];
    w.e2e.create({ plugins: [w.LEBPlayer] });
    const view = document.createElement('div');
    view.id = 'leb';
    view.style.cssText = 'width:320px;height:240px';
    document.body.appendChild(view);
  });
  return page;
}

/** The colour (r, g, b) of the LEBPlayer's video at (x, y) of its frame, averaged over 8×8 pixels. */
const pixelAt = (page: Page, x: number, y: number): Promise<number[]> => page.evaluate(({ x, y }) => {
  const video = document.querySelector<HTMLVideoElement>('#leb video');
  if (!video || video.videoWidth === 0) return [-1, -1, -1];
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const g = canvas.getContext('2d', { willReadFrequently: true })!;
  g.drawImage(video, 0, 0);
  const data = g.getImageData(x - 4, y - 4, 8, 8).data;
  const sum = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4) for (let c = 0; c < 3; c++) sum[c] += data[i + c];
  return sum.map((v) => Math.round(v / 64));
}, { x, y });

describe('WHEP playback of a room\'s streams (RFC 9725)', () => {
  const fixture = useAppFixture();

  it('a plain WHEP page (only the RFC\'s HTTP exchange and RTCPeerConnection, no SDK) plays a room user\'s stream', async () => {
    const { server, app, browser } = fixture;
    const anchor = await app.open(browser.context);
    expect(await join(anchor, server, 'anchor', { roomId: 5101 })).toEqual({ ok: true });
    const viewer = await plainPage(await browser.context.newPage(), server.url);
    const linksBefore = server.stats().downlinks;
    const answered = await exchange(viewer, whepUrl(server.url, 5101, 'anchor'), await mediaToken('viewer', 5101, 'play'), 'recvonly');
    expect(answered.status).toBe(201);
    expect(answered.contentType).toBe('application/sdp');
    expect(answered.location).toMatch(/^\/whep\/v1\/resources\/[\w-]+$/);
    expect(answered.body).toMatch(/a=candidate:/); // every candidate in the answer: no trickle needed
    await expect.poll(async () => (await inbound(viewer)).framesDecoded, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
    await expect.poll(async () => (await inbound(viewer)).audioBytes, { timeout: 15_000, interval: 500 }).toBeGreaterThan(0);
    // The decoded size can show in the statistics a little after the first decoded frame.
    await expect.poll(async () => (await inbound(viewer)).width, { timeout: 5_000, interval: 200 }).toBeGreaterThan(0);

    const resource = `${server.url}${answered.location!}`;
    expect(await resourceRequest(viewer, resource, 'PATCH')).toBe(405);
    expect(await resourceRequest(viewer, resource, 'DELETE')).toBe(200);
    expect(await resourceRequest(viewer, resource, 'DELETE')).toBe(404);
    await expect.poll(() => server.stats().downlinks, { timeout: 10_000, interval: 250 }).toBe(linksBefore); // the server let the link go
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

  it('a page plays a room\'s stream through the LEBPlayer plugin (WHEP URL) with first frame and volume control', async () => {
    const { server, app, browser } = fixture;
    const anchor = await app.open(browser.context);
    expect(await join(anchor, server, 'anchor3', { roomId: 5104 })).toEqual({ ok: true });
    const page = await lebPage(fixture);
    const loggerConfig = { sdkAppId: TEST_APP.sdkAppId, userId: 'player' };
    const url = `${whepUrl(server.url, 5104, 'anchor3')}?access_token=${encodeURIComponent(await mediaToken('player', 5104, 'play'))}`;
    // Refusals first: a missing url is the catalogue's INVALID_PARAMETER, a foreign token the server's refusal.
    expect(await leb(page, 'startPlugin', { view: 'leb', loggerConfig })).toMatchObject({ ok: false, code: 5000 });
    expect(await leb(page, 'startPlugin', { view: 'nowhere', url, loggerConfig })).toMatchObject({ ok: false, code: 5000 });
    const foreign = `${whepUrl(server.url, 5104, 'anchor3')}?access_token=${encodeURIComponent(await mediaToken('player', 5104, 'play', 'not-the-key'))}`;
    expect(await leb(page, 'startPlugin', { view: 'leb', url: foreign, loggerConfig })).toMatchObject({ ok: false, code: 5400, message: expect.stringMatching(/401.*wrong-key/) });

    await page.evaluate(() => { (window as unknown as { lebEvents: unknown[] }).lebEvents = []; });
    const linksBefore = server.stats().downlinks;
    expect(await leb(page, 'startPlugin', { view: 'leb', url, loggerConfig, volume: 60, fillMode: 'cover' })).toEqual({ ok: true });
    await expect.poll(async () => (await lebState(page)).videoWidth, { timeout: 30_000, interval: 250 }).toBeGreaterThan(0); // first frame
    let state = await lebState(page);
    expect(state.events.filter((e) => e.name === 'load-start').map((e) => e.data.type)).toEqual(['video', 'audio']);
    // The video's PLAYING state can be announced a moment after its size is known.
    await expect.poll(async () => (await lebState(page)).events.some((e) => e.name === 'play-state' && e.data.type === 'video' && e.data.state === 'PLAYING'), { timeout: 5_000, interval: 100 }).toBe(true);
    expect(state).toMatchObject({ volume: 0.6, muted: false, objectFit: 'cover' });
    await expect.poll(async () => (await lebState(page)).events.filter((e) => e.name === 'stats').map((e) => e.data as { audio: { bytesReceived: number }; video: { framesDecoded: number; width: number } })
      .some((s) => s.audio.bytesReceived > 0 && s.video.framesDecoded > 0 && s.video.width > 0), { timeout: 15_000, interval: 500 }).toBe(true);

    // Volume control, mute, fill mode, pause and resume.
    expect(await leb(page, 'updatePlugin', { volume: 30 })).toEqual({ ok: true });
    expect((await lebState(page)).volume).toBeCloseTo(0.3);
    expect(await leb(page, 'updatePlugin', { muted: true, fillMode: 'contain' })).toEqual({ ok: true });
    expect(await lebState(page)).toMatchObject({ muted: true, objectFit: 'contain' });
    expect(await leb(page, 'updatePlugin', { volume: 900 })).toMatchObject({ ok: false, code: 5000 });
    // Above 100 amplifies (the original's range is 0–500): a Web Audio gain plays the sound, the element is muted.
    expect(await leb(page, 'updatePlugin', { volume: 300, muted: false })).toEqual({ ok: true });
    expect(await lebState(page)).toMatchObject({ gain: '3', muted: true });
    expect(await leb(page, 'updatePlugin', { muted: true })).toEqual({ ok: true });
    expect((await lebState(page)).gain).toBe('0');
    expect(await leb(page, 'updatePlugin', { volume: 100, muted: false })).toEqual({ ok: true });
    expect(await lebState(page)).toMatchObject({ gain: undefined, muted: false, volume: 1 });
    expect(await leb(page, 'updatePlugin', { action: 'pause' })).toEqual({ ok: true });
    await expect.poll(async () => (await lebState(page)).events.some((e) => e.name === 'play-state' && e.data.state === 'PAUSED'), { timeout: 5000 }).toBe(true);
    expect(await leb(page, 'updatePlugin', { action: 'resume' })).toEqual({ ok: true });
    await expect.poll(async () => (await lebState(page)).events.filter((e) => e.name === 'play-state' && e.data.type === 'video' && e.data.state === 'PLAYING').length, { timeout: 5000 }).toBe(2);

    // stop ends the WHEP session on the server and removes the player.
    expect(await leb(page, 'stopPlugin')).toEqual({ ok: true });
    state = await lebState(page);
    expect(state.elements).toBe(0);
    expect(state.events.filter((e) => e.name === 'play-state' && e.data.state === 'STOPPED')).toHaveLength(2);
    await expect.poll(() => server.stats().downlinks, { timeout: 10_000, interval: 250 }).toBe(linksBefore);
    expect(await leb(page, 'updatePlugin', { volume: 10 })).toMatchObject({ ok: false, code: 5100 });
    await page.close();
    await anchor.close();
  });
  it('a page plays a CDN mix through the LEBPlayer plugin by its streamId: first frame, and the mix\'s pixels (the publisher in its rectangle over the background)', async () => {
    const { server, app, browser } = fixture;
    const anchor = await app.open(browser.context);
    expect(await join(anchor, server, 'mixer', { roomId: 5105 })).toEqual({ ok: true });
    await useCdnPlugin(anchor, server.url);
    // A 320×180 mix: the publisher in the left half (stretched), a blue background on the right.
    expect(await cdn(anchor, 'startPlugin', {
      target: { publishMode: 'PublishMixStreamToCDN', streamId: 'mix5105' },
      encoding: { videoWidth: 320, videoHeight: 180, videoFramerate: 15, videoGOP: 2, videoBitrate: 300, audioBitrate: 32, audioChannels: 1 },
      mix: { backgroundColor: 0x0000ff, videoLayoutList: [rect('mixer', 0, 0, 160, 180, 1)] },
    })).toMatchObject({ ok: true });
    const page = await lebPage(fixture);
    const loggerConfig = { sdkAppId: TEST_APP.sdkAppId, userId: 'player' };
    const token = encodeURIComponent(await mediaToken('player', 5105, 'play'));
    // A token for another room than the mix's is refused; an unknown streamId is 404.
    const wrongRoom = await leb(page, 'startPlugin', { view: 'leb', url: `${server.url}/whep/v1/${TEST_APP.sdkAppId}/streams/mix5105?access_token=${encodeURIComponent(await mediaToken('player', 5106, 'play'))}`, loggerConfig });
    expect(wrongRoom).toMatchObject({ ok: false, code: 5400, message: expect.stringMatching(/401/) });
    expect(await leb(page, 'startPlugin', { view: 'leb', url: `${server.url}/whep/v1/${TEST_APP.sdkAppId}/streams/nomix?access_token=${token}`, loggerConfig })).toMatchObject({ ok: false, code: 5400, message: expect.stringMatching(/404/) });

    expect(await leb(page, 'startPlugin', { view: 'leb', url: `${server.url}/whep/v1/${TEST_APP.sdkAppId}/streams/mix5105?access_token=${token}`, loggerConfig })).toEqual({ ok: true });
    await expect.poll(async () => (await lebState(page)).videoWidth, { timeout: 20_000, interval: 250 }).toBe(320); // first frame, at the mix's size
    // The background shows blue on the right; the publisher's camera (not the background, not black) on the left.
    const blue = (c: number[]) => c[2] > 150 && c[0] < 80 && c[1] < 80;
    await expect.poll(async () => blue(await pixelAt(page, 240, 90)), { timeout: 10_000, interval: 250 }).toBe(true);
    await expect.poll(async () => {
      const c = await pixelAt(page, 80, 90);
      return !blue(c) && c[0] + c[1] + c[2] > 60;
    }, { timeout: 10_000, interval: 250 }).toBe(true);
    expect(await leb(page, 'stopPlugin')).toEqual({ ok: true });
    expect(await cdn(anchor, 'stopPlugin', { target: { publishMode: 'PublishMixStreamToCDN' } })).toMatchObject({ ok: true });
    await page.close();
    await anchor.close();
  });
});
